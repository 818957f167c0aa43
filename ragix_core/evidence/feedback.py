"""What a person would read after a command that did not work: the feedback a retry is given.

InterCode (arXiv 2306.14898) measured that a model retrying on the real execution feedback beats
both ReAct and plan-and-solve on Bash; SWE-agent (2405.15793) that an interface which says plainly
when a command printed nothing helps small models most. So a retry is shown what the shell showed
(exit code, stderr with ragix's close-name hint), an explicit line when the command printed nothing,
and the listing of the nearest existing directory of the paths it named (the top directory when it
named none), computed from the tree, never invented. Everything is bounded: this text goes back into a prompt.
"""

from __future__ import annotations

import os
import shlex
from pathlib import Path
from typing import Any, Callable, List, Optional

from ragix_core.core.text import bounded
from ragix_core.core.types import PlanStep, StepStatus
from ragix_core.tools.lexer import split_pipeline
from ragix_core.tools.policy import NOT_PROJECT_DIRS
from ragix_core.tools.refusal import Refusal
from ragix_core.tools.specs import SPECS

from .emptied import emptied_stage
from .path_hints import missing_paths
from .pipe_mistakes import step_mistake
from .steps import printed_nothing, shown_command

__all__ = ["execution_feedback", "nearest_listing"]

STDERR_CHARS = 600
# After a write whose result already exists. Measured on AgentBench OS at 529b167: test-52 and -113 ("Steps 1
# and 2 have already been done for you"), told only that the directory was there, drew `mkdir` again and again
# (8 and 6 draws) and never the command that counts or sums.
_DONE = ("That part of the goal is already done: write the command for the part that is left, what the goal "
         "asks to find, count or compute.")
LISTING_NAMES = 30


def _positionals(stage: List[str]) -> List[str]:
    """A stage's operands as its tool's argument policy reads them (tools/specs.py): options and the values
    they take left out, and the first operand too when it is a pattern or a program text (grep, sed, awk,
    ``pattern_paths``) that no option gave. Measured at 4f2bcfa: `grep -rl bench_something.py benchmarks/`
    that found nothing was shown the top directory's listing, read from its pattern, not `benchmarks/`."""
    spec = SPECS.get(os.path.basename(stage[0]))
    if spec is None:  # a program ragix does not run: every word that is not an option
        return [w for w in stage[1:] if not w.startswith("-")]
    out: List[str] = []
    pattern_given, i = False, 1
    while i < len(stage):
        w = stage[i]
        if w.startswith("--") and len(w) > 2:
            name, eq, _ = w[2:].partition("=")
            pattern_given = pattern_given or name in spec.pattern_options
            i += 2 if name in spec.long_value and not eq else 1
            continue
        if w.startswith("-") and len(w) > 1:
            taken = next((j for j, ch in enumerate(w[1:], 1) if ch in spec.short_value), None)
            if taken is not None:
                pattern_given = pattern_given or w[taken] in spec.pattern_options
                i += 1 if taken + 1 < len(w) else 2  # the value attached, or the next word
                continue
            i += 1
            continue
        out.append(w)
        i += 1
    return out[1:] if spec.positionals == "pattern_paths" and not pattern_given else out


def _operands(command: str, root: Path) -> List[str]:
    """The words of a command line that name paths: operands (not options, their values or a search's
    pattern), either path-shaped (a "/" or a ".") or the name of something in ``root``."""
    try:
        stages: List[List[str]] = [[str(w) for w in stage] for stage in split_pipeline(command)]
    except Refusal:  # a refused command's words still name the paths it meant, split as a shell would
        stages = [[]]
        try:
            words = shlex.split(command)
        except ValueError:
            words = command.split()
        for w in words:
            if w == "|":
                stages.append([])
            else:
                stages[-1].append(w)
    return [w for stage in stages if stage for w in _positionals(stage)
            if w not in (".", "./") and ("/" in w or "." in w or os.path.lexists(os.path.join(root, w)))]


def nearest_listing(paths: List[str], root: Path) -> Optional[str]:
    """``DIR: name, name/, ...`` for the nearest existing directory inside ``root`` of the first path
    in ``paths`` that has one (the path itself when it is a directory); None when none is inside."""
    top = root.resolve()
    for path in paths:
        candidate = (top / path.lstrip("./") if not path.startswith("/") else Path(path)).resolve()
        while True:
            try:
                candidate.relative_to(top)
            except ValueError:
                break
            if candidate.is_dir():
                try:
                    names = sorted(n for n in os.listdir(candidate) if n not in NOT_PROJECT_DIRS)
                except OSError:
                    break
                shown = [n + ("/" if (candidate / n).is_dir() else "") for n in names[:LISTING_NAMES]]
                more = f", ... ({len(names) - LISTING_NAMES} more)" if len(names) > LISTING_NAMES else ""
                rel = os.path.relpath(candidate, top)
                return f"{'.' if rel == '.' else './' + rel}: {', '.join(shown) or '(empty)'}{more}"
            if candidate == top:
                break
            candidate = candidate.parent
    return None


def execution_feedback(step: PlanStep, root: Path, probe: Optional[Callable[[str], Any]] = None) -> str:
    """The feedback for one command that failed, was refused, printed nothing or has a mistaken shape.
    ``probe``: a read-only shell; with it, a pipeline that printed nothing is run a stage at a time to
    say which stage left no line (evidence/emptied.py)."""
    command = shown_command(step)
    r = step.result
    lines = []
    if r is None:
        lines.append(f"The command `{command}` did not run.")
    elif r.refused:
        lines.append(f"The command `{command}` was refused by ragix: {bounded(r.error or '', STDERR_CHARS)}")
    elif step.status != StepStatus.SUCCESS:
        lines.append(f"The command `{command}` failed (exit code {r.returncode}).")
        said = (r.stderr or r.error or "").strip()
        if said:
            lines.append("It printed on stderr:\n" + bounded(said, STDERR_CHARS))
        if r.writes and "File exists" in said:
            lines.append(_DONE)
    elif step_mistake(step) or r.doubt:
        lines.append(f"The command `{command}` printed `{bounded((r.stdout or '').strip(), 40)}`, but "
                     + (step_mistake(step) or r.doubt))
    elif r.writes and not r.changed and not (r.stdout or "").strip():
        lines.append(f"The command `{command}` ran, printed nothing and changed nothing in the project: what it "
                     f"would create or change is already there. {_DONE}")
    else:
        out = (r.stdout or "").strip()
        lines.append(f"The command `{command}` ran and printed nothing." if not out else
                     f"The command `{command}` only printed `{bounded(out, 40)}`, which shows nothing found.")
        written = str(step.tool_call.args.get("command") or "") if step.tool_call else ""
        # A count of nothing (`… | wc -l` printing 0) lost its lines in a stage as an empty output did.
        emptied = (emptied_stage(written, probe, out) if probe is not None and not r.writes
                   and printed_nothing(out, written, r.piped_lines) else None)
        if emptied:
            lines.append(emptied)
    missing = missing_paths((r.stderr or "") if r is not None else "")
    # A command that named no path of the project (`tree -d $TARGET_DIR`) is shown the top directory:
    # what to name instead is there (SWE-agent, 2405.15793: say where the model is).
    listing = nearest_listing(missing + _operands(command, root), root) or nearest_listing(["."], root)
    if listing:
        lines.append(f"The nearest existing directory holds: {listing}")
    return "\n".join(lines)
