"""``core.asks.several_asks``: the rule that sends a goal to PLAN at once (and to the hierarchical master).

A task told in steps asks one thing; only two questions, or two asks joined in one sentence, ask several.
"""

import pytest

from ragix_core.core.asks import asks_quantity, several_asks


@pytest.mark.parametrize("goal", [
    "How many tests are there, and which one is slowest?",
    "Where is the retry limit set and what is its value?",
    "Count the YAML files; then list the largest one.",
    "Is there a Makefile? Which targets does it define?",
    "Find the biggest log, then show its last line.",
    # a count of something else, or a count asked first, is a second ask
    "Which tests fail, and how many of them are slow?",
    "How many tests are there, and how many fail?",
    "Which module is biggest, and how many tests does it run?",
    "Which directory has the most files, and how many files are there?",  # "there" may be everywhere
    "Which file is largest, and how many lines does the README have?",
])
def test_two_asks_in_one_sentence_or_two_questions_are_several(goal):
    assert several_asks(goal)


@pytest.mark.parametrize("goal", [
    # steps of one task, each its own sentence, ending in one count
    "Make a folder named out. Inside it, create two files, and count the files you made.",
    "You must count the rows of every table. Read each file, and count its lines, then add them up.",
    # a relative clause after a comma continues the ask
    "Find the total, which is the sum of both columns.",
    "When the parser gets no width, what width does it use?",
    # a question mark inside a call is not a question
    "Parser(width=?) by default?",
    "How many lines does main.py have?",
    # a bare count after the name asked for is that name's measure: one ranked table answers both
    "Which directory directly contains the most files, and how many? Files below it don't count.",
    "Which file is largest, and how many lines?",
    # ... or a count of "it"/"they", which can only be what was named
    "which directory has the most files and how many does it have?",
    "Which module is biggest, and how many lines does it have?",
    "What file is the longest, and how many lines are in it?",
    "Which folders hold tests, and how many files they contain?",
    "Hello!",
])
def test_one_ask_told_in_steps_or_clauses_is_not_several(goal):
    assert not several_asks(goal)


@pytest.mark.parametrize("goal,expected", [
    ("How many files are in src?", True), ("What is the total size of the logs?", True),
    ("Count the TODO comments", True), ("What is the average line length?", True),
    ("Which file is the largest?", False), ("Where is main defined?", False), ("Show the README", False),
    ("Which task in tasks.csv takes longest?", False),
    # three paraphrases of one total: each must be read as a quantity
    ("Add up the minutes of the urgent tasks in tasks.csv", True),
    ("How long do the urgent tasks in tasks.csv take altogether?", True),
    ("What do the urgent tasks in tasks.csv come to in minutes, combined?", True),
    ("What size are the txt files in all?", True),
    # a verb in any form (NL2Bash writes its tasks in the third person)
    ("Counts all files in the current directory and subfolders.", True),
    ("Counting the lines of every log, what do you get?", True), ("Sums the sizes of the logs", True),
    ("Tally up the files below here.", True),
    # "mean" as a verb asks no quantity; the mean of values does
    ("What does the -r flag mean?", False), ("What is the mean of the values in data.csv?", True),
])
def test_a_goal_asks_for_a_quantity_by_its_grammar(goal, expected):
    assert asks_quantity(goal) is expected
