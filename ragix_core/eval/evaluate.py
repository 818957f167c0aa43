"""Judge one run of one scenario: did it pass, and what did it cost.

A scenario passes when every expected pattern and no forbidden pattern is in
the final answer (see matching.py), every must_run_command was executed (TOOL_CALL events,
not the plan) and steps <= max_steps; a benchmark scenario's checker replaces
the pattern test (a checker that takes ``outputs`` also gets the stdout of every executed step,
in order). The complexity label is recorded but does not decide the
pass: SIMPLE vs MODERATE vs COMPLEX are judgement calls.

The answer judged is the writer's own: the "Also listed in the output of ..."
lines that grounding appends (files a tool printed, whatever the answer said)
are left out. A run that would pass only with them is not a pass; it is
counted apart as ``passed_via_grounding``. A run that found no answer (its final answer is the
Partial Results report: ``state.meta[REPORT_NOT_ANSWER]``) is judged as having answered nothing.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Dict, List, Optional, Sequence, Tuple

from ragix_core.evidence.answers import REPORT_NOT_ANSWER
from ragix_core.evidence.grounding import without_listing
from ragix_core.eval.matching import executed_calls, find_patterns, match_commands
from ragix_core.eval.scenario import Scenario, checker_takes_outputs
from ragix_core.core.events import EventKind
from ragix_core.core.types import StepStatus

__all__ = ["ScenarioResult", "evaluate_run", "error_result", "tokens_by_node"]


@dataclass
class ScenarioResult:
    id: str
    passed: bool
    category: str = ""
    run: int = 1  # 1..K with --repeat K
    strategy: str = ""
    stop_reason: Optional[str] = None
    complexity_expected: Optional[str] = None
    complexity_got: Optional[str] = None
    complexity_match: Optional[bool] = None
    steps: int = 0
    max_steps: int = 0
    reflections: int = 0
    recovered: bool = False
    commands_run: List[str] = field(default_factory=list)
    missing_commands: List[str] = field(default_factory=list)
    missing_patterns: List[str] = field(default_factory=list)
    keyword_coverage: Optional[float] = None  # spec 002 §9.2: found / expected
    checker_detail: str = ""
    llm_calls: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cached_prompt_tokens: int = 0  # of prompt_tokens, served from the backend's prefix cache
    # prompt + completion tokens of the model calls made in each node (where the cost went)
    tokens_by_node: Dict[str, int] = field(default_factory=dict)
    wall_time: float = 0.0
    final_answer: str = ""
    session_id: str = ""
    trace_path: Optional[str] = None
    error: Optional[str] = None  # harness-side failure (runner raised, setup failed)
    failure: List[str] = field(default_factory=list)  # why it did not pass, in words
    # failed, but would have passed with grounding's appended file listing counted as the answer
    passed_via_grounding: bool = False
    confidence: Optional[float] = None  # the run's stated confidence
    # the main path's attempt (reasoning_v30/attempt.py): how the winning command was chosen
    # (decided_by, agreed, confirmed, disputed, ...); None for a run that took another route
    attempt: Optional[Dict[str, Any]] = None
    # an ensemble's members: engine, stop, answer group and what each spent inside the ensemble
    ensemble: Optional[Dict[str, Any]] = None
    # where the run ran: the machine (a Ray worker's, with --executor ray) and the ragix commit it ran
    host: str = ""
    commit: str = ""

    def to_dict(self) -> Dict[str, Any]:
        return asdict(self)


def _attempt_meta(state: Any) -> Optional[Dict[str, Any]]:
    """What the report keeps of the main path's attempt: how the answer's command was chosen, and each
    command's record ("draws": what its run gave, the start of its output); not the bare list of commands
    (the draws name them; commands_run has every process)."""
    meta = (getattr(state, "meta", None) or {}).get("attempt")
    if not isinstance(meta, dict):
        return None
    return {k: v for k, v in meta.items() if k != "commands"}


def _ensemble_meta(state: Any) -> Optional[Dict[str, Any]]:
    """What the report keeps of an ensemble's vote (collective/ensemble.py): each member's engine, stop,
    group and usage, the agreement, the winner and what the vote was on; for members in copies, how many
    paths each changed and whether its changes landed; not the members' answers (the trace has them)."""
    meta = (getattr(state, "meta", None) or {}).get("ensemble")
    if not isinstance(meta, dict) or not isinstance(meta.get("members"), list):
        return None
    members = [{k: m.get(k) for k in ("engine", "stop_reason", "group", "usage")}
               for m in meta["members"] if isinstance(m, dict)]
    out = {"agreement": meta.get("agreement"), "winner": meta.get("winner"), "vote_on": meta.get("vote_on"),
           "members": members}
    if isinstance(meta.get("changes"), list):  # members that worked in copies: what each changed, if it landed
        out["changes"] = [{k: c.get(k) for k in ("member", "applied", "counts")}
                          for c in meta["changes"] if isinstance(c, dict)]
    return out


