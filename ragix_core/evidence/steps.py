"""A step's command run and judged, and its output shown to a model.

Every engine that runs a command for a model goes through ``run_command_step``
and shows the results with ``evidence_block``: the same judgement (a search
with no match is an answer; a missing path gets ragix's close-name hint first
in stderr) and the same excerpt of a long output, whichever engine asked.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, List, NamedTuple, Optional

from ragix_core.core.text import bounded
from ragix_core.core.types import PlanStep, StepStatus, ToolResult
from ragix_core.tools.grep_case import grep_ignoring_case
from ragix_core.tools.grep_dialect import grep_as_extended
from ragix_core.tools.grep_perl import grep_as_perl
from ragix_core.tools.mcp_tools import failure_kind
from ragix_core.tools.grep_key_parts import grep_key_parts
from ragix_core.tools.grep_directory import grep_directory_as_recursive
from ragix_core.tools.find_exec import find_exec_as_xargs
from ragix_core.tools.find_name_path import name_with_slash_as_path
from ragix_core.tools.grep_glob import top_globs_as_tree
from ragix_core.tools.pipe_operand import pipe_read_instead
from ragix_core.tools.lexer import split_pipeline, stage_program
from ragix_core.tools.policy import is_wc_total_line
from ragix_core.tools.refusal import Refusal
from ragix_core.tools.substitution import substitution_as_xargs
from ragix_core.tools.substitution_pattern import substitution_as_pattern_file
from ragix_core.tools.toolbox import WRITES_NEED_YES

from .attribution import ATTRIBUTED, attributed_lines, one_file_searched
from .excerpt import excerpt, goal_keywords
from .path_hints import diagnose, missing_paths, project_files
from .records import records_view

__all__ = ["shown_command", "step_output", "found_nothing", "printed_nothing", "empty_before_evidence",
           "run_command_step", "Fix", "SAME_MEANING", "evidence_block",
           "refused_after_evidence", "refused_write", "writes_not_run", "failed_rework_of", "OUTPUT_CHARS",
           "EVIDENCE_CHARS", "NO_MATCHES", "EMPTY_BEFORE_EVIDENCE", "SKIPPED_REFUSAL", "SKIPPED_REPEAT",
           "SKIPPED_FAILED_REWORK", "SKIPPED_SHOWN", "SKIPPED_WRITE"]

OUTPUT_CHARS = 1500  # a step's output in deterministic reports (Partial Results, summaries)
EVIDENCE_CHARS = 1800  # a step's output shown to a model
FULL_OUTPUT = 1 << 20  # the excerpt cuts; the tool layer already capped the output (64 KiB)
NO_MATCHES = "(no matches)"
EMPTY_BEFORE_EVIDENCE = "this matched nothing; the outputs below are the evidence"
SKIPPED_REFUSAL = "refused and skipped: the outputs above already hold the goal's words"
SKIPPED_REPEAT = "not run: what it shows ran as step"
SKIPPED_FAILED_REWORK = "failed and set aside: it only reworks the output of step"
SKIPPED_SHOWN = "not run: the project listing the plan was written from already shows what it lists"
SKIPPED_WRITE = "not run: it writes, and this run may only read (the user allows writes with ragix's --yes)"
RECORDS_SHOWN = "JSON output shown one record per line: key: field=value, ..."


def shown_command(step: PlanStep) -> str:
    """The command as a model or a user should read it: as written (globs expanded), not as run. The
    run form holds what confinement adds (absolute programs, `-name .ragix -prune`): measured at
    ca20be7 (paraphrase set), shown `find . -name .ragix -prune -o ...`, the writer named `.ragix` as
    the directory with the most files; answers quoted `/usr/bin/cp`. The trace keeps the run form."""
    r = step.result
    if r is not None and r.written:
        return r.written
    if step.tool_call is not None and step.tool_call.args.get("command"):
        return str(step.tool_call.args["command"])
    return (r.command if r is not None and r.command else "") or step.description


def step_output(step: PlanStep, limit: int = OUTPUT_CHARS) -> str:
    """What a step produced: its stdout, else (when it failed) its error, bounded."""
    r = step.result
    if r is None:
        return ""
    text = (r.stdout or "").strip()
    if not text and r.no_match:
        text = NO_MATCHES
    if not text and not r.ok:
        text = (r.stderr or r.error or "").strip()
    return bounded(text, limit)


def found_nothing(step: PlanStep) -> bool:
    """The step ran but shows no evidence: a search without a match, an empty output, or a pipeline
    that counted nothing (``grep ... | wc -l`` printing 0). Such outputs agree with each other
    whether the pattern was right or wrong, so they confirm nothing on their own. A command that
    changed files (cp, mkdir, `> FILE`) and printed nothing did what it was asked: not empty. One
    that writes but left the tree as it was (``mkdir -p`` of a directory that exists) found nothing."""
    r = step.result
    if r is None or step.status != StepStatus.SUCCESS or r.changed:
        return False
    return printed_nothing(r.stdout, str(step.tool_call.args.get("command") or "") if step.tool_call else "",
                           r.piped_lines)


def printed_nothing(stdout: Optional[str], command: str, piped_lines: Optional[int] = None) -> bool:
    """An output that shows no evidence: empty, or the 0 of a pipeline that counted (``found_nothing``'s
    test on the output alone, for engines that keep outputs without steps). Not the 0 of an awk that adds a
    field of every line, when it read lines (``piped_lines``): that 0 is a sum (AgentBench OS test-73: the
    integers of three files add up to 0), where a count that read nothing found nothing."""
    text = (stdout or "").strip()
    if not text:
        return True
    return text == "0" and "|" in command and not (piped_lines and adds_every_line(command))


def adds_every_line(command: str) -> bool:
    """The pipeline's last stage is an awk whose program adds a field of every line (`{s += $1} END …`, no
    pattern before the block): it prints a sum of what it read, whatever it read."""
    try:
        stages = split_pipeline(command)
    except Refusal:
        return False
    if len(stages) < 2 or stage_program(stages[-1]) != "awk":
        return False
    program = next((str(w) for w in stages[-1][1:] if "{" in str(w)), "")
    return program.lstrip().startswith("{") and re.search(r"\+=\s*\$\w", program.split("}")[0]) is not None


def refused_after_evidence(step: PlanStep, earlier: List[PlanStep], goal: str) -> bool:
    """``step`` was refused by the policy (it never ran) and one of the ``earlier`` steps of its plan
    printed lines with a word of the goal: the plan already has its evidence, and the refused step
    only reworks it. Measured on the regression set (5ae6fa5): `find . -name '*.py' | xargs grep -rn TODO`
    printed the four TODO lines, then `cut -d: -f1 $(grep -rn TODO $(find . -name '*.py'))` was
    refused, and the run reflected twice and ended ``max_reflections`` without an answer."""
    r = step.result
    if step.status != StepStatus.FAILED or r is None or not r.refused:
        return False
    keywords = goal_keywords(goal)
    return any(s.status == StepStatus.SUCCESS and not found_nothing(s)
               and any(k in (s.result.stdout or "").lower() for k in keywords)
               for s in earlier if s is not step and s.result is not None)


def refused_write(step: PlanStep) -> bool:
    """``step`` was refused because it writes and the run may only read (tools/toolbox.py): no
    replan can change that, so it is no failure to reflect on. Measured (AgentBench OS at 7fdd634):
    five goals that begin "create a directory ..." (made by the task's setup) ended
    ``max_reflections`` on `mkdir` (planned again as `mkdir --yes`) before any of their reads ran."""
    r = step.result
    return step.status == StepStatus.FAILED and r is not None and r.refused and \
        (r.error or "").endswith(WRITES_NEED_YES)


def writes_not_run(steps: List[PlanStep]) -> List[str]:
    """The commands of ``steps`` skipped because they write and the run may only read."""
    return [str(s.tool_call.args.get("command") or "") for s in steps
            if s.status == StepStatus.SKIPPED and s.tool_call is not None and s.tool_call.args.get("aside") == SKIPPED_WRITE]


def failed_rework_of(step: PlanStep, earlier: List[PlanStep]) -> Optional[PlanStep]:
    """The earlier step of ``step``'s plan whose whole command ``step`` holds, when ``step`` ran and
    failed and that earlier step printed lines: the failure is in the rework of an output the plan
    already has, not in finding it. Measured at temperature 0.3 (a9a2574): a run printed `KEY: VALUE`
    with `grep 'KEY' config/FILE.yaml`, then `head -n 1 grep 'KEY' config/FILE.yaml` (a pipe left
    out) failed on a file "grep"; the run reflected, replanned
    two steps and went over its step budget with the right answer. None otherwise (a failure that
    reworks nothing, or reworks a step that found nothing, is one to reflect on)."""
    r = step.result
    if step.status != StepStatus.FAILED or r is None or r.refused or step.tool_call is None:
        return None
    command = _normalised(step.tool_call.args.get("command"))
    for s in earlier:
        if s is step or s.status != StepStatus.SUCCESS or s.result is None or found_nothing(s) or s.tool_call is None:
            continue
        inner = _normalised(s.tool_call.args.get("command"))
        # Two words at least, and whole words: a bare `ls` is part of every failing `ls PATH`.
        if len(inner.split()) >= 2 and inner != command and re.search(
                rf"(?:^|[\s|]){re.escape(inner)}(?:$|[\s|])", command):
            return s
    return None


def _normalised(command: Any) -> str:
    return " ".join(str(command or "").split())


class Fix(NamedTuple):
    """A command to run instead of one that failed, and what ragix says about it. ``key`` is the
    step argument the words go to: a "note" is added to the answer too (another file was read:
    the user must know), an "aside" is for the writer only (the same command, written another way)."""
    command: str
    note: str
    key: str = "note"
    kind: str = ""  # "substitution": the command was `X $(Y)`, refused, and is this `Y | xargs X`


# Fixes that are the refused command itself in a form ragix runs (`X $(Y)` as `Y | xargs X`, `find … -exec X {} +`
# as `find … -print0 | xargs -0 X`): bash would have run the command as written with this meaning, so a plain call
# made without ragix gets them too (baseline_s0.py), unlike the mends that change what is searched.
SAME_MEANING = ("substitution", "find_exec")


def run_command_step(toolbox: Any, step: PlanStep, root: Path) -> Optional[Fix]:
    """Run the step's ``command`` through the confined ``toolbox`` and judge it. A failure on a
    missing path gets ragix's hint first in its stderr (so it survives every later cut), and the
    unambiguous re-aimed command is returned; for a refused command substitution, the same command
    as a pipe into xargs (tools/substitution.py, an aside), or a grep's pattern `"$(cat F)"` as `-f F`
    (tools/substitution_pattern.py, an aside); for a refused `find … -exec X {} +`,
    the find piped into xargs X (tools/find_exec.py, an aside); for a grep given a directory without
    -r, the recursive search (tools/grep_directory.py, an aside); for a filter after a pipe given a
    missing file, the filter reading the pipe (tools/pipe_operand.py, an aside); for a grep over
    top-level globs that found nothing, the search of the tree (tools/grep_glob.py, a note); for a find whose -name
    holds a slash, that found nothing, the same find with -path (tools/find_name_path.py, an aside);
    for a grep whose pattern is Perl syntax read as extended or basic, whatever it printed, the same grep with -P
    (tools/grep_perl.py, an aside); for a grep whose pattern is extended syntax read as basic, that found
    nothing, the same grep with -E
    (tools/grep_dialect.py, an aside); for a grep of a lowercase word that found nothing, the same grep
    with -i (tools/grep_case.py, an aside); for a grep of a snake_case name that found nothing, its parts as words
    (tools/grep_key_parts.py, an aside); else None."""
    command = str(step.tool_call.args.get("command", "")) if step.tool_call else ""
    result: ToolResult = toolbox.run_command(command)
    if failure_kind(result):
        # An MCP server that died, hung or answered garbage: a failed step whose error names the
        # failure (REFLECT sees it), with nothing to mend: no rewrite of the line makes the server answer.
        step.result, step.status = result, StepStatus.FAILED
        return None
    fix = None
    if result.refused:
        # `grep P "$(cat F)"` is `grep P -f F`; `X $(Y)` is `Y | xargs X`: validated like any command
        piped = substitution_as_pattern_file(command, root) or substitution_as_xargs(command)
        execs = None if piped else find_exec_as_xargs(command)  # `find … -exec X {} +`: `find … | xargs X`
        fix = Fix(piped[0], piped[1], "aside", "substitution") if piped else \
            Fix(*execs, "aside", "find_exec") if execs else None
    elif (perl := grep_as_perl(command)) is not None:
        # Perl syntax read as extended or basic: the output, or the error, is another search's, whatever it printed
        fix = Fix(*perl, "aside")
    elif not result.ok:
        hint, aimed = diagnose(command, result.stderr or "", root)
        # A filter after a pipe given a missing file no existing name is close to: the model's slip
        # for the pipe (tools/pipe_operand.py). A close name is the file it meant: re-aimed above.
        piped = None if aimed else pipe_read_instead(command, missing_paths(result.stderr or ""))
        recursive = None if aimed or piped else grep_directory_as_recursive(command, result.stderr or "")
        fix = Fix(*aimed) if aimed else Fix(piped[0], piped[1], "aside") if piped else \
            Fix(recursive[0], recursive[1], "aside") if recursive else None
        if hint:
            result.stderr = f"{hint}\n{result.stderr or ''}"
    elif not (result.stdout or "").strip() or ((result.stdout or "").strip() == "0" and "|" in command):
        widened = top_globs_as_tree(command, lambda: project_files(root))
        aside = None if widened else \
            name_with_slash_as_path(command) or grep_as_extended(command) or grep_ignoring_case(command) \
            or grep_key_parts(command)
        fix = Fix(*widened) if widened else Fix(*aside, "aside") if aside else None
    step.result = result
    step.status = StepStatus.SUCCESS if result.ok else StepStatus.FAILED
    return fix


def empty_before_evidence(step: PlanStep, later: List[PlanStep]) -> bool:
    """``step`` found nothing and one of the ``later`` steps found something: its absence is only
    a pattern or path that missed, not evidence that nothing exists."""
    return found_nothing(step) and any(s.status == StepStatus.SUCCESS and not found_nothing(s) for s in later)


def _annotate_totals(text: str) -> str:
    """Mark wc's summary line so that a model does not take "total" for a file."""
    return "\n".join(f"{line.rstrip()}   <- sum of the files listed, not a file" if is_wc_total_line(line) else line
                     for line in text.split("\n"))


def evidence_block(steps: List[PlanStep], goal: str = "") -> str:
    """The steps as a model sees them: command, status, ragix's note, the goal-relevant excerpt."""
    parts = []
    for i, s in enumerate(steps):
        r = s.result
        cmd = shown_command(s)
        status = "ok" if s.status == StepStatus.SUCCESS else "skipped" if s.status == StepStatus.SKIPPED else \
            f"FAILED (rc={r.returncode if r else '?'})"
        full = step_output(s, limit=FULL_OUTPUT)
        records = records_view(full) if s.status == StepStatus.SUCCESS else None
        searched = one_file_searched(s.tool_call.args.get("command") or "") \
            if s.status == StepStatus.SUCCESS and s.tool_call and not records else None
        attributed = attributed_lines(searched, full) if searched else None
        # A JSON document on one line is one line to the writer; one record per line it can read.
        out = excerpt(records or attributed or full, goal, EVIDENCE_CHARS)
        if " wc" in f" {cmd}":
            out = _annotate_totals(out)
        # A note is also added to the answer (evidence/grounding.py); an aside is for the writer only.
        notes = [s.tool_call.args.get(key) for key in ("note", "aside")] if s.tool_call else []
        if empty_before_evidence(s, steps[i + 1:]):
            # Measured: shown `grep 'quantity: 0'` (no matches) before the JSON it missed, the 1.5B
            # writer answered "no item has quantity 0" greedily; without it, or with this line, the record.
            notes.append(EMPTY_BEFORE_EVIDENCE)
        if records:
            notes.append(RECORDS_SHOWN)
        if attributed:
            notes.append(ATTRIBUTED)
        said = "".join(f"\n(ragix: {n})" for n in notes if n)
        parts.append(f"$ {cmd}   [{status}]{said}\n{out or '(no output)'}")
    return "\n\n".join(parts) or "(no command was run)"
