"""Run validated pipeline stages, wiring their data, and interpret xargs.

Stages run one after another, each in its own confined process, and each is
validated again right before it starts (an earlier stage may have moved or
created the paths it names since the line was checked); the executor
carries stdout to the next stage's stdin (capped by Limits.pipe_bytes). The
pipeline's status is that of its rightmost failing stage, like bash's pipefail:
`find docs/missing.md | wc -l` prints 0 and must still report find's failure.
The one exception is a search stage that matched nothing (policy.is_no_match). xargs
is interpreted here instead of being run: its input items are split, checked
as paths against the root, and appended after '--' to the target tool's
already-validated arguments, so an item can never become an option.
"""

from __future__ import annotations

import os
import shlex
import time
from dataclasses import dataclass, field
from typing import Callable, List, Optional

from ragix_core.tools.lexer import check_text
from ragix_core.tools.policy import is_answer_exit, is_no_match, is_wc_total_line
from ragix_core.tools.refusal import Refusal
from ragix_core.tools.runner import RawResult
from ragix_core.tools.validate import Stage, Validator, XargsPlan

__all__ = ["PipelineResult", "run_pipeline", "split_items", "MAX_XARGS_ITEMS"]

MAX_XARGS_ITEMS = 5000

# (stage tool name, argv as run, raw result, seconds) for every process started
ProcessHook = Callable[[str, List[str], RawResult, float], None]
# argv -> RawResult, with stdin data and output cap
Launcher = Callable[[Stage, List[str], Optional[bytes], int], RawResult]


@dataclass
class PipelineResult:
    returncode: int
    stdout: bytes
    stderr: bytes
    truncated: bool
    error: Optional[str]
    commands: List[str] = field(default_factory=list)
    no_match: bool = False  # the last stage is a search that found nothing (see policy.is_no_match)
    # Lines the last stage read from the stage before it (None for one command): a sum that read lines and
    # printed 0 computed a 0, where a count that read none found nothing (evidence/steps.printed_nothing).
    piped_lines: Optional[int] = None
    answer_exit: bool = False  # the last stage exited 1 as its answer: diff's "differ" (see policy.is_answer_exit)


