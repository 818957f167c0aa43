"""The spec 000 §8.1 test harness: the shipped scenario sets and the fixture they run on.

A thin front to ``ragix_core.eval`` (where the harness lives, so ``ragix eval``
and tests share one implementation):

    from tests.reasoning_v30.harness import MAIN_SETS, run_sets
    report = run_sets(MAIN_SETS, strategy="s0")
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Callable, Dict, Optional, Sequence

from ragix_core.eval.harness import EvalOptions
from ragix_core.eval.scenario import Scenario
from ragix_core.eval.suite import SuiteSpec, load_sources, run_suite

__all__ = ["HERE", "MOCK_REPO", "SCENARIO_DIR", "MAIN_SETS", "LEARNING_SETS", "load_sets", "run_sets"]

HERE = Path(__file__).resolve().parent
MOCK_REPO = HERE / "fixtures" / "mock_repo"
SCENARIO_DIR = HERE / "scenarios"
MAIN_SETS = tuple(SCENARIO_DIR / f"{name}.yaml" for name in ("file_search", "code_analysis", "bypass_question"))
LEARNING_SETS = (SCENARIO_DIR / "learning_warmup.yaml", SCENARIO_DIR / "learning_transfer.yaml")


def load_sets(paths: Sequence[Path] = MAIN_SETS) -> list[Scenario]:
    return load_sources([str(p) for p in paths])


def run_sets(paths: Sequence[Path] = MAIN_SETS, *, strategy: Optional[str] = None,
             runner_factory: Optional[Callable[[Optional[str]], Callable[..., Any]]] = None,
             corpus_factory: Optional[Callable[..., Any]] = None, **options: Any) -> Dict[str, Any]:
    """Run the sets through one strategy and return the JSON report."""
    spec = SuiteSpec(sources=[str(p) for p in paths], strategies=[strategy], options=EvalOptions(**options))
    kwargs: Dict[str, Any] = {"runner_factory": runner_factory}
    if corpus_factory is not None:
        kwargs["corpus_factory"] = corpus_factory
    return run_suite(spec, **kwargs)
