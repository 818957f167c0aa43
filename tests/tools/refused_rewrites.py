"""Shared by the tests of the rewrites of a refused command (`$(…)`, `find -exec`): run the command
confined, check it was refused and a fix offered, run the fix, and give bash's output for the original."""

from __future__ import annotations

import subprocess
from pathlib import Path
from typing import Tuple

from ragix_core.core.types import PlanStep, StepStatus, ToolCall
from ragix_core.evidence.steps import run_command_step
from ragix_core.tools import ToolBox


def refused_then_fixed(project: Path, command: str) -> Tuple[str, PlanStep]:
    """(bash's stdout for ``command``, the fixed step after its confined run)."""
    shell = subprocess.run(["bash", "-c", command], cwd=project, capture_output=True, text=True, check=True)
    step = PlanStep(1, "d", ToolCall("shell", {"command": command}))
    fix = run_command_step(ToolBox(project, profile="reflect"), step, project)
    assert step.status == StepStatus.FAILED and step.result.refused  # ragix itself runs neither form
    assert fix is not None and fix.key == "aside"
    again = PlanStep(2, fix.note, ToolCall("shell", {"command": fix.command}))
    assert run_command_step(ToolBox(project, profile="reflect"), again, project) is None
    assert again.status == StepStatus.SUCCESS
    return shell.stdout, again


def without_wc_totals(text: str) -> list:
    """The lines as word lists, wc's "total" lines left out: a rewrite may run wc once per file
    (no total) where bash's one run prints one."""
    return [line.split() for line in text.splitlines() if not line.rstrip().endswith(" total")]
