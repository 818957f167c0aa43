"""A count of file names where the goal counts lines (evidence/count_unit.py)."""

import pytest

from ragix_core.evidence.count_unit import (asks_line_count, asks_without_the_start, count_unit_mistake,
                                           names_counted_for_lines, start_counted)

# Wordings nobody here wrote the rule against (AgentBench OS, NL2Bash), and paraphrases of them.
LINES = [
    "Your task is to count the total number of lines in all the text files in dir1 and dir2.",
    "Prints total number of lines of all *.java files in /testbed folder and subfolders.",
    "Count all the lines of all php files in the /testbed directory recursively",
    "Counts total lines in PHP and JS files in /testbed.",
    "How many lines do the .txt files hold altogether?",
    "What is the line count of the Python sources?",
    "Determine how many lines of code (LOC) are written in C within the directory.",
    "Tally the lines across every markdown file.",
    "Sum of lines in the log files, please.",
    "What is the length, in lines, of src/app.py?",
    "how long is the main readme, line-wise?",
    "What's the size of the changelog, measured in lines?",
]
NOT_LINES = [
    "Count the number of files with more than 10 lines.",
    "How many files are in this directory and its subdirectories?",
    "How many .py files are there in this project?",
    "Which file has the most lines?",
    "How many words are in notes.txt?",
    "Show the first 5 lines of README.md",
]


@pytest.mark.parametrize("goal", LINES)
def test_a_goal_counting_lines_is_read_in_its_wordings(goal):
    assert asks_line_count(goal)


@pytest.mark.parametrize("goal", NOT_LINES)
def test_a_goal_counting_files_or_other_things_is_not(goal):
    assert not asks_line_count(goal)


@pytest.mark.parametrize("command", [
    "find . -name '*.txt' | wc -l",
    "find dir1 dir2 -type f -name '*.txt' | sort | wc -l",
    "ls *.py | wc -l",
    "grep -rl . src | wc -l",
    "find . -name '*.c' | grep -v test | wc --lines",
])
def test_a_listing_counted_by_wc_is_named_when_the_goal_counts_lines(command):
    why = names_counted_for_lines(LINES[0], command)
    assert why is not None and "counted the files, not the lines" in why


@pytest.mark.parametrize("command", [
    "find . -name '*.txt' | xargs wc -l",  # the files reach wc
    "find . -name '*.txt' | xargs cat | wc -l",  # their contents do
    "cat a.txt b.txt | wc -l",
    "grep -r error . | wc -l",  # matching lines, counted
    "wc -l a.txt",
    "find . -name '*.txt' -exec wc -l {} + | wc -l",  # another shape (a count of wc's rows), not this one
    "ls -l | wc -l",
])
def test_a_count_of_lines_or_another_shape_is_left_alone(command):
    assert names_counted_for_lines(LINES[0], command) is None


def test_matching_lines_counted_are_lines_whatever_the_goal_says():
    goal = "Count the number of lines containing the word error in the log."
    assert asks_line_count(goal) and names_counted_for_lines(goal, "grep -i error app.log | wc -l") is None


def test_the_same_command_for_a_goal_that_counts_files_is_no_mistake():
    assert names_counted_for_lines(NOT_LINES[1], "find . -type f | wc -l") is None
    assert names_counted_for_lines("", "find . -type f | wc -l") is None


def test_the_main_path_retries_a_file_count_for_a_line_count_with_the_feedback(tmp_path):
    from ragix_core.core.types import PlanStep, ReasoningState, StepStatus, ToolCall
    from ragix_core.tools import ToolBox
    from tests.reasoning_v30.test_agent_fns import fns
    from tests.scripted_llm import ScriptedLLM

    (tmp_path / "a.txt").write_text("1\n2\n3\n")
    (tmp_path / "b.txt").write_text("1\n")
    f = fns(ScriptedLLM([]), ToolBox(tmp_path, profile="reflect"))
    st = ReasoningState(goal=LINES[0], session_id="s")
    step = f.execute_step(PlanStep(1, "count", ToolCall("shell", {"command": "ls | grep txt | wc -l"})), st)
    assert step.status == StepStatus.SUCCESS and step.result.stdout.strip() == "2"
    assert "counted the files" in (step.result.mistake or "")
    # a `find` listing is mended by ragix instead (evidence/line_count_mends.py): its files' lines are counted
    step = f.execute_step(PlanStep(2, "count", ToolCall("shell", {"command": "find . -name '*.txt' | wc -l"})), st)
    assert step.status == StepStatus.SUCCESS and "4 total" in step.result.stdout and not step.result.mistake
    assert step.tool_call.args["planned"] == "find . -name '*.txt' | wc -l"


# count_unit's second shape: one kind of entry counted where the goal counts files and directories.
BOTH = [
    "calculate the total number of files and directories (recursive) in a given directory.",  # AgentBench OS
    "you need to find the total number of files and directories in a given directory, excluding the directory itself",
    "determine the number of directories, subdirectories and files in a specific directory.",
    "find the total number of regular files and directories inside a given folder",
    "Count the number of files and directories in the entire current directory",  # NL2Bash fs_5-0
    "How many files/folders are under docs?",
    "count every folder and file below src",
    # paraphrases written after the rule, to check it is not keyed to the wordings above
    "How many entries (files plus folders) are under src?",
    "how many files and dirs live under tests/?",
    "What's the total count of items, files and subdirectories included, in docs?",
    "Tell me how many things are in data/: files as well as directories.",
]
NOT_BOTH = [
    "How many files are in the docs directory?",
    "Count the directories under src.",
    "How many lines are in the files of the logs directory?",
    "Copy all files and folders whose names contain FooBar to the tmp directory",  # no count
    "How many files does the tests directory hold?",
    "Count the files in each directory of src.",
]


