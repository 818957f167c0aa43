"""Aggregate metrics, named as in spec 000 §12.

- plan_success_rate: passed without any reflection / all runs
- recovery_rate: passed after >= 1 reflection / runs that reflected (a run
  reflects only after a failed step, so these are the failed plans)
- max_reflections_rate: runs stopped by the reflection budget (loop_v1: its retry budget) / all runs
- avg_steps: mean executed steps per run
- passed_via_grounding: failed runs whose answer had the expected patterns
  only in the file listing grounding appended (not counted as passed)
- bypass_accuracy: share of labelled runs whose BYPASS-or-not decision matches
  the label (both errors count: a tool task answered blind, and a pure
  reasoning question sent through a plan)

Rates whose denominator is empty are None, never a misleading 0 or 1. Each rate
``X`` comes with ``X_ci95``: the Wilson score interval at 95 % (z = 1.96),

    centre = (p + z²/2n) / (1 + z²/n),  half = z·sqrt(p(1-p)/n + z²/4n²) / (1 + z²/n)

which stays inside [0, 1] and is honest for the small n of a scenario set.
"""

from __future__ import annotations

import math
from typing import Any, Dict, List, Optional, Sequence, Tuple

from ragix_core.eval.evaluate import ScenarioResult

__all__ = ["aggregate", "AGGREGATE_KEYS", "wilson", "pass_frequency"]

AGGREGATE_KEYS = (
    "runs", "passed", "passed_via_grounding", "pass_rate", "pass_rate_ci95", "success_rate",
    "plan_success_rate", "plan_success_rate_ci95", "recovery_rate", "recovery_rate_ci95", "recovery_attempted",
    "max_reflections_rate", "max_reflections_rate_ci95",
    "avg_steps", "bypass_accuracy", "bypass_accuracy_ci95", "complexity_accuracy", "avg_keyword_coverage",
    "llm_calls", "prompt_tokens", "completion_tokens", "total_tokens", "cached_prompt_tokens", "computed_tokens",
    "wall_time", "median_wall_time",
    "harness_errors",
)


def _rate(num: int, den: int) -> Optional[float]:
    return round(num / den, 4) if den else None


def wilson(num: int, den: int, z: float = 1.96) -> Optional[Tuple[float, float]]:
    """Wilson score interval for num/den (None when den is 0)."""
    if not den:
        return None
    p = num / den
    denom = 1 + z * z / den
    centre = (p + z * z / (2 * den)) / denom
    half = z * math.sqrt(p * (1 - p) / den + z * z / (4 * den * den)) / denom
    return (round(max(0.0, centre - half), 4), round(min(1.0, centre + half), 4))


def pass_frequency(results: Sequence[ScenarioResult]) -> Dict[str, str]:
    """Per scenario id, "passed/runs" (with --repeat: how often each scenario passes)."""
    out: Dict[str, List[int]] = {}
    for r in results:
        k = out.setdefault(r.id, [0, 0])
        k[0] += int(r.passed)
        k[1] += 1
    return {sid: f"{p}/{n}" for sid, (p, n) in out.items()}


def _summed_by_node(results: Sequence[ScenarioResult]) -> Dict[str, int]:
    """Each node's tokens over the runs, largest first: where an engine's cost goes."""
    out: Dict[str, int] = {}
    for r in results:
        for node, tokens in (getattr(r, "tokens_by_node", None) or {}).items():
            out[node] = out.get(node, 0) + int(tokens)
    return dict(sorted(out.items(), key=lambda kv: -kv[1]))


def aggregate(results: Sequence[ScenarioResult]) -> Dict[str, Any]:
    n = len(results)
    passed = sum(r.passed for r in results)
    reflected = [r for r in results if r.reflections > 0]
    labelled = [r for r in results if r.complexity_expected and r.complexity_got]
    bypass_ok = sum((r.complexity_expected == "BYPASS") == (r.complexity_got == "BYPASS") for r in labelled)
    coverages: List[float] = [r.keyword_coverage for r in results if r.keyword_coverage is not None]
    prompt = sum(r.prompt_tokens for r in results)
    completion = sum(r.completion_tokens for r in results)
    cached = sum(min(r.cached_prompt_tokens, r.prompt_tokens) for r in results)
    plan_ok = sum(r.passed and r.reflections == 0 for r in results)
    recovered = sum(r.passed for r in reflected)
    stopped = sum(r.stop_reason in ("max_reflections", "max_retries") for r in results)
    walls = sorted(r.wall_time for r in results)
    return {
        "runs": n,
        "passed": passed,
        "passed_via_grounding": sum(r.passed_via_grounding for r in results),
        "pass_rate": _rate(passed, n),
        "pass_rate_ci95": wilson(passed, n),
        "success_rate": _rate(sum(r.stop_reason == "success" for r in results), n),
        "plan_success_rate": _rate(plan_ok, n),
        "plan_success_rate_ci95": wilson(plan_ok, n),
        "recovery_rate": _rate(recovered, len(reflected)),
        "recovery_rate_ci95": wilson(recovered, len(reflected)),
        "recovery_attempted": len(reflected),
        # loop_v1's retry budget running out ("max_retries") is the same event for that engine.
        "max_reflections_rate": _rate(stopped, n),
        "max_reflections_rate_ci95": wilson(stopped, n),
        "avg_steps": round(sum(r.steps for r in results) / n, 3) if n else None,
        "bypass_accuracy": _rate(bypass_ok, len(labelled)),
        "bypass_accuracy_ci95": wilson(bypass_ok, len(labelled)),
        "complexity_accuracy": _rate(sum(r.complexity_match is True for r in labelled), len(labelled)),
        "avg_keyword_coverage": round(sum(coverages) / len(coverages), 4) if coverages else None,
        "llm_calls": sum(r.llm_calls for r in results),
        "prompt_tokens": prompt,
        "completion_tokens": completion,
        "total_tokens": prompt + completion,
        # What the model computed: the total minus the prompt tokens its prefix cache served.
        "cached_prompt_tokens": cached,
        "computed_tokens": prompt + completion - cached,
        "tokens_by_node": _summed_by_node(results),
        "wall_time": round(sum(r.wall_time for r in results), 3),
        "median_wall_time": round(walls[len(walls) // 2] if len(walls) % 2 else
                                  (walls[len(walls) // 2 - 1] + walls[len(walls) // 2]) / 2, 3) if walls else None,
        "harness_errors": sum(r.error is not None for r in results),
    }
