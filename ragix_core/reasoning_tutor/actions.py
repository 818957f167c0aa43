"""Actions: what a PROPOSE asks to run, decided and executed by the tutor, never by the player.

The tutor reads the command with ragix's own confinement lexer and decides the
mode itself: an action reads only if every program in it (and every ``xargs``
target) is one of the policy's read tools; anything else writes. ``calc EXPR``
is the operator tool (sympy, no code execution). Reads run in a read-only tool
box (profile ``reflect``); writes only in the run's write box, which exists only
when the profile allows writes and the user approved them (``--yes``).
"""

from __future__ import annotations

import shlex
from dataclasses import dataclass
from typing import Any, Optional

from ragix_core.core.types import ToolCall, ToolResult
from ragix_core.evidence.line_count_mends import line_count_mend
from ragix_core.tools.find_exec import find_exec_as_xargs
from ragix_core.tools.lexer import split_pipeline
from ragix_core.tools.policy import READ_TOOLS
from ragix_core.tools.refusal import Refusal
from ragix_core.tools.substitution import substitution_as_xargs

__all__ = ["Action", "ActionRefused", "classify", "Executor", "CALC"]

CALC = "calc"


class ActionRefused(ValueError):
    """A command the tutor will not even classify (shell syntax the lexer refuses, empty)."""


@dataclass(frozen=True)
class Action:
    command: str  # as the player wrote it (whitespace trimmed)
    mode: str  # "read" | "write": the tutor's decision
    call: ToolCall
    why: str  # why this mode, in words

    @property
    def display(self) -> str:
        """The command as rules match it when the tool box reports none (calc)."""
        if self.call.tool == "operator":
            return shlex.join([CALC, self.call.args["expr"]])
        return self.command


def _programs(stages: Any) -> list:
    out = []
    for words in stages:
        if not words:
            continue
        out.append(str(words[0]))
        if words[0] == "xargs":  # its target runs too: the first word that is not an option
            rest = [w for w in words[1:] if not str(w).startswith("-") and not str(w).isdigit()]
            if rest:
                out.append(str(rest[0]))
    return out


def classify(command: str) -> Action:
    """The action a command stands for, with the tutor's read/write decision."""
    text = " ".join(str(command or "").split()) if "\n" in str(command or "") else str(command or "").strip()
    if not text:
        raise ActionRefused("empty command")
    if text == CALC or text.startswith(CALC + " "):
        expr = text[len(CALC):].strip().strip("'\"")
        if not expr:
            raise ActionRefused("calc needs an expression, e.g. calc 4*6")
        return Action(text, "read", ToolCall("operator", {"op": "evaluate", "expr": expr}),
                      "calc runs the operator tool, which computes and writes nothing")
    try:
        stages = split_pipeline(text)
    except Refusal as exc:
        raise ActionRefused(exc.reason) from None
    writers = [p for p in _programs(stages) if p not in READ_TOOLS]
    if writers:
        return Action(text, "write", ToolCall("shell", {"command": text}),
                      f"{', '.join(sorted(set(writers)))} is not a read-only tool")
    return Action(text, "read", ToolCall("shell", {"command": text}), "every program in it only reads")


class Executor:
    """Runs actions in the confined tool boxes; never raises (a ToolResult says what happened)."""

    def __init__(self, read_box: Any, write_box: Optional[Any] = None) -> None:
        self.read_box = read_box
        self.write_box = write_box

    @property
    def writes_possible(self) -> bool:
        return self.write_box is not None

    def run(self, action: Action) -> ToolResult:
        box = self.read_box if action.mode == "read" else self.write_box
        if box is None:
            return ToolResult(tool=action.call.tool, returncode=126, refused=True, command=action.command,
                              error="refused: this run has no write access (profile or --yes)")
        result = box.run(action.call)
        if action.call.tool == "operator":
            result.command = action.display
        if result.refused and action.call.tool == "shell":
            return self._as_xargs(box, action) or result
        return result

    def as_line_count(self, goal: str, action: Action, result: ToolResult) -> Optional[ToolResult]:
        """A count of names where ``goal`` counts lines, run as the count of lines it meant, as the main path
        runs it (evidence/line_count_mends.py): the mended command's result, its note on stderr. None when the
        command is no such count, or the mend did not run well (the game then judges the command as it ran)."""
        command = result.written or action.command
        mend = line_count_mend(goal, command, self.read_box.root) if self.read_box is not None else None
        if mend is None:
            return None
        again = self.read_box.run(ToolCall("shell", {"command": mend[0]}))
        if again.refused or not again.ok:
            return None
        again.written = mend[0]  # the rules read the command that ran
        again.stderr = f"[ragix] {mend[1]}\n{again.stderr or ''}"
        return again

    @staticmethod
    def _as_xargs(box: Any, action: Action) -> Optional[ToolResult]:
        """A refused `X $(Y)` or `find … -exec X {} +` run as the pipe into xargs it stands for, as the main path
        runs it (evidence/steps.run_command_step): the same command for the confinement's checks, so the game is
        not told "refused" for a form ragix runs elsewhere. None when there is no such form or it is refused too."""
        rewrite = substitution_as_xargs(action.command) or find_exec_as_xargs(action.command)
        if rewrite is None:
            return None
        again = box.run(ToolCall("shell", {"command": rewrite[0]}))
        if again.refused:
            return None
        again.written = rewrite[0]  # the rules read the command that ran
        again.stderr = f"[ragix] {rewrite[1]}\n{again.stderr or ''}"
        return again
