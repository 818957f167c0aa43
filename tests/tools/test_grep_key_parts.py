"""A grep for a snake_case name that matched nothing is run again for its parts as words."""

from __future__ import annotations

import pytest

from ragix_core.core.types import PlanStep, StepStatus, ToolCall
from ragix_core.evidence.steps import run_command_step
from ragix_core.tools import ToolBox
from ragix_core.tools.grep_key_parts import grep_key_parts


@pytest.mark.parametrize("command,expected", [
    ("grep 'server_port' config/settings.yaml", "grep -w -e 'server' -e 'port' config/settings.yaml"),
    ('grep -rn "log_file_path" .', "grep -rn -w -e 'log' -e 'file' -e 'path' ."),
    ("grep -n db_host *.ini", "grep -n -w -e 'db' -e 'host' *.ini"),
])
def test_a_snake_case_name_is_searched_again_for_its_parts(command, expected):
    fixed, aside = grep_key_parts(command)
    assert fixed == expected and "each part as a word" in aside


@pytest.mark.parametrize("command", [
    "grep -rn 'port' .",  # one word: grep_case's business
    "grep -rn 'server_port' . | head -n 1",  # a reducer would cut the shape
    "grep -rv 'server_port' .",
    "grep -rw 'server_port' .",
    "grep -rF 'server_port' .",
    "grep -rn -e 'server_port' .",
    "grep -rn 'Server_Port' .",  # a case was chosen
    "grep -rn 'a_very_long_key_name_here' .",  # five parts: not a setting's path
    "grep -rn 'server_port: 80' .",
    "grep -rn 'x_y' .",  # one-letter parts
    "cat x | grep server_port",
    "find . -name server_port",
])
def test_other_searches_are_left_alone(command):
    assert grep_key_parts(command) is None


def test_an_empty_search_for_a_nested_setting_shows_its_parts_with_their_lines(tmp_path):
    (tmp_path / "config").mkdir()
    (tmp_path / "config" / "settings.yaml").write_text("server:\n  host: 0.0.0.0\n  port: 8080\nlog_level: INFO\n")
    box = ToolBox(tmp_path, profile="reflect")
    step = PlanStep(1, "find the port", ToolCall("shell", {"command": "grep -n 'server_port' config/settings.yaml"}))
    fix = run_command_step(box, step, tmp_path)
    assert step.status == StepStatus.SUCCESS and not step.result.stdout.strip()  # the real grep found nothing
    assert fix is not None and fix.key == "aside"
    again = PlanStep(1, "find the port", ToolCall("shell", {"command": fix.command}))
    assert run_command_step(box, again, tmp_path) is None
    assert again.result.stdout.splitlines() == ["1:server:", "3:  port: 8080"]
