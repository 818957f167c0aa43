"""The hierarchical pattern (spec 002 §9, pattern 3): a master splits a goal, graph workers answer the parts.

Registered as the strategy ``hierarchical``: `ragix eval SET -s hierarchical -s graph_v30` compares it with
a single graph on the same goals, and `ragix ask` routes a project goal that asks several things here.

1. SPLIT: ``collective.split`` — a goal that asks one thing goes to one worker unchanged (no model call);
   otherwise the master (the ``planner`` role) proposes 2..``max_parts`` questions, validated, or the whole
   goal goes to one worker and the split says why.
2. PART:i: a ``graph_v30`` worker per question, one after another in the run's context. Every model call of
   master and workers is checked against ONE budget (``runtime.budget``: calls, tokens, wall time): a
   worker gets whatever is left; when it is spent the running worker ends with the budget's stop
   (``budget_calls`` / ``budget_tokens`` / ``budget_wall``) and no further part starts.
3. COMPOSE: deterministic, no model: one part's answer is the answer as the worker wrote it; several
   parts' answers are written under the question each answers ("Part 2 — <question>"), an unanswered part
   saying why. The run succeeds when every part did; else it ends with the budget's stop, ``user_abort``,
   ``dry_run`` (the first worker's first command, previewed) or ``part_unanswered``.

Options: ``meta["hierarchical"]`` = {"max_parts": 4, "budget": {"max_calls", "max_tokens", "max_seconds"}}.
Trace: the master publishes RUN_START, a PART event per stage and RUN_END; every event of worker i carries
``part=i`` (``EventBus.scope``), so `ragix trace show` prints it under that part.
"""

from __future__ import annotations

import dataclasses
from typing import Any, Dict, List, Optional, Tuple

from ragix_core.collective.split import MAX_PARTS, Split, split_goal
from ragix_core.core.events import RUN_END_ANSWER_CHARS, EventKind
from ragix_core.core.interrupt import USER_ABORT
from ragix_core.core.registry import build_engine, get_engine
from ragix_core.core.stop import BudgetSpent, StopRun
from ragix_core.core.text import bounded
from ragix_core.core.types import ReasoningState
from ragix_core.runtime.budget import BUDGET_REASONS, BudgetLimits, RunBudget
from ragix_core.tools.preview import DRY_RUN

__all__ = ["HierarchicalEngine", "build", "WORKER", "compose"]

WORKER = "graph_v30"
PART_UNANSWERED = "part_unanswered"


def _options(meta: Dict[str, Any]) -> Tuple[int, BudgetLimits]:
    opts = dict(meta.get("hierarchical") or {})
    unknown = sorted(set(opts) - {"max_parts", "budget"})
    if unknown:
        raise ValueError(f"unknown hierarchical option(s) {', '.join(unknown)}; known: max_parts, budget")
    max_parts = opts.get("max_parts", MAX_PARTS)
    if isinstance(max_parts, bool) or not isinstance(max_parts, int) or not 2 <= max_parts <= 8:
        raise ValueError(f"hierarchical max_parts must be a whole number from 2 to 8, got {max_parts!r}")
    return max_parts, BudgetLimits.from_mapping(opts.get("budget"))


def _delta(after: Dict[str, int], before: Dict[str, int]) -> Dict[str, int]:
    return {k: after.get(k, 0) - before.get(k, 0) for k in ("llm_calls", "prompt_tokens", "completion_tokens")}


def compose(parts: List[Dict[str, Any]]) -> str:
    """The answer from the parts' records: one part's own answer, or each under the question it answers."""
    if len(parts) == 1:
        p = parts[0]
        return p["answer"] or f"(no answer: {p['stop_reason']})"
    blocks = []
    for p in parts:
        if p["stop_reason"] == "not_run":
            body = f"(not answered: {p['why']})"
        elif p["stop_reason"] == "success":
            body = p["answer"]
        else:
            body = (p["answer"] + "\n" if p["answer"] else "") + f"(this part ended {p['stop_reason']})"
        blocks.append(f"Part {p['part']} — {p['question']}\n{body}")
    return "\n\n".join(blocks)


