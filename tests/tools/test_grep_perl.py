"""A grep whose pattern is Perl syntax, read as extended or basic, is run again with -P, whatever it printed."""

from __future__ import annotations

import pytest

from ragix_core.core.types import PlanStep, StepStatus, ToolCall
from ragix_core.evidence.steps import run_command_step
from ragix_core.tools import ToolBox
from ragix_core.tools.grep_perl import grep_as_perl

# AgentBench OS test-56 at 529b167, both seeds: 4 unique addresses for 3
IP = "grep -H -oE '\\b(?:[0-9]{1,3}\\.){3}[0-9]{1,3}\\b' -- logs/a.log"


@pytest.mark.parametrize("command,expected", [
    (IP, "grep -H -oP '\\b(?:[0-9]{1,3}\\.){3}[0-9]{1,3}\\b' -- logs/a.log"),
    ("grep -oE '\\d+' a.txt | sort -n", "grep -oP '\\d+' a.txt | sort -n"),  # \d under -E is the letter d
    ("cat a.log | grep -o '(?<=id=)[0-9]+'", "cat a.log | grep -P -o '(?<=id=)[0-9]+'"),  # basic, a later stage
    ("grep --extended-regexp -c '(?!x)y' f", "grep --perl-regexp -c '(?!x)y' f"),
    ("grep -E -rn 'a(?=b)' .", "grep -P -rn 'a(?=b)' ."),
])
def test_perl_syntax_is_searched_again_with_P(command, expected):
    fixed, said = grep_as_perl(command)
    assert fixed == expected and "with -P" in said


@pytest.mark.parametrize("command", [
    "grep -oP '(?<=x)y' a",  # already Perl
    "grep -F '(?:' a", "grep -G 'a(?:b' a",  # the syntax is named otherwise
    "grep -E 'a|b' a", "grep -E '(ab)?c' a",  # extended syntax, no Perl group
    "grep -E '\\(?x' a",  # an escaped parenthesis, then an optional x
    "grep -o '\\d+' a",  # basic with \d: the empty-output mend's (grep_dialect.py)
    "grep -e '(?:a)' -e b f",  # two patterns
])
def test_other_searches_are_left_alone(command):
    assert grep_as_perl(command) is None


def test_a_perl_group_read_as_extended_is_run_again_and_counts_what_was_meant(tmp_path):
    (tmp_path / "logs").mkdir()
    (tmp_path / "logs" / "a.log").write_text("10.0.0.1 GET /\n10.0.0.2 GET /x\n10.0.0.1 POST /\n192.168.1.20 GET /\n")
    box = ToolBox(tmp_path, profile="reflect")
    command = IP + " | sort -u | wc -l"
    step = PlanStep(1, "unique addresses", ToolCall("shell", {"command": command}))
    fix = run_command_step(box, step, tmp_path)
    # grep -E read another pattern: it failed or counted something else (GNU grep warns "? at start of expression")
    assert step.status == StepStatus.FAILED or step.result.stdout.strip() != "3"
    assert fix is not None and fix.key == "aside" and " -oP " in fix.command
    again = PlanStep(1, "unique addresses", ToolCall("shell", {"command": fix.command}))
    assert run_command_step(box, again, tmp_path) is None
    assert again.result.stdout.strip() == "3"