def split_items(data: bytes, null: bool, lines: bool = False) -> List[str]:
    """Split xargs input like GNU xargs: NUL-separated, whole lines (``-I``, leading blanks dropped), or
    blanks with quotes."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise Refusal("xargs: input is not valid UTF-8") from None
    if null:
        items = text.split("\0")
        if items and items[-1] == "":
            items.pop()
    elif lines:
        items = [line.lstrip(" \t") for line in text.split("\n")]
        items = [item for item in items if item]
    else:
        try:
            items = shlex.split(text, comments=False, posix=True)
        except ValueError as exc:
            raise Refusal(f"xargs: cannot split input ({exc}); use find -print0 | xargs -0") from None
    if len(items) > MAX_XARGS_ITEMS:
        raise Refusal(f"xargs: more than {MAX_XARGS_ITEMS} items; narrow the search")
    for item in items:
        check_text(item, "xargs item")
    return items


def run_pipeline(stages: List[Stage], validator: Validator, launch: Launcher, on_process: ProcessHook,
                 out_cap: int, pipe_cap: int) -> PipelineResult:
    data: Optional[bytes] = None
    stderr = bytearray()
    truncated = False
    result = PipelineResult(0, b"", b"", False, None)
    for index, stage in enumerate(stages):
        cap = out_cap if index == len(stages) - 1 else pipe_cap
        if index > 0 and index == len(stages) - 1:
            result.piped_lines = len((data or b"").splitlines())
        if index > 0:
            stage = validator.recheck(stage, index)
        for note in stage.notes:
            stderr += note.encode() + b"\n"
        if stage.xargs is not None:
            raw = _run_xargs(stage, stage.xargs, data or b"", validator, launch, on_process, cap, result.commands)
        else:
            start = time.perf_counter()
            raw = launch(stage, stage.argv, data, cap)
            on_process(stage.tool, stage.argv, raw, time.perf_counter() - start)
            result.commands.append(shlex.join(stage.argv))
        stderr += raw.stderr
        truncated = truncated or raw.truncated
        if raw.timed_out or raw.output_limit or (raw.error and raw.returncode == 126):
            return PipelineResult(raw.returncode, raw.stdout, bytes(stderr), truncated, raw.error, result.commands)
        data = raw.stdout
        last = index == len(stages) - 1
        if raw.returncode == 0:
            continue
        # A search that found nothing, or a diff that found the inputs differ, is data before another
        # stage ("0 matches" counted by wc) and an answer as the last one; either way not a failure.
        searched = stage.xargs.tool if stage.xargs is not None else stage.tool
        no_match = is_no_match(searched, raw.returncode, raw.stderr)
        answer_exit = not no_match and is_answer_exit(searched, raw.returncode, raw.stderr)
        if last:
            result.returncode, result.error = raw.returncode, raw.error
            result.no_match, result.answer_exit = no_match, answer_exit
        elif not (no_match or answer_exit):
            result.returncode, result.error = raw.returncode, raw.error
    failed = result.returncode != 0
    return PipelineResult(result.returncode, data or b"", bytes(stderr), truncated, result.error, result.commands,
                          result.no_match and failed, result.piped_lines, result.answer_exit and failed)


class _WcTotals:
    """wc given several files ends with a "total" line. One xargs batch (up to 1000 items) is what
    bash runs, and its total covers the input, so it stays: `xargs wc -l | tail -n 1` is how a
    model sums lines. Over several batches each total covers one batch (bash prints them all, and
    `tail -n 1` then reads the last batch only), so those are dropped and one total over every
    batch ends the output, as one wc run would print it."""

    def __init__(self, tool: str, argv_flags: List[str], batches: int) -> None:
        # -L's total is a maximum, not a sum: its batch totals are dropped and none is added.
        self.active = os.path.basename(tool) == "wc" and batches > 1
        self.summable = not any(f == "--max-line-length" or (f.startswith("-") and not f.startswith("--")
                                                              and "L" in f) for f in argv_flags)
        self.sums: Optional[List[int]] = None
        self.rows: List[List[int]] = []  # batches of one file print a row and no total

    def filter(self, batch: List[str], stdout: bytes) -> bytes:
        if not self.active or "total" in batch:
            return stdout
        head, sep, last = stdout.rstrip(b"\n").rpartition(b"\n")
        if len(batch) >= 2 and is_wc_total_line(last):
            counts = [int(n) for n in last.split()[:-1]]
            self.sums = counts if self.sums is None else [a + b for a, b in zip(self.sums, counts)]
            return head + sep if head else b""
        if len(batch) == 1 and stdout.strip():
            self.rows.append([int(n) for n in stdout.split()[:-1] if n.isdigit()])
        return stdout

    def total_line(self) -> bytes:
        if not self.active or not self.summable or self.sums is None:
            return b""
        sums = list(self.sums)
        for row in self.rows:
            if len(row) == len(sums):
                sums = [a + b for a, b in zip(sums, row)]
        return (" ".join(str(n) for n in sums) + " total\n").encode()


def _run_xargs(stage: Stage, plan: XargsPlan, data: bytes, validator: Validator, launch: Launcher,
               on_process: ProcessHook, cap: int, commands: List[str]) -> RawResult:
    notes: List[str] = []
    if plan.items is not None:
        items = list(plan.items)  # a recursive grep over named safe files (checked by the stage)
    else:
        try:
            items = split_items(data, plan.null, lines=plan.replace is not None)
        except Refusal:
            raise
        except Exception as exc:  # any surprise while reading items: refuse, never run
            raise Refusal(f"xargs: cannot read items ({type(exc).__name__})") from None
        items, notes = validator.xargs_items(plan, items)
    batches = [items[i : i + plan.max_args] for i in range(0, len(items), plan.max_args)]
    if not batches and not plan.no_run_if_empty:
        batches = [[]]  # GNU xargs runs the command once when the input is empty
    argvs = [validator.xargs_argv(plan, batch) for batch in batches]  # all checked before any runs
    out, err = bytearray(), bytearray()
    for note in notes:
        err += note.encode() + b"\n"
    returncode, truncated = 0, False
    codes: List[int] = []
    totals = _WcTotals(plan.tool, list(plan.fixed), len(batches))
    for i, batch in enumerate(batches):
        # checked again right before it runs: an earlier run may have made a link its names now go through
        argv = argvs[i] if i == 0 else validator.xargs_argv(plan, batch)
        start = time.perf_counter()
        raw = launch(stage, argv, None, max(cap - len(out), 1))
        on_process(plan.tool, argv, raw, time.perf_counter() - start)
        commands.append(shlex.join(argv))
        out += totals.filter(batch, raw.stdout)
        err += raw.stderr
        truncated = truncated or raw.truncated
        if raw.timed_out or raw.output_limit:
            return RawResult(raw.returncode, bytes(out), bytes(err), True, raw.timed_out, raw.output_limit, raw.error)
        codes.append(raw.returncode)
        if raw.returncode != 0:
            returncode = 123  # GNU xargs: some invocation failed
        if len(out) >= cap:
            truncated = True
            break
    if not truncated:
        out += totals.total_line()
    if plan.items is not None:
        # One grep split over batches answers like one grep: 2 on an error, else 0 if any matched.
        returncode = 2 if any(c >= 2 or c < 0 for c in codes) else (0 if 0 in codes else 1)
    return RawResult(returncode, bytes(out[:cap]), bytes(err), truncated)
