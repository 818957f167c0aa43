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

Rates whose denominator is empty are None, never a misleading 0 or 1.
"""

from __future__ import annotations

from typing import Any, Dict, List, Optional, Sequence

from ragix_core.eval.evaluate import ScenarioResult

__all__ = ["aggregate", "AGGREGATE_KEYS"]

AGGREGATE_KEYS = (
    "runs", "passed", "passed_via_grounding", "pass_rate", "plan_success_rate", "recovery_rate", "max_reflections_rate",
    "avg_steps", "bypass_accuracy", "complexity_accuracy", "avg_keyword_coverage",
    "llm_calls", "prompt_tokens", "completion_tokens", "total_tokens", "wall_time",
    "harness_errors",
)


def _rate(num: int, den: int) -> Optional[float]:
    return round(num / den, 4) if den else None


def aggregate(results: Sequence[ScenarioResult]) -> Dict[str, Any]:
    n = len(results)
    passed = sum(r.passed for r in results)
    reflected = [r for r in results if r.reflections > 0]
    labelled = [r for r in results if r.complexity_expected and r.complexity_got]
    bypass_ok = sum((r.complexity_expected == "BYPASS") == (r.complexity_got == "BYPASS") for r in labelled)
    coverages: List[float] = [r.keyword_coverage for r in results if r.keyword_coverage is not None]
    prompt = sum(r.prompt_tokens for r in results)
    completion = sum(r.completion_tokens for r in results)
    return {
        "runs": n,
        "passed": passed,
        "passed_via_grounding": sum(r.passed_via_grounding for r in results),
        "pass_rate": _rate(passed, n),
        "plan_success_rate": _rate(sum(r.passed and r.reflections == 0 for r in results), n),
        "recovery_rate": _rate(sum(r.passed for r in reflected), len(reflected)),
        # loop_v1's retry budget running out ("max_retries") is the same event for that engine.
        "max_reflections_rate": _rate(sum(r.stop_reason in ("max_reflections", "max_retries") for r in results), n),
        "avg_steps": round(sum(r.steps for r in results) / n, 3) if n else None,
        "bypass_accuracy": _rate(bypass_ok, len(labelled)),
        "complexity_accuracy": _rate(sum(r.complexity_match is True for r in labelled), len(labelled)),
        "avg_keyword_coverage": round(sum(coverages) / len(coverages), 4) if coverages else None,
        "llm_calls": sum(r.llm_calls for r in results),
        "prompt_tokens": prompt,
        "completion_tokens": completion,
        "total_tokens": prompt + completion,
        "wall_time": round(sum(r.wall_time for r in results), 3),
        "harness_errors": sum(r.error is not None for r in results),
    }
