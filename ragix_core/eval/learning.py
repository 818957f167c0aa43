"""Learning from experience: a second pass with the corpus kept vs a fresh corpus.

Kept: one corpus shared by a warm-up pass and then the transfer pass (related
but different tasks), so PLAN and REFLECT of the transfer tasks can retrieve
what the warm-up runs recorded. Fresh: the transfer pass alone, each run with
an empty corpus. The difference in pass rate and tokens on the transfer pass is
the learning effect; everything else (engine, model, tasks) is the same.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

from ragix_core.eval.evaluate import ScenarioResult
from ragix_core.eval.harness import EvalOptions, default_corpus_factory, run_scenarios
from ragix_core.eval.metrics import aggregate
from ragix_core.eval.scenario import Scenario

__all__ = ["learning_curve"]


def _delta(a: Optional[float], b: Optional[float]) -> Optional[float]:
    return round(a - b, 4) if a is not None and b is not None else None


def learning_curve(
    warmup: Sequence[Scenario],
    transfer: Sequence[Scenario],
    runner: Callable[..., Any],
    opts: EvalOptions,
    corpus_factory: Callable[..., Any] = default_corpus_factory,
    on_result: Optional[Callable[[ScenarioResult], None]] = None,
) -> Tuple[Dict[str, Any], List[ScenarioResult]]:
    """Return (summary, all results). Results carry category ``<cat>@keep`` / ``<cat>@fresh``."""
    transfer_ids = {s.id for s in transfer}
    overlap = transfer_ids & {s.id for s in warmup}
    if overlap:
        raise ValueError(f"warm-up and transfer sets share scenario ids: {', '.join(sorted(overlap))}")
    kept = run_scenarios(list(warmup) + list(transfer), runner, replace(opts, corpus="keep"),
                         corpus_factory=corpus_factory, on_result=on_result)
    fresh = run_scenarios(list(transfer), runner, replace(opts, corpus="fresh"),
                          corpus_factory=corpus_factory, on_result=on_result)
    for r in kept:
        r.category = f"{r.category}@keep"
    for r in fresh:
        r.category = f"{r.category}@fresh"
    keep_agg = aggregate([r for r in kept if r.id in transfer_ids])
    fresh_agg = aggregate(fresh)
    summary = {
        "warmup": aggregate([r for r in kept if r.id not in transfer_ids]),
        "keep": keep_agg,
        "fresh": fresh_agg,
        "delta_pass_rate": _delta(keep_agg["pass_rate"], fresh_agg["pass_rate"]),
        "delta_total_tokens": keep_agg["total_tokens"] - fresh_agg["total_tokens"],
    }
    return summary, kept + fresh
