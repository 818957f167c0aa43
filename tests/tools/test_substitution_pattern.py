"""A grep whose pattern is `"$(cat F)"` run as `grep -f F` (tools/substitution_pattern.py): which shapes are
rewritten, that the rewrite prints what bash prints for the original, and that the plain call gets it too."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from ragix_core.core.types import PlanStep, ToolCall
from ragix_core.evidence.steps import SAME_MEANING, run_command_step
from ragix_core.tools import ToolBox
from ragix_core.tools.substitution_pattern import substitution_as_pattern_file
from tests.tools.refused_rewrites import refused_then_fixed


@pytest.fixture()
def project(tmp_path: Path) -> Path:
    root = tmp_path / "p"
    (root / "dir2").mkdir(parents=True)
    (root / "dir2" / "known.txt").write_text("alpha\nbeta\n")
    (root / "all.txt").write_text("alpha\ngamma\nbeta\ndelta\nalphabet\n")
    (root / "empty.txt").write_text("")
    return root


@pytest.mark.parametrize("command,expected", [
    ('grep -F -x -v "$(cat ./dir2/known.txt)" all.txt', "grep -F -x -v -f ./dir2/known.txt all.txt"),
    ("grep -Fx $(cat dir2/known.txt) all.txt | wc -l", "grep -Fx -f dir2/known.txt all.txt | wc -l"),
    ('grep "$(cat dir2/known.txt)" "all.txt"', 'grep -f dir2/known.txt "all.txt"'),
])
def test_the_pattern_word_becomes_a_pattern_file_and_the_rest_stays_as_written(project, command, expected):
    rewritten, note = substitution_as_pattern_file(command, project)
    assert rewritten == expected and expected in note and "-f" in note


@pytest.mark.parametrize("command", [
    'grep -F "$(cat empty.txt)" all.txt',        # empty: bash matches every line, -f none
    'grep -F "$(cat missing.txt)" all.txt',      # no such file: the refusal stands
    'grep -m 1 "$(cat dir2/known.txt)" all.txt',  # a value option before it: which word is the pattern?
    'grep -e x "$(cat dir2/known.txt)" all.txt',  # the pattern is given by -e: this word is a file
    'grep x "$(cat dir2/known.txt)"',             # an operand before it: it is a file name
    'wc -l "$(cat dir2/known.txt)"',             # not grep
    'grep "$(cat dir2/known.txt all.txt)" x',    # not one file
    'grep "$(head -1 dir2/known.txt)" all.txt',   # not cat
    "cat all.txt | grep \"$(cat dir2/known.txt)\"",  # not the first stage
    "",
])
def test_every_other_shape_is_left_to_the_refusal_or_the_xargs_rewrite(project, command):
    assert substitution_as_pattern_file(command, project) is None


@pytest.mark.skipif(shutil.which("bash") is None, reason="needs bash to compare with")
@pytest.mark.parametrize("command", [
    'grep -F -x -v "$(cat dir2/known.txt)" all.txt',  # the lines of all.txt not in known.txt
    'grep -c "$(cat dir2/known.txt)" all.txt',
    'grep -F -x "$(cat dir2/known.txt)" all.txt | wc -l',
])
def test_the_rewrite_run_confined_prints_what_bash_prints_for_the_original(project, command):
    shell, again = refused_then_fixed(project, command)
    assert again.result.stdout == shell


def test_it_is_a_fix_of_the_same_meaning_so_the_plain_call_runs_it_too(project):
    step = PlanStep(1, "d", ToolCall("shell", {"command": 'grep -F -x -v "$(cat dir2/known.txt)" all.txt'}))
    fix = run_command_step(ToolBox(project, profile="reflect"), step, project)
    assert fix is not None and fix.kind in SAME_MEANING and fix.command.startswith("grep -F -x -v -f ")