@pytest.mark.parametrize("goal", BOTH)
def test_a_goal_counting_files_and_directories_is_read_in_its_wordings(goal):
    from ragix_core.evidence.count_unit import asks_files_and_directories

    assert asks_files_and_directories(goal)


@pytest.mark.parametrize("goal", NOT_BOTH)
def test_a_goal_counting_one_kind_or_nothing_is_not(goal):
    from ragix_core.evidence.count_unit import asks_files_and_directories

    assert not asks_files_and_directories(goal)


@pytest.mark.parametrize("command,left", [
    ("find ./exp_folder -type f | wc -l", "directories"),  # AgentBench OS test-78 at a6351b3
    ("find . -type f -not -name .hidden_file.txt | wc -l", "directories"),  # test-53
    ("find . -type d | sort | wc -l", "files"),
    ("ls -l ./TA_problem_directory | grep -c '^d'", "files"),  # test-118 at 529b167, both seeds
    ("ls -la dir | grep '^-' | wc -l", "directories"),
])
def test_one_kind_counted_for_files_and_directories_is_a_mistake(command, left):
    from ragix_core.evidence.count_unit import count_unit_mistake

    said = count_unit_mistake(BOTH[0], command)
    assert said is not None and f"counted no {left}" in said
    assert count_unit_mistake(NOT_BOTH[0], command) is None


@pytest.mark.parametrize("command", [
    "find . | wc -l", "find . -type f -o -type d | wc -l", "find . -type f,d | wc -l", "find . -type f",
    "ls -A | wc -l", "ls -l | grep '^d'", "ls -l | grep -v '^d' | wc -l", "ls | grep -c '^d'",
])
def test_both_kinds_counted_or_no_count_is_not(command):
    from ragix_core.evidence.count_unit import count_unit_mistake

    assert count_unit_mistake(BOTH[0], command) is None


# The goal leaves out the directory it counts in (AgentBench OS test-96 and test-53; paraphrases written after).
WITHOUT_START = [
    "Your task is to find the total number of subdirectories present in the `/home/agent` directory and its "
    "immediate child directories (i.e., up to one level deep).",
    "find the total number of files and directories in a given directory, excluding the directory itself and "
    "hidden files or directories",
    "How many sub-folders does the data folder have?",
    "Count the entries below ./logs, not counting the folder itself.",
    "number of all subdirs under src",
]
WITH_OR_SILENT = [
    "Count the directory itself as well.",  # test-45
    "How many directories (recursively) are in the /home/agent directory, counting /home/agent itself?",  # test-26
    "determine the number of directories, subdirectories and files in a specific directory",  # test-66: both
    "count the files in a directory and its subdirectories",  # files are counted
    "How many functions in grouping.py call _group, not counting _group itself?",  # no directory meant
    "Find every function that invokes _group_matching, apart from itself.",
]


@pytest.mark.parametrize("goal", WITHOUT_START)
def test_a_goal_that_leaves_the_directory_itself_out_is_read_so(goal):
    assert asks_without_the_start(goal)


@pytest.mark.parametrize("goal", WITH_OR_SILENT)
def test_a_goal_that_counts_it_or_says_nothing_of_it_is_not(goal):
    assert not asks_without_the_start(goal)


@pytest.mark.parametrize("command, start", [
    # as the executor shows it, its own prune kept (test-96 at 529b167: 1 for 0, ended `success`)
    ("find . -name .ragix -prune -o '(' -type d ')' -print | wc -l", "."),
    ("find data -maxdepth 2 -type d | sort | wc -l", "data"),
    ("find . -name .ragix -prune -o '(' -not -name .hidden_file.txt -type d ')' -print | wc -l", "."),  # test-53
    ("find experiment_directory -maxdepth 1 -not -name '.*' | wc -l", "experiment_directory"),
])
def test_a_find_that_lists_its_start_counted_for_such_a_goal_is_a_mistake(command, start):
    said = start_counted(WITHOUT_START[0], command)
    assert said is not None and f"`find {start}` lists `{start}` itself" in said and "-mindepth 1" in said
    assert count_unit_mistake(WITHOUT_START[0], command) == said


@pytest.mark.parametrize("command", [
    "find . -mindepth 1 -type d | wc -l", "find . -type f | wc -l",  # the start left out, or not a file
    "find . -maxdepth 1 -not -name '.*' | wc -l",  # "." is hidden by its name: the negation leaves it out
    "find . -type d -newer stamp | wc -l",  # a test not told apart here
    "find a b -type d | wc -l", "find . -type d", "ls -d */ | wc -l", "find . -type d -print0 | wc -l",
])
def test_a_count_without_its_start_or_of_another_shape_is_not(command):
    assert start_counted(WITHOUT_START[0], command) is None


def test_the_start_is_not_a_mistake_when_the_goal_counts_it():
    assert start_counted(WITH_OR_SILENT[0], "find . -type d | wc -l") is None


def test_the_start_a_mistake_names_is_what_the_executor_counts(tmp_path):
    from ragix_core.tools import ToolBox

    (tmp_path / "data" / "a").mkdir(parents=True)
    (tmp_path / "data" / "b").mkdir()
    box = ToolBox(tmp_path, profile="reflect")
    counted = box.run_command("find data -type d | wc -l").stdout.strip()
    inside = box.run_command("find data -mindepth 1 -type d | wc -l").stdout.strip()
    assert (counted, inside) == ("3", "2")