def tokens_by_node(events: Sequence[Any]) -> Dict[str, int]:
    """The tokens of each LLM_CALL event, summed under the graph node entered last before it
    ("(outside)" before any node: a model call made while building the run)."""
    node, out = "(outside)", {}
    for e in events:
        kind, data = getattr(e, "kind", None), getattr(e, "data", None) or {}
        if kind == EventKind.NODE_ENTER:
            node = str(data.get("node") or node)
        elif kind == EventKind.LLM_CALL:
            tokens = int(data.get("prompt_tokens") or 0) + int(data.get("completion_tokens") or 0)
            out[node] = out.get(node, 0) + tokens
    return out


def _usage_int(usage: Any, key: str) -> int:
    try:
        return int((usage or {}).get(key, 0) or 0)
    except (TypeError, ValueError, AttributeError):
        return 0


def _complexity_name(state: Any) -> Optional[str]:
    if (getattr(state, "meta", None) or {}).get("complexity_classified") is False:
        return None  # engines without a classifier (s0) have no label to compare
    c = getattr(state, "complexity", None)
    if c is None:
        return None
    return str(getattr(c, "name", c)).upper()


def evaluate_run(scenario: Scenario, result: Any, workdir: Optional[Path] = None, run: int = 1,
                 strategy: str = "", strict: bool = False) -> ScenarioResult:
    """Turn a RunResult (duck-typed: state, events, usage, wall_time, ...) into a ScenarioResult.
    ``strict``: the run must also have ended in ``success`` (a Partial Results report that quotes
    the right output is not a pass)."""
    state = result.state
    events = list(getattr(result, "events", None) or [])
    answer = getattr(state, "final_answer", None) or ""
    if not isinstance(answer, str):  # LLM output is untrusted, even its type
        answer = str(answer)
    calls = executed_calls(events)  # one per process, with the argv it ran
    commands = [c.command for c in calls]
    executed_steps = list(getattr(state, "executed_steps", None) or [])
    # A plan step with tool "none" is skipped, not executed: it costs no step. Direct answers
    # (BYPASS/SIMPLE) have no plan steps; their tool calls are the steps.
    ran = [s for s in executed_steps if getattr(s, "status", None) != StepStatus.SKIPPED]
    steps = len(ran) if executed_steps else len(commands)
    reflections = int(getattr(state, "reflection_count", 0) or 0)

    outputs = [str(s.result.stdout) for s in executed_steps if getattr(getattr(s, "result", None), "stdout", None)]

    # A run that found no answer ends with ragix's report of what it tried: its step numbers, counts and
    # quoted outputs are not an answer (measured: a report's "Step 1" passed an NL2Bash task whose gold
    # prints 1, its "0 recovery attempt(s)" an AgentBench task whose answer is 0). It is judged as
    # having said nothing; what its commands printed still counts where a checker reads outputs.
    said = "" if (getattr(state, "meta", None) or {}).get(REPORT_NOT_ANSWER) else answer
    own = without_listing(said)  # the writer's answer, without grounding's appended listing
    failure, found, missing_patterns, detail = _judge_answer(scenario, own, workdir, outputs)
    coverage = len(found) / len(scenario.expected_patterns) if scenario.expected_patterns else None
    only_in_listing = bool(failure) and own != said and not _judge_answer(scenario, said, workdir, outputs)[0]
    if only_in_listing:
        failure = [f"{f} (in the answer only through grounding's appended file listing)" for f in failure]
    answer_failures = len(failure)
    _, missing_commands = match_commands(scenario.must_run_commands, calls)
    if missing_commands:
        failure.append("commands not run: " + ", ".join(missing_commands))
    if steps > scenario.max_steps:
        failure.append(f"{steps} steps > max_steps {scenario.max_steps}")
    if not answer.strip():
        failure.append(f"no final answer (stop_reason={getattr(state, 'stop_reason', None)})")
    if strict and getattr(state, "stop_reason", None) != "success":
        failure.append(f"strict: stop_reason is {getattr(state, 'stop_reason', None)}, not success")
    passed = not failure
    via_grounding = only_in_listing and len(failure) == answer_failures  # nothing else failed

    got = _complexity_name(state)
    expected = scenario.complexity
    return ScenarioResult(
        id=scenario.id,
        passed=passed,
        category=scenario.category,
        run=run,
        strategy=strategy,
        stop_reason=getattr(state, "stop_reason", None),
        complexity_expected=expected,
        complexity_got=got,
        complexity_match=(got == expected) if (got and expected) else None,
        steps=steps,
        max_steps=scenario.max_steps,
        reflections=reflections,
        recovered=passed and reflections > 0,
        commands_run=commands,
        missing_commands=missing_commands,
        missing_patterns=missing_patterns,
        keyword_coverage=coverage,
        checker_detail=detail,
        llm_calls=_usage_int(getattr(result, "usage", None), "llm_calls"),
        prompt_tokens=_usage_int(getattr(result, "usage", None), "prompt_tokens"),
        completion_tokens=_usage_int(getattr(result, "usage", None), "completion_tokens"),
        cached_prompt_tokens=_usage_int(getattr(result, "usage", None), "cached_prompt_tokens"),
        tokens_by_node=tokens_by_node(events),
        wall_time=float(getattr(result, "wall_time", 0.0) or 0.0),
        final_answer=answer,
        confidence=getattr(state, "confidence", None),
        attempt=_attempt_meta(state),
        ensemble=_ensemble_meta(state),
        session_id=str(getattr(result, "session_id", "") or ""),
        trace_path=str(result.trace_path) if getattr(result, "trace_path", None) else None,
        failure=failure,
        passed_via_grounding=via_grounding,
    )


