"""A grep whose pattern is extended syntax read as basic, that found nothing, is run again with -E."""

from __future__ import annotations

import pytest

from ragix_core.core.types import PlanStep, StepStatus, ToolCall
from ragix_core.evidence.steps import run_command_step
from ragix_core.tools import ToolBox
from ragix_core.tools.grep_dialect import grep_as_extended


@pytest.mark.parametrize("command,expected", [
    ("grep -o '[0-9]+' a.txt", "grep -E -o '[0-9]+' a.txt"),
    ("grep -ho '[0-9]+' files/a.txt files/b.txt | awk '{s += $1} END {print s}'",
     "grep -E -ho '[0-9]+' files/a.txt files/b.txt | awk '{s += $1} END {print s}'"),
    ("grep -rn 'error|fail' .", "grep -E -rn 'error|fail' ."),
    ("grep -c 'ab{2}' x", "grep -E -c 'ab{2}' x"),
    ("grep -o '[+-]?\\d+' f.txt", "grep -E -o '[+-]?[0-9]+' f.txt"),
    ("grep -o '\\D+' f.txt", "grep -E -o '[^0-9]+' f.txt"),
    ("cat a.txt | grep -o '[0-9]+'", "cat a.txt | grep -E -o '[0-9]+'"),  # a later stage, the pipe kept as written
    ("grep -rn port c.yaml | grep -o '[0-9]+' | sort -nr", "grep -rn port c.yaml | grep -E -o '[0-9]+' | sort -nr"),
])
def test_extended_syntax_is_searched_again_with_E(command, expected):
    fixed, said = grep_as_extended(command)
    assert fixed == expected and "-E" in said


@pytest.mark.parametrize("command", [
    "grep -E -o '[0-9]+' a.txt",  # the syntax is named
    "grep -Po '\\d+' a.txt",
    "grep -F 'a+b' a.txt",
    "grep -o '[0-9]\\+' a.txt",  # GNU basic syntax, escaped: already a repetition
    "grep -rn 'maintainer' .",  # nothing extended about it
    "grep -e 'a+' -e 'b+' a.txt",  # two patterns
    "cat a.txt | grep -E -o '[0-9]+'",  # a later stage that names its syntax
    "grep -rn port c.yaml | sort -n | head -n 1",  # no stage holds extended syntax
])
def test_other_searches_are_left_alone(command):
    assert grep_as_extended(command) is None


def test_an_empty_sum_of_digit_runs_is_run_again_with_E_and_sums_them(tmp_path):
    (tmp_path / "a.txt").write_text("apples 12 pears 30\n")
    (tmp_path / "b.txt").write_text("7 plums\n")
    box = ToolBox(tmp_path, profile="reflect")
    command = "grep -ho '[0-9]+' a.txt b.txt | awk '{s += $1} END {print s}'"
    step = PlanStep(1, "sum the integers", ToolCall("shell", {"command": command}))
    fix = run_command_step(box, step, tmp_path)
    assert step.status == StepStatus.SUCCESS and not step.result.stdout.strip()  # the real grep matched nothing
    assert fix is not None and fix.key == "aside" and fix.command.startswith("grep -E -ho")
    again = PlanStep(1, "sum the integers", ToolCall("shell", {"command": fix.command}))
    assert run_command_step(box, again, tmp_path) is None
    assert again.result.stdout.strip() == "49"
