"""Evaluation harness: scenarios with known answers, engines and a baseline run the same way.

Spec 000 §8 (scenario format) and §12 (metrics), spec 001 Phase 6, spec 002 §11.
"""

from ragix_core.eval.evaluate import ScenarioResult, evaluate_run
from ragix_core.eval.harness import CORPUS_MODES, EvalOptions, run_scenarios
from ragix_core.eval.learning import learning_curve
from ragix_core.eval.metrics import AGGREGATE_KEYS, aggregate
from ragix_core.eval.report import build_report, rich_table, to_markdown, write_json
from ragix_core.eval.scenario import Scenario, ScenarioError, load_scenario_file, load_scenarios
from ragix_core.eval.suite import SuiteSpec, run_suite

__all__ = [
    "Scenario",
    "ScenarioError",
    "load_scenarios",
    "load_scenario_file",
    "ScenarioResult",
    "evaluate_run",
    "EvalOptions",
    "run_scenarios",
    "CORPUS_MODES",
    "learning_curve",
    "SuiteSpec",
    "run_suite",
    "aggregate",
    "AGGREGATE_KEYS",
    "build_report",
    "write_json",
    "to_markdown",
    "rich_table",
]
