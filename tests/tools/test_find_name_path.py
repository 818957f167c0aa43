"""A find whose -name holds a slash found nothing by construction: ragix runs it with -path."""

from __future__ import annotations

import pytest

from ragix_core.core.types import PlanStep, StepStatus, ToolCall
from ragix_core.evidence.steps import run_command_step
from ragix_core.tools import ToolBox
from ragix_core.tools.find_name_path import name_with_slash_as_path


@pytest.mark.parametrize("command,expected", [
    ("find . -name 'config/settings.yaml'", "find . -path '*config/settings.yaml'"),
    ("find . -name './tests/test_api.py' | head -n 1", "find . -path '*tests/test_api.py' | head -n 1"),
    ("find src -iname 'Inventory/*.py' -type f", "find src -ipath '*Inventory/*.py' -type f"),
    ("find . -name '*/models.py'", "find . -path '*/models.py'"),
])
def test_the_pattern_with_a_directory_becomes_a_path_pattern_and_the_rest_is_kept(command, expected):
    fixed, aside = name_with_slash_as_path(command)
    assert fixed == expected and "-path" in aside


@pytest.mark.parametrize("command", [
    "find . -name '*.md'",  # a name without a directory is what -name is for
    "find . -name 'docs/'",  # a trailing slash only: GNU find's own problem, not a directory in a name
    "find . -path './docs/*'",  # already a path
    "grep -rn -name a/b .",  # not a find
    "cat x | find . -name a/b",  # find is not the first stage
    "find . -name 'a/b",  # unbalanced quote
])
def test_other_commands_are_left_alone(command):
    assert name_with_slash_as_path(command) is None


def test_an_empty_find_by_name_with_a_directory_is_run_again_with_path(tmp_path):
    (tmp_path / "config").mkdir()
    (tmp_path / "config" / "settings.yaml").write_text("server:\n  port: 8080\n")
    box = ToolBox(tmp_path, profile="reflect")
    step = PlanStep(1, "find the configuration", ToolCall("shell", {"command": "find . -name 'config/settings.yaml'"}))
    fix = run_command_step(box, step, tmp_path)
    assert step.status == StepStatus.SUCCESS and not step.result.stdout.strip()  # the real find found nothing
    assert fix is not None and fix.key == "aside" and fix.command == "find . -path '*config/settings.yaml'"
    again = PlanStep(1, "find the configuration", ToolCall("shell", {"command": fix.command}))
    assert run_command_step(box, again, tmp_path) is None
    assert again.status == StepStatus.SUCCESS and again.result.stdout.strip() == "./config/settings.yaml"