def _judge_answer(scenario: Scenario, text: str, workdir: Optional[Path],
                  outputs: Sequence[str] = ()) -> Tuple[List[str], List[str], List[str], str]:
    """(failures, found patterns, missing patterns, checker detail) of one answer text."""
    found, missing = find_patterns(text, scenario.expected_patterns)
    failures: List[str] = []
    detail = ""
    if scenario.checker is not None:
        try:
            if checker_takes_outputs(scenario.checker):
                ok, detail = scenario.checker(text, workdir or Path("."), outputs=list(outputs))
            else:
                ok, detail = scenario.checker(text, workdir or Path("."))
        except Exception as exc:  # a checker bug must not hide the other scenarios
            ok, detail = False, f"checker raised {type(exc).__name__}: {exc}"
        if not ok:
            failures.append(f"checker: {detail}" if detail else "checker rejected the answer")
    elif missing:
        failures.append("missing patterns: " + ", ".join(repr(p) for p in missing))
    forbidden, _ = find_patterns(text, scenario.forbidden_patterns)
    if forbidden:
        failures.append("forbidden patterns present: " + ", ".join(repr(p) for p in forbidden))
    return failures, found, missing, detail


def error_result(scenario: Scenario, error: str, run: int = 1, strategy: str = "",
                 wall_time: float = 0.0) -> ScenarioResult:
    """A run that never produced a RunResult (runner raised, setup failed)."""
    return ScenarioResult(
        id=scenario.id, passed=False, category=scenario.category, run=run, strategy=strategy,
        stop_reason="harness_error", complexity_expected=scenario.complexity,
        max_steps=scenario.max_steps, wall_time=wall_time, error=error, failure=[error],
    )
