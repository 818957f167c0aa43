"""`X $(Y)` run as `Y | xargs X`: which shapes are rewritten, and that the rewrite gives what a shell gives."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from ragix_core.core.types import PlanStep, ToolCall
from ragix_core.evidence.steps import run_command_step
from ragix_core.tools import ToolBox
from ragix_core.tools.substitution import substitution_as_xargs
from tests.tools.refused_rewrites import refused_then_fixed, without_wc_totals


@pytest.mark.parametrize("command,expected", [
    ("grep -rn 'TODO' $(find . -name '*.py')", "find . -name '*.py' | xargs grep -rn 'TODO'"),
    ("grep -n '^## ' $(find . -name '*.md' -type f | head -n 1)",
     "find . -name '*.md' -type f | head -n 1 | xargs grep -n '^## '"),
    ("wc -l $(find . -name '*.py') | sort -n", "find . -name '*.py' | xargs wc -l | sort -n"),
    ("grep -c ')' $(ls)", "ls | xargs grep -c ')'"),
])
def test_a_trailing_substitution_becomes_a_pipe_into_xargs(command, expected):
    rewritten, note = substitution_as_xargs(command)
    assert rewritten == expected
    assert expected in note and "substitution" in note


@pytest.mark.parametrize("command", [
    "cat $(ls) foo",                       # not the last word: the order of arguments would change
    "cat $(ls) $(ls)",                     # two substitutions
    "$(ls)",                               # nothing to run it with
    "echo $(echo $HOME | grep x)",         # a variable inside
    "cat $(ls $(pwd))",                    # nested
    "grep 'a $(x)' f",                     # quoted: text, not a substitution
    "sh -c 'grep x $(find .)'",
    "ls | grep $(cat pat)",                # not in the first stage
    "cat $(ls",                            # unbalanced
    "cat $(ls) && rm x",                   # anything but a pipe after it
    "",
])
def test_every_other_shape_is_left_to_the_refusal(command):
    assert substitution_as_xargs(command) is None


@pytest.fixture()
def project(tmp_path: Path) -> Path:
    root = tmp_path / "p"
    (root / "docs").mkdir(parents=True)
    (root / "README.md").write_text("# Title\n## Install\ntext\n## Usage\n")
    (root / "docs" / "guide.md").write_text("# Guide\n## Steps\n")
    (root / "a.py").write_text("# TODO: one\nx = 1\n")
    (root / "b.py").write_text("y = 2  # TODO two\n")
    return root


@pytest.mark.skipif(shutil.which("bash") is None, reason="needs bash to compare with")
@pytest.mark.parametrize("command", [
    "grep -n '^## ' $(find . -name '*.md' -type f | sort | head -n 1)",
    "grep -c TODO $(find . -name '*.py' | sort)",
    "wc -l $(find . -name '*.md' | sort) | sort -n",
])
def test_the_rewrite_run_confined_prints_what_bash_prints_for_the_original(project, command):
    shell, again = refused_then_fixed(project, command)
    # ragix's xargs names the file of a one-file grep (DECISIONS.md); every other line is the shell's
    expected = without_wc_totals(shell)
    if command.startswith("grep -n '^## '"):  # one file: bash's grep printed no name
        expected = [f"./README.md:{line}".split() for line in shell.splitlines()]
    assert without_wc_totals(again.result.stdout) == expected


def test_a_refusal_of_another_kind_gets_no_rewrite(project):
    step = PlanStep(1, "d", ToolCall("shell", {"command": "cat $HOME"}))
    assert run_command_step(ToolBox(project, profile="reflect"), step, project) is None
    assert step.result.refused
