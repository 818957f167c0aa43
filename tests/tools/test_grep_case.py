"""A grep for a lowercase word that matched nothing is run again ignoring case."""

from __future__ import annotations

import pytest

from ragix_core.core.types import PlanStep, StepStatus, ToolCall
from ragix_core.evidence.steps import run_command_step
from ragix_core.tools import ToolBox
from ragix_core.tools.grep_case import grep_ignoring_case


@pytest.mark.parametrize("command,expected", [
    ("grep -rn 'maintainer' .", "grep -i -rn 'maintainer' ."),
    ("grep -rn 'maintainer' . | cut -d: -f3 | uniq", "grep -i -rn 'maintainer' . | cut -d: -f3 | uniq"),
    ("grep -c todo a.py b.py | wc -l", "grep -i -c todo a.py b.py | wc -l"),
])
def test_a_plain_lowercase_word_is_searched_again_ignoring_case(command, expected):
    fixed, aside = grep_ignoring_case(command)
    assert fixed == expected and "ignoring case" in aside


@pytest.mark.parametrize("command", [
    "grep -rni 'maintainer' .",  # already ignores case
    "grep -rn --ignore-case maintainer .",
    "grep -rv 'maintainer' .",  # an inverted search finds the other lines
    "grep -rn 'log_level' .",  # a code name is searched as written
    "grep -rn 'loadItems' .",
    "grep -rn 'port: 8080' .",  # not a plain word
    "grep -rl 'from storage' .",  # a statement: its keywords have a case
    "grep -rn -e 'a' -e 'b' .",  # two patterns
    "grep -rn 'Maintainer' .",  # the case was chosen
    "cat x | grep maintainer",  # grep is not the first stage
    "find . -name maintainer",
])
def test_other_searches_are_left_alone(command):
    assert grep_ignoring_case(command) is None


def test_an_empty_search_for_a_lowercase_word_is_run_again_with_i_and_finds_the_heading(tmp_path):
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "guide.md").write_text("# Guide\n\nEnd of guide. Maintainer: Ada Lovelace\n")
    box = ToolBox(tmp_path, profile="reflect")
    step = PlanStep(1, "find the maintainer", ToolCall("shell", {"command": "grep -rn 'maintainer' docs"}))
    fix = run_command_step(box, step, tmp_path)
    assert step.status == StepStatus.SUCCESS and not step.result.stdout.strip()  # the real grep found nothing
    assert fix is not None and fix.key == "aside" and fix.command == "grep -i -rn 'maintainer' docs"
    again = PlanStep(1, "find the maintainer", ToolCall("shell", {"command": fix.command}))
    assert run_command_step(box, again, tmp_path) is None
    assert "Maintainer: Ada Lovelace" in again.result.stdout
