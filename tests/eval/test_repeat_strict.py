"""--repeat with --seed/--temperature, Wilson intervals, per-scenario pass frequency, --strict."""

import pytest

from ragix_core.eval.harness import EvalOptions, run_scenarios
from ragix_core.eval.metrics import aggregate, pass_frequency, wilson
from ragix_core.eval.report import to_markdown
from ragix_core.eval.scenario import Scenario
from ragix_core.eval.suite import SuiteSpec, run_suite
from tests.eval.fakes import make_result


def test_wilson_interval_on_fixed_inputs():
    assert wilson(0, 0) is None
    lo, hi = wilson(18, 47)
    assert (lo, hi) == pytest.approx((0.2579, 0.5257), abs=1e-4)  # worked by hand in docs/DECISIONS.md
    assert wilson(0, 10)[0] == 0.0 and wilson(10, 10)[1] == 1.0  # stays inside [0, 1]
    assert wilson(5, 10)[0] == pytest.approx(1 - wilson(5, 10)[1], abs=1e-4)  # symmetric at p = 0.5


def test_each_run_gets_its_own_seed_and_the_temperature(tmp_path):
    seen = []

    def runner(goal, **kw):
        seen.append((kw.get("seed"), kw.get("temperature")))
        return make_result("42")

    sc = [Scenario(id="a", input="q", expected_patterns=["42"])]
    results = run_scenarios(sc, runner, EvalOptions(cwd=tmp_path, repeat=3, seed=100, temperature=0.7))
    assert seen == [(100, 0.7), (101, 0.7), (102, 0.7)] and [r.run for r in results] == [1, 2, 3]
    assert pass_frequency(results) == {"a": "3/3"}


def test_strict_counts_only_runs_that_ended_in_success(tmp_path):
    sc = [Scenario(id="a", input="q", expected_patterns=["42"])]
    partial = lambda goal, **kw: make_result("## Partial Results ... 42", stop_reason="max_reflections")  # noqa: E731
    loose = run_scenarios(sc, partial, EvalOptions(cwd=tmp_path))
    strict = run_scenarios(sc, partial, EvalOptions(cwd=tmp_path, strict=True))
    assert loose[0].passed and not strict[0].passed
    assert "strict: stop_reason is max_reflections" in strict[0].failure[0]


def test_the_report_shows_intervals_frequencies_and_sampling_settings(tmp_path):
    answers = iter(["42", "41", "42", "42"])
    spec = SuiteSpec(sources=["unused"], strategies=["graph_v30"],
                     options=EvalOptions(cwd=tmp_path, repeat=2, seed=7, temperature=0.5))
    scenarios = [Scenario(id="a", input="qa", expected_patterns=["42"]), Scenario(id="b", input="qb", expected_patterns=["42"])]
    import ragix_core.eval.suite as suite

    original = suite.load_sources
    suite.load_sources = lambda sources, skipped=None: scenarios
    try:
        report = run_suite(spec, runner_factory=lambda s: (lambda goal, **kw: make_result(next(answers))))
    finally:
        suite.load_sources = original
    assert report["pass_frequency"]["graph_v30"] == {"a": "1/2", "b": "2/2"}
    agg = report["by_strategy"]["graph_v30"]
    assert agg["pass_rate"] == 0.75 and agg["pass_rate_ci95"] == wilson(3, 4)
    md = to_markdown(report)
    assert "Pass frequency per scenario" in md and "| a | 1/2 |" in md and "**seed**: 7" in md
    assert aggregate([])["pass_rate_ci95"] is None