class HierarchicalEngine:
    def __init__(self, ctx: Any) -> None:
        self.ctx = ctx
        self.trace: List[str] = []

    def _publish(self, kind: EventKind, state: ReasoningState, **data: Any) -> None:
        self.ctx.bus.publish(kind, state.session_id, **data)

    def run(self, state: ReasoningState) -> ReasoningState:
        try:
            max_parts, limits = _options(state.meta)
        except (TypeError, ValueError) as exc:
            state.stop_reason, state.last_error = "bad_hierarchical", str(exc)
            state.final_answer = f"No answer: {exc}"
            return state
        self._publish(EventKind.RUN_START, state, engine="hierarchical", goal=state.goal)
        budget = RunBudget(limits, self.ctx.roles.summary)
        with budget.installed(self.ctx.roles):
            split, records, stop = self._run_parts(state, budget, max_parts)
        state.meta["hierarchical"] = {"split": split.to_dict(), "parts": records, "budget": budget.to_dict()}
        self.trace.append("COMPOSE")
        state.final_answer = compose(records) if records else f"No answer: {stop.message if stop else 'no part'}"
        if stop is not None:
            state.stop_reason, state.last_error = stop.reason, stop.message
        elif all(r["stop_reason"] == "success" for r in records):
            state.stop_reason = "success"
        else:
            failed = [r for r in records if r["stop_reason"] != "success"]
            state.stop_reason = records[0]["stop_reason"] if len(records) == 1 else PART_UNANSWERED
            state.last_error = "; ".join(f"part {r['part']} ended {r['stop_reason']}" for r in failed)
        # The answer is as sure as its weakest part; a part without an answer counts 0.
        state.confidence = min((r["confidence"] if r["stop_reason"] == "success" else 0.0) for r in records) \
            if records else 0.0
        self._publish(EventKind.PART, state, stage="compose", parts=len(records), stop_reason=state.stop_reason)
        self._publish(EventKind.RUN_END, state, stop_reason=state.stop_reason,
                      answer=bounded(str(state.final_answer or ""), RUN_END_ANSWER_CHARS))
        return state

    def _run_parts(self, state: ReasoningState, budget: RunBudget,
                   max_parts: int) -> Tuple[Split, List[Dict[str, Any]], Optional[StopRun]]:
        """The split, the records of every part (run or not) and the stop that ended the run early, if any."""
        self.trace.append("SPLIT")
        try:
            split = split_goal(state.goal, self.ctx.roles.get("planner"), max_parts)
        except BudgetSpent as spent:
            return Split([state.goal], "fallback", f"the budget was spent before the split: {spent.message}"), [], spent
        self._publish(EventKind.PART, state, stage="split", by=split.by, note=split.note, parts=split.parts)
        records: List[Dict[str, Any]] = []
        stop: Optional[StopRun] = None
        worker_ctx = dataclasses.replace(self.ctx, checkpoint_path=None)  # one checkpoint file cannot hold N graphs
        for i, question in enumerate(split.parts, 1):
            record: Dict[str, Any] = {"part": i, "question": question, "engine": WORKER, "answer": "",
                                      "confidence": 0.0, "left_at_start": budget.left()}
            records.append(record)
            stop = stop or budget.spent()
            if stop is not None:
                record.update(stop_reason="not_run", why=f"{stop.message} before this part")
                continue
            self.trace.append(f"PART:{i}")
            self._publish(EventKind.PART, state, stage="start", part=i, question=question,
                          left=record["left_at_start"])
            before = self.ctx.roles.summary()
            sub = ReasoningState(goal=question, session_id=state.session_id,
                                 meta={k: v for k, v in state.meta.items() if k != "hierarchical"})
            sub.meta.update(strategy=WORKER, complexity_classified=get_engine(WORKER).classifies)
            with self.ctx.bus.scope(part=i):
                sub = build_engine(get_engine(WORKER), worker_ctx).run(sub)
            state.executed_steps.extend(sub.executed_steps)
            record.update(stop_reason=sub.stop_reason or "unknown", answer=sub.final_answer or "",
                          confidence=sub.confidence or 0.0, error=sub.last_error,
                          used=_delta(self.ctx.roles.summary(), before))
            if sub.meta.get("caveat"):
                record["caveat"] = sub.meta["caveat"]
            self._publish(EventKind.PART, state, stage="end", part=i, stop_reason=record["stop_reason"],
                          used=record["used"])
            # A spent budget, Ctrl-C or a dry run's first command: no further part may start.
            if record["stop_reason"] in BUDGET_REASONS + (USER_ABORT, DRY_RUN):
                stop = StopRun(record["stop_reason"], sub.last_error or record["stop_reason"])
        return split, records, stop


def build(ctx: Any) -> HierarchicalEngine:
    return HierarchicalEngine(ctx)
