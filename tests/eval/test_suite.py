from pathlib import Path

import pytest

from ragix_core.eval.scenario import ScenarioError
from ragix_core.eval.suite import SuiteSpec, run_suite
from tests.eval.fakes import make_result

SCEN = Path(__file__).resolve().parents[1] / "reasoning_v30" / "scenarios"


class Corpus:
    def __init__(self, root):
        self.lessons = []


def factory(strategy):
    def engine(goal, *, cwd, **kw):
        assert (cwd / "a.py").is_file()  # runs over a copy of mock_repo
        return make_result("b.py cli.py", ["grep -rn 'def execute' ."], complexity="SIMPLE")

    def s0(goal, **kw):
        return make_result("I think b.py", ["grep -rl execute ."])

    return s0 if strategy == "s0" else engine


def test_engine_against_baseline():
    spec = SuiteSpec(sources=[str(SCEN / "file_search.yaml")], strategies=["graph_v30", "s0"], only=["grep-*"])
    totals = []
    report = run_suite(spec, runner_factory=factory, corpus_factory=Corpus, on_total=totals.append)
    assert totals == [2]
    assert report["by_strategy"]["graph_v30"]["pass_rate"] == 1.0
    assert report["by_strategy"]["s0"]["pass_rate"] == 0.0
    assert report["aggregates"]["runs"] == 1 and report["meta"]["primary_strategy"] == "graph_v30"
    assert [(s["strategy"], s["passed"]) for s in report["scenarios"]] == [("graph_v30", True), ("s0", False)]
    # the aggregates cover the first strategy only: every rendering says whose they are
    from ragix_core.eval.report import rich_table, to_markdown

    assert "## Aggregates (spec 000 §12), graph_v30" in to_markdown(report)
    assert "Aggregates (spec 000 §12), graph_v30" in [getattr(t, "title", None) for t in rich_table(report).renderables]


def test_learning_curve_mode():
    spec = SuiteSpec(sources=[str(SCEN / "learning_transfer.yaml")], warmup=[str(SCEN / "learning_warmup.yaml")])
    report = run_suite(spec, runner_factory=factory, corpus_factory=Corpus)
    lc = report["learning_curve"]
    assert lc["keep"]["runs"] == 5 and lc["fresh"]["runs"] == 5 and lc["warmup"]["runs"] == 5


def test_nothing_selected():
    with pytest.raises(ScenarioError, match="no scenario selected"):
        run_suite(SuiteSpec(sources=[str(SCEN / "file_search.yaml")], only=["zzz"]), runner_factory=factory,
                  corpus_factory=Corpus)


def test_benchmarks_through_the_suite(tmp_path, monkeypatch):
    reasoning_gym = pytest.importorskip("reasoning_gym")
    from tests.eval.test_benchmarks import TASKS, make_wheel

    monkeypatch.setenv("RAGIX_BENCH_DIR", str(make_wheel(tmp_path, TASKS[:1])))
    answers = {e["question"]: e["answer"] for e in reasoning_gym.create_dataset("gsm_symbolic", size=3, seed=1)}

    def solver(strategy):
        def run(goal, *, cwd, **kw):
            assert not (cwd / "a.py").exists()  # benchmarks start from an empty directory, not mock_repo
            if goal in answers:
                return make_result(f"The answer is {answers[goal]}" if "sold" not in goal else "0")
            logs = list((cwd / "logs").glob("*.log"))  # built by the task's init script
            return make_result(f"{len(logs)} files", ["ls logs"])
        return run

    report = run_suite(SuiteSpec(sources=["bench:gsm:3:1", "bench:agentbench"]), runner_factory=solver,
                       corpus_factory=Corpus)
    rows = {r["id"]: r["passed"] for r in report["scenarios"]}
    assert rows == {"gsm-1-0": True, "gsm-1-1": True, "gsm-1-2": True, "agentbench-os-test-1": True}
    assert set(report["by_category"]) == {"gsm_symbolic", "agentbench_os"}


def test_each_scenario_is_run_by_every_strategy_before_the_next():
    # A report stopped half-way (a long benchmark) then compares the same scenarios, run under the same load.
    spec = SuiteSpec(sources=[str(SCEN / "file_search.yaml")], strategies=["graph_v30", "s0"], limit=2)
    seen = []
    report = run_suite(spec, runner_factory=factory, corpus_factory=Corpus, on_result=lambda r: seen.append(r.strategy))
    ids = [s["id"] for s in report["scenarios"] if s["strategy"] == "s0"]
    assert seen == ["graph_v30", "s0", "graph_v30", "s0"] and len(set(ids)) == 2
    assert report["by_strategy"]["graph_v30"]["runs"] == report["by_strategy"]["s0"]["runs"] == 2
