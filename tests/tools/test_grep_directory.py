"""A grep given a directory without -r is re-run as the recursive search it stands for."""

from __future__ import annotations

import pytest

from ragix_core.core.types import PlanStep, StepStatus, ToolCall
from ragix_core.evidence.steps import run_command_step
from ragix_core.tools import ToolBox
from ragix_core.tools.grep_directory import grep_directory_as_recursive

IS_DIR = "/usr/bin/grep: .: Is a directory\n"


@pytest.mark.parametrize("command,stderr,expected", [
    ("grep -n 'storage' . | wc -l", IS_DIR, "grep -r -n 'storage' . | wc -l"),
    ("grep storage src/inventory", "grep: src/inventory: Is a directory\n", "grep -r storage src/inventory"),
    ("/usr/bin/grep -n 'a|b' .", IS_DIR, "/usr/bin/grep -r -n 'a|b' ."),
])
def test_the_first_grep_stage_gets_r(command, stderr, expected):
    fixed, note = grep_directory_as_recursive(command, stderr)
    assert fixed == expected and "-r" in note


@pytest.mark.parametrize("command,stderr", [
    ("grep -rn x .", IS_DIR),  # already recursive: something else is wrong
    ("grep -v 'storage.py' . | wc -l", IS_DIR),  # every other line of the tree is no evidence
    ("grep --invert-match x .", IS_DIR),
    ("grep --recursive x .", IS_DIR),
    ("grep x a.py", "grep: a.py: No such file or directory\n"),  # not a directory
    ("cat x | grep y .", IS_DIR),  # grep is not the first stage
    ("grep x docs", IS_DIR),  # the directory grep named is not the one reported
    ("grep -e x -v .", IS_DIR),  # -v after the pattern given by -e is still an option
    ("grep 'x .", IS_DIR),  # unbalanced quote
])
def test_other_failures_are_left_alone(command, stderr):
    assert grep_directory_as_recursive(command, stderr) is None


@pytest.mark.parametrize("command,stderr,expected", [
    # -rv is the pattern -e gives, not options: the search is neither recursive nor inverted
    ("grep -e -rv .", IS_DIR, "grep -r -e -rv ."),
    ("grep -e-v -n .", IS_DIR, "grep -r -e-v -n ."),
    ("grep -A 2 -e --recursive .", IS_DIR, "grep -r -A 2 -e --recursive ."),
])
def test_a_pattern_that_looks_like_an_option_is_read_as_the_pattern(command, stderr, expected):
    fixed, _ = grep_directory_as_recursive(command, stderr)
    assert fixed == expected


def test_a_failed_grep_on_a_directory_returns_the_recursive_search_as_an_aside(tmp_path):
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "cli.py").write_text("from .storage import load\n")
    box = ToolBox(tmp_path, profile="reflect")
    step = PlanStep(1, "find importers", ToolCall("shell", {"command": "grep storage src"}))
    fix = run_command_step(box, step, tmp_path)
    assert step.status == StepStatus.FAILED and "Is a directory" in step.result.stderr
    assert fix is not None and fix.command == "grep -r storage src" and fix.key == "aside"
    again = PlanStep(1, "find importers", ToolCall("shell", {"command": fix.command}))
    assert run_command_step(box, again, tmp_path) is None
    assert again.status == StepStatus.SUCCESS and "from .storage import load" in again.result.stdout
