"""Past runs as spec 002 §4.5 names them: an ``Experience`` per run, a ``Pattern`` per command shape.

The corpus stores events (spec 000 §5), one line each; spec 002's ``add_experience``,
``find_similar`` and ``get_patterns`` are views over those same events, so a run recorded by
``add_experience`` and a run whose nodes emitted their events are found alike:
- ``run_events(state, success)``: what ``add_experience`` writes, an "execution" event per step
  run and a closing "respond" event whose outcome is the verdict the caller gave;
- ``experiences(hits, k)``: search hits grouped by run, best run first;
- ``patterns(records, category)``: for the runs of one task complexity, the command shapes
  (programs in pipe order, e.g. ``grep | wc``) with how often each succeeded and failed.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import Any, Dict, Iterable, List, Optional

from ragix_core.core.text import bounded
from ragix_core.core.types import ReasoningEvent, ReasoningState, StepStatus, TaskComplexity
from ragix_core.tools.lexer import programs

__all__ = ["Experience", "Pattern", "run_events", "experiences", "patterns", "pattern_category"]

_OUTPUT_CHARS = 2000  # of a step's stdout/stderr kept in the corpus
_ANSWER_CHARS = 2000


@dataclass
class Experience:
    """One past run: its goal, how it ended and the commands behind it."""

    session_id: str
    goal: str
    success: Optional[bool]  # None: the run's outcome is not among the matching events
    outcome: Optional[str]  # "success", "failure" or the run's stop reason
    complexity: Optional[str]
    commands: List[str] = field(default_factory=list)  # as run, in order; failed ones included
    answer: Optional[str] = None
    timestamp: Optional[str] = None
    score: float = 0.0
    source: str = ""  # "project" or "global"


@dataclass
class Pattern:
    """A command shape used for goals of one category, and how it went."""

    category: str
    shape: str  # the programs in pipe order: "grep | wc"
    successes: int = 0
    failures: int = 0
    example_command: str = ""
    example_goal: str = ""

    @property
    def success_rate(self) -> float:
        total = self.successes + self.failures
        return self.successes / total if total else 0.0


def _now() -> str:
    return datetime.now(timezone.utc).replace(tzinfo=None).isoformat()


def run_events(state: ReasoningState, success: bool) -> List[ReasoningEvent]:
    """The events ``add_experience(state, success)`` writes for one finished run."""
    ts = _now()
    out: List[ReasoningEvent] = []
    for step in state.executed_steps:
        r = step.result
        command = (step.tool_call.args.get("command") if step.tool_call else None) or (r.command if r else None)
        out.append(ReasoningEvent(
            timestamp=ts, session_id=state.session_id, event_type="execution", goal=state.goal,
            step_num=step.num, step_description=step.description,
            tool=step.tool_call.tool if step.tool_call else (r.tool if r else None),
            tool_input=str(command) if command else None,
            outcome_status="success" if step.status == StepStatus.SUCCESS else
            "skipped" if step.status == StepStatus.SKIPPED else "failure",
            stdout=bounded(r.stdout, _OUTPUT_CHARS) if r and r.stdout else None,
            stderr=bounded(r.stderr, _OUTPUT_CHARS) if r and r.stderr else None,
            returncode=r.returncode if r else None,
            error=(r.error if r else None) if step.status == StepStatus.FAILED else None,
            meta={"complexity": state.complexity.value}))
    stop = state.stop_reason if state.stop_reason not in (None, "success") else None
    out.append(ReasoningEvent(
        timestamp=ts, session_id=state.session_id, event_type="respond", goal=state.goal,
        outcome_status="success" if success else (stop or "failure"),
        error=None if success else state.last_error,
        meta={"complexity": state.complexity.value, "success": bool(success), "stop_reason": state.stop_reason,
              "answer": bounded(str(state.final_answer or ""), _ANSWER_CHARS), "steps": len(state.executed_steps),
              "reflections": state.reflection_count, "recorded_by": "add_experience"}))
    return out


def _meta(record: Dict[str, Any]) -> Dict[str, Any]:
    meta = record.get("meta")
    return meta if isinstance(meta, dict) else {}


def experiences(hits: Iterable[Any], k: int) -> List[Experience]:
    """Search hits (``ScoredEvent``, best first) as at most ``k`` runs, each scored by its best hit.
    A run found in both corpora (the same events written twice) is listed once."""
    runs: Dict[str, Experience] = {}
    ran: Dict[str, Dict[str, int]] = {}  # per run: command -> where its event is in the file (the order it ran)
    for hit in hits:
        ev = hit.event
        sid = str(ev.get("session_id") or "")
        exp = runs.get(sid)
        if exp is None:
            if len(runs) >= k:
                continue
            exp = runs[sid] = Experience(session_id=sid, goal=str(ev.get("goal") or ""), success=None, outcome=None,
                                         complexity=None, timestamp=ev.get("timestamp"), score=hit.score,
                                         source=hit.source)
        meta = _meta(ev)
        if ev.get("event_type") == "respond" and exp.outcome is None:
            exp.outcome = str(ev.get("outcome_status") or "") or None
            exp.success = bool(meta["success"]) if isinstance(meta.get("success"), bool) else exp.outcome == "success"
            exp.answer = meta.get("answer") if isinstance(meta.get("answer"), str) else exp.answer
        if exp.complexity is None and isinstance(meta.get("complexity"), str):
            exp.complexity = meta["complexity"]
        command = ev.get("tool_input")
        if ev.get("event_type") == "execution" and isinstance(command, str):
            ran.setdefault(sid, {}).setdefault(command, hit.offset)
    for sid, exp in runs.items():
        exp.commands = sorted(ran.get(sid, {}), key=ran.get(sid, {}).get)
    return list(runs.values())


def pattern_category(category: Any) -> str:
    """The category as stored (a task complexity's value); a clear error for anything else."""
    try:
        return TaskComplexity.parse(category).value
    except (ValueError, TypeError, KeyError):
        allowed = ", ".join(c.value for c in TaskComplexity)
        raise ValueError(f"unknown pattern category {category!r}; categories are the task complexities: "
                         f"{allowed}") from None


def _shape(command: str) -> str:
    """``grep | wc`` for ``grep -rn x . | wc -l``; the first word for a command the executor would refuse."""
    return " | ".join(programs(command)) or command.split()[0]


def patterns(records: Iterable[Dict[str, Any]], category: Any) -> List[Pattern]:
    """The command shapes of the runs of ``category`` in ``records``, most successful first.

    A run's category is the complexity its closing "respond" event (or its step events) names."""
    wanted = pattern_category(category)
    kinds: Dict[str, str] = {}
    steps: List[Dict[str, Any]] = []
    for record in records:
        complexity = _meta(record).get("complexity")
        sid = str(record.get("session_id") or "")
        if isinstance(complexity, str) and (record.get("event_type") == "respond" or sid not in kinds):
            kinds[sid] = complexity
        if record.get("event_type") == "execution" and isinstance(record.get("tool_input"), str):
            steps.append(record)
    found: Dict[str, Pattern] = {}
    seen = set()
    for record in steps:
        sid = str(record.get("session_id") or "")
        command = record["tool_input"].strip()
        key = (sid, record.get("step_num"), command, record.get("outcome_status"))
        if kinds.get(sid) != wanted or not command or key in seen:
            continue  # (the same event read from both corpora counts once)
        seen.add(key)
        shape = _shape(command)
        p = found.setdefault(shape, Pattern(wanted, shape))
        if record.get("outcome_status") == "success":
            p.successes += 1
            if not p.example_command or p.successes == 1:
                p.example_command, p.example_goal = command, str(record.get("goal") or "")
        elif record.get("outcome_status") == "failure":
            p.failures += 1
            if not p.example_command:
                p.example_command, p.example_goal = command, str(record.get("goal") or "")
    return sorted(found.values(), key=lambda p: (-p.successes, p.failures, p.shape))
