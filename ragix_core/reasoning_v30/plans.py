"""What the engine does to a model's plan before running it.

Small models split one pipeline into several steps, add steps that only navigate, and
write filters that would read a stdin no step receives. ``compact_steps`` merges and
drops such steps; ``reads_stdin`` tells a stdin-reading filter from a command on files,
splitting commands exactly as the executor does (``tools/lexer``).
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any, Dict, List, Optional, Sequence

from ragix_core.core.text import bounded
from ragix_core.core.types import PlanStep
from ragix_core.evidence.path_hints import LISTING_DEPTH, project_files
from ragix_core.tools.lexer import GlobWord, programs, split_pipeline
from ragix_core.tools.mcp_tools import PREFIX
from ragix_core.tools.policy import STDIN_FILTERS, TRUNCATING_FILTERS
from ragix_core.tools.refusal import Refusal

__all__ = ["compact_steps", "reads_stdin", "command_of", "command_text",
           "with_tool_name", "programs", "NAVIGATION", "LISTING_TOOLS"]


def _one_stage(command: str) -> Optional[List[str]]:
    """The words of a one-stage command, split as the executor splits it (a glob stays a
    ``GlobWord``); None for a pipeline or a command the executor would refuse."""
    try:
        stages = split_pipeline(command)
    except Refusal:
        return None
    return list(stages[0]) if len(stages) == 1 and stages[0] else None


def reads_stdin(command: str, root: Path) -> bool:
    """True for a filter (sort, head, wc, sed, ...) that names no existing file, alone or as the first
    stage of a pipeline: it reads stdin. Measured on the regression set at 5ae6fa5: a replan's first step was
    ``sed -n 's/port: //p' | awk '{print $1}'``, which printed nothing from an empty stdin."""
    try:
        stages = split_pipeline(command)
    except Refusal:
        return False
    words = list(stages[0]) if stages else []
    if not words or words[0] not in STDIN_FILTERS:
        return False
    options = [str(w) for w in words[1:] if str(w).startswith("-")]
    if words[0] == "grep" and any(o in ("--recursive", "--dereference-recursive")
                                  or (not o.startswith("--") and ("r" in o or "R" in o)) for o in options):
        return False  # `grep -rn TODO` with no file searches the working directory, not stdin
    operands = [w for w in words[1:] if not w.startswith("-")]
    return not any(_names_a_file(w, root) for w in operands)


# Tools whose output is about files (names, sizes, line counts), not what the files say.
LISTING_TOOLS = {"ls", "find", "wc", "du", "stat", "file"}


def _names_a_file(word: str, root: Path) -> bool:
    if isinstance(word, GlobWord):  # the executor expands it in the project: it names what it matches
        try:
            return any(root.glob(word.pattern))
        except (NotImplementedError, ValueError, OSError):  # absolute or odd pattern: refused at run time
            return True
    return (root / word).exists()


# Commands that only move around or print where we are: every command already runs in the
# project directory, so such a step costs a step of the budget and yields no evidence.
NAVIGATION = {"pwd", "cd", "echo", "true"}


def _is_no_evidence(step: PlanStep) -> bool:
    """A step that cannot contribute evidence: tool "none", no command, `cd`/`pwd`, or a bare `ls`
    (the planner was already shown the file listing)."""
    call = step.tool_call
    if call is None or call.tool == "none":
        return True
    cmd = str(call.args.get("command") or "").strip()
    if not cmd:
        return call.tool in NAVIGATION
    if cmd.split(None, 1)[0] in NAVIGATION:
        # Also when the lexer refuses the rest: `echo "port: $(grep ...)"` and `echo $port` (measured
        # on the regression set at 5ae6fa5) print the model's own words, and their refusal cost a reflection each.
        return True
    words = _one_stage(cmd)
    if not words:
        return False
    return words[0] == "ls" and all(w.startswith("-") or w in (".", "./") for w in words[1:])


def with_tool_name(command: str, tool: str, tools: Sequence[str]) -> str:
    """``command`` with the step's ``tool`` in front when the planner left it out: measured
    on the regression set at 5ae6fa5, a step {"tool": "grep", "command": "'port: ' config/FILE.yaml"} was
    refused as the tool "port: " and cost a reflection. Only when the command's first word is no
    allowed tool and ``tool`` is one."""
    words = command.split(None, 1)
    if not words or tool not in tools or tool in NAVIGATION:
        return command
    try:
        first = str(split_pipeline(command)[0][0])
    except (Refusal, IndexError):
        first = words[0]
    return command if os.path.basename(first) in tools else f"{tool} {command}"


def command_of(step: PlanStep) -> str:
    """A step's command line, whitespace-normalised (to compare commands). An MCP tool's step has
    no command line: it is the line the worker would write for it (``mcp.S.T {JSON}``), so that a
    failed call is a command the replan may not repeat, and no other call is taken for it."""
    if step.tool_call is None:
        return ""
    if step.tool_call.tool.startswith(PREFIX):
        return f"{step.tool_call.tool} {json.dumps(step.tool_call.args, ensure_ascii=False, sort_keys=True)}"
    return command_text(step.tool_call.args)


def command_text(args: Dict[str, Any]) -> str:
    """The command of a tool call's arguments, whitespace-normalised."""
    return " ".join(str(args.get("command") or "").split())


