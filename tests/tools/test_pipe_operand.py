"""A filter after a pipe, given a file that does not exist, reads the pipe instead."""

from __future__ import annotations

import pytest

from ragix_core.core.types import PlanStep, StepStatus, ToolCall
from ragix_core.evidence.steps import run_command_step
from ragix_core.tools import ToolBox
from ragix_core.tools.pipe_operand import pipe_read_instead


@pytest.mark.parametrize("command,missing,expected", [
    # measured (maintainer-name-3 at 7fdd634)
    ("grep -rn 'maintainer' docs/*.md | cut -d: -f2 docs/maintainer.md", "docs/maintainer.md",
     "grep -rn 'maintainer' docs/*.md | cut -d: -f2"),
    ("grep -rn x . | awk '{print $2}' 'notes.txt'", "notes.txt", "grep -rn x . | awk '{print $2}'"),
    ("grep x . | head -n 3 b.md | wc -l", "b.md", "grep x . | head -n 3 | wc -l"),
    ("grep x . | head -3 b.md", "b.md", "grep x . | head -3"),
    ("grep x . | sort -k 2 b.md", "b.md", "grep x . | sort -k 2"),
])
def test_a_missing_file_after_a_pipe_is_dropped_so_the_filter_reads_the_pipe(command, missing, expected):
    fixed, aside = pipe_read_instead(command, [missing])
    assert fixed == expected
    assert aside.startswith(f"{missing} does not exist;") and "read the pipe's output" in aside


@pytest.mark.parametrize("command,missing", [
    ("cut -d: -f2 docs/m.md", "docs/m.md"),  # no pipe: nothing else to read
    ("cat a.txt | wc -l", "a.txt"),  # the first stage's file: the search itself is wrong
    ("cat a.txt | wc -l a.txt", "a.txt"),  # in two stages
    ("grep -rn x . | grep -f pats.txt", "pats.txt"),  # an option's value: the patterns file, not an operand
    ("grep -rn x . | sort -o out.txt", "out.txt"),
    ("grep x . | xargs wc -l b.md", "b.md"),  # xargs runs a new command with its own operands
    ("grep x . | cut -f2 other.md", "b.md"),  # not the path stderr reported
    ("grep x . | cut -f2 'b.md", "b.md"),  # refused by the lexer
])
def test_other_failures_are_left_to_the_other_mends(command, missing):
    assert pipe_read_instead(command, [missing]) is None


def test_a_failed_step_with_an_invented_file_after_the_pipe_is_run_again_reading_the_pipe(tmp_path):
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "guide.md").write_text("# Guide\n\nEnd of guide. Maintainer: Ada Lovelace\n")
    (tmp_path / "docs" / "notes.md").write_text("notes\n")
    box = ToolBox(tmp_path, profile="reflect")
    planned = "grep -rn 'Maintainer' docs/*.md | cut -d: -f3 docs/maintainer.md"
    step = PlanStep(1, "find the maintainer", ToolCall("shell", {"command": planned}))
    fix = run_command_step(box, step, tmp_path)
    assert step.status == StepStatus.FAILED and "no file in the project has a similar name" in step.result.stderr
    assert fix is not None and fix.key == "aside" and fix.command == "grep -rn 'Maintainer' docs/*.md | cut -d: -f3"
    again = PlanStep(1, "find the maintainer", ToolCall("shell", {"command": fix.command}))
    assert run_command_step(box, again, tmp_path) is None
    assert again.result.stdout.strip() == "End of guide. Maintainer"


def test_a_close_name_is_re_aimed_rather_than_dropped(tmp_path):
    # wrong-path-guide: the file the model named was the input it meant, under a close name
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "guide.md").write_text("line\n" * 120)
    box = ToolBox(tmp_path, profile="reflect")
    step = PlanStep(1, "count", ToolCall("shell", {"command": "find . -name '*.md' | wc -l docs/guides.md"}))
    fix = run_command_step(box, step, tmp_path)
    assert fix is not None and fix.command == "find . -name '*.md' | wc -l docs/guide.md" and fix.key == "note"
