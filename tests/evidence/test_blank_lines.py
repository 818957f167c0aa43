"""A line count that keeps the empty lines the goal leaves out (evidence/blank_lines.py)."""

import pytest

from ragix_core.evidence.blank_lines import asks_without_blank_lines, blank_lines_counted
from ragix_core.evidence.command_checks import check_command

# AgentBench OS test-63, -46, -71, and paraphrases written after the rule
WITHOUT_BLANKS = [
    "Your task is to find the total number of lines of code across all the Python files. _Note: Ignore empty lines "
    "and comment lines (lines starting with #). Only count lines with actual code._",
    "Make sure not to count empty lines or lines that only contain whitespaces (spaces or tabs).",
    "you need to find the number of non-empty lines in a log file",
    "How many lines does notes.txt have, excluding blank lines?",
    "count the lines of app.py that are not empty",
]
OTHER = [
    "Display the 5 smallest files in the current directory and its sub-directories ignoring any empty files.",
    "find the total number of non-empty directories inside the directory",
    "How many empty lines does notes.txt have?",
    "How many lines does notes.txt have?",
]


@pytest.mark.parametrize("goal", WITHOUT_BLANKS)
def test_a_goal_that_leaves_empty_lines_out_is_read_so(goal):
    assert asks_without_blank_lines(goal)


@pytest.mark.parametrize("goal", OTHER)
def test_empty_files_directories_or_a_plain_line_count_are_not(goal):
    assert not asks_without_blank_lines(goal)


@pytest.mark.parametrize("command", [
    "find . -name '*.py' -print0 | xargs -0 wc -l",  # test-63 at 529b167, both seeds: 15 for 8
    "wc -l a.py b.py", "cat a.py | wc -l", "find . -name '*.py' | xargs cat | wc -l", "cat *.py | sort | wc -l",
])
def test_every_line_counted_for_such_a_goal_is_a_mistake(command):
    said = blank_lines_counted(WITHOUT_BLANKS[0], command)
    assert said is not None and "the empty ones too" in said and "grep -cv" in said
    assert "Comment lines" in said  # the goal leaves comments out too
    assert "Comment lines" not in blank_lines_counted(WITHOUT_BLANKS[3], command)
    assert blank_lines_counted(OTHER[3], command) is None


@pytest.mark.parametrize("command", [
    "cat *.py | grep -v '^$' | wc -l", "grep -cv '^$' a.py", "awk 'NF' a.py | wc -l",  # the lines are filtered
    "find . -name '*.py' -print0 | xargs -0 grep -v '^#' | wc -l",
    "find . -name '*.py' | wc -l",  # counts names: count_unit.py's shape, not this one
    "wc -c a.py",
])
def test_a_filtered_count_or_another_count_is_not(command):
    assert blank_lines_counted(WITHOUT_BLANKS[0], command) is None


def test_both_engines_see_it_through_the_shared_checks(tmp_path):
    (tmp_path / "a.py").write_text("x = 1\n\n# c\n")
    assert "the empty ones too" in check_command(WITHOUT_BLANKS[3], "wc -l a.py", tmp_path)[1]
    # the premise, run for real: wc counts the empty line, the filter the goal is told of does not
    from ragix_core.tools import ToolBox

    box = ToolBox(tmp_path, profile="reflect")
    assert box.run_command("wc -l a.py").stdout.split()[0] == "3"
    assert box.run_command("grep -cv '^[[:space:]]*$' a.py").stdout.strip() == "2"