def compact_steps(steps: List[PlanStep], root: Path) -> List[PlanStep]:
    """Merge what small models split: a filter step joins the previous step's pipeline, and a step
    whose command is just the beginning of the next step's pipeline is dropped (it would run twice).
    Steps that cannot yield evidence (see _is_no_evidence) are dropped unless nothing else is left."""
    out: List[PlanStep] = []
    if any(not _is_no_evidence(s) for s in steps):
        steps = [s for s in steps if not _is_no_evidence(s)]
    for step in steps:
        cmd = str(step.tool_call.args.get("command") or "").strip() if step.tool_call else ""
        prev_cmd = str(out[-1].tool_call.args.get("command") or "").strip() if out and out[-1].tool_call else ""
        # head/tail are not merged: they cut the previous output, which must stay in the evidence
        # (e.g. `... | xargs wc -l | sort -nr | head -n 1` keeps only wc's "total" line).
        if prev_cmd and cmd and reads_stdin(cmd, root) and cmd.split()[0] not in TRUNCATING_FILTERS:
            out[-1].tool_call.args["command"] = f"{prev_cmd} | {cmd}"
            out[-1].description = f"{out[-1].description}; {step.description}"
            continue
        if prev_cmd and cmd and (cmd == prev_cmd or cmd.startswith(prev_cmd + " |")):
            out[-1] = step
            continue
        out.append(step)
    for i, step in enumerate(out, 1):
        step.num = i
    return out


_LISTING_OPTIONS = set("1pF")  # ls options that change how names are shown (-a shows what the listing leaves out)


def lists_what_was_shown(command: str, listing: str) -> bool:
    """``command`` is a bare ``ls`` (no pipe; only -1, -p or -F, which change how names are shown) whose
    every operand is a file of ``listing`` (the project listing the planner was shown, one
    ``./path`` a line), or a directory of it when the listing was not cut and goes deeper than it:
    its output tells nothing the plan did not have. Measured at temperature 0.3 (a9a2574 and
    789e1a5): 12 of 16 `ls` steps came before other steps of their plan (`ls docs/` before a grep
    of docs/, `ls FILE.json` before a grep of it); one plan went over its 3-step budget by one
    such step."""
    try:
        stages = split_pipeline(command)
    except Refusal:
        return False
    if len(stages) != 1 or not stages[0] or os.path.basename(str(stages[0][0])) != "ls":
        return False
    words = [str(w) for w in stages[0][1:]]
    options = [w for w in words if w.startswith("-")]
    if any(w.startswith("--") or not set(w[1:]) <= _LISTING_OPTIONS for w in options):
        return False
    shown = {line[2:] for line in listing.splitlines() if line.startswith("./")}
    whole = "more characters cut]" not in listing
    for operand in [w for w in words if not w.startswith("-")] or ["."]:
        name = operand[2:] if operand.startswith("./") else operand
        name = name.rstrip("/")
        if name in shown:
            continue
        inside = [f for f in shown if name in ("", ".") or f.startswith(name + "/")]
        depth = 0 if name in ("", ".") else name.count("/") + 1
        if not (inside and whole and depth < LISTING_DEPTH):
            return False
    return True
