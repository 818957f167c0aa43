import json
from pathlib import Path

from typer.testing import CliRunner

from ragix_core.cli import app
from ragix_core.eval.engines import recording_runner
from ragix_core.eval.harness import EvalOptions, run_scenarios
from ragix_core.eval.suite import load_sources
from tests.eval.fakes import make_result

SCEN = Path(__file__).resolve().parents[1] / "reasoning_v30" / "scenarios"


def invoke(*args):
    return CliRunner().invoke(app, ["eval", *map(str, args)])


def test_malformed_yaml_is_a_message_not_a_traceback(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("- id: x\n  input: go\n  max_steps: lots\n")
    res = invoke(bad, "--replay", tmp_path)
    assert res.exit_code == 2
    out = res.output.replace("\n", "")
    assert "bad.yaml" in out and "max_steps" in out and "Traceback" not in res.output


def test_missing_file_and_bad_options(tmp_path):
    assert invoke(tmp_path / "nope.yaml", "--replay", tmp_path).exit_code == 2
    assert invoke(SCEN / "file_search.yaml", "--corpus", "sometimes").exit_code == 2
    assert invoke(SCEN / "file_search.yaml", "--record", tmp_path, "--replay", tmp_path).exit_code == 2


def test_replay_end_to_end_writes_reports(tmp_path):
    # Record fake runs for the bypass set, then judge them through the real command line.
    scen = load_sources([str(SCEN / "bypass_question.yaml")])

    def fake(goal, **kw):
        return make_result("cyclomatic cognitive control flow" if "cyclomatic" in goal else "?", complexity="BYPASS")

    run_scenarios(scen, recording_runner(fake, tmp_path / "runs"), EvalOptions(), corpus_factory=lambda root: None)
    res = invoke(SCEN / "bypass_question.yaml", "--replay", tmp_path / "runs", "--json", tmp_path / "r.json",
                 "--markdown", tmp_path / "r.md", "--min-pass-rate", "0.05", "--no-baseline")
    assert res.exit_code == 0, res.output
    report = json.loads((tmp_path / "r.json").read_text())
    passed = {s["id"]: s["passed"] for s in report["scenarios"]}
    assert passed["conceptual-question"] is True and passed["list-vs-tuple"] is False
    assert report["aggregates"]["runs"] == 10 and "partial" not in report["meta"]  # the final report replaced it
    assert report["aggregates"]["bypass_accuracy"] == 0.8  # the two traps were answered blind
    assert "## Aggregates" in (tmp_path / "r.md").read_text()
    strict = invoke(SCEN / "bypass_question.yaml", "--replay", tmp_path / "runs", "--min-pass-rate", "0.5",
                    "--no-baseline")
    assert strict.exit_code == 1


def test_the_s0_baseline_runs_by_default_unless_strategies_are_given_or_a_learning_curve(tmp_path):
    scen = load_sources([str(SCEN / "bypass_question.yaml")])
    run_scenarios(scen, recording_runner(lambda goal, **kw: make_result("?", complexity="BYPASS"), tmp_path / "runs"),
                  EvalOptions(), corpus_factory=lambda root: None)
    invoke(SCEN / "bypass_question.yaml", "--replay", tmp_path / "runs", "--json", tmp_path / "d.json")
    report = json.loads((tmp_path / "d.json").read_text())
    assert list(report["by_strategy"]) == ["graph_v30", "s0"]  # s0 was not recorded: reported, not dropped
    s0_rows = [r for r in report["scenarios"] if r["strategy"] == "s0"]
    assert len(s0_rows) == 10 and all("no recorded run" in r["error"] for r in s0_rows)
    from ragix_core.cli.eval_cmd import chosen_strategies

    assert chosen_strategies([], baseline=True, learning_curve=True) == [None]
    assert chosen_strategies([], baseline=False, learning_curve=False) == [None]
    assert chosen_strategies(["loop_v1"], baseline=True, learning_curve=False) == ["loop_v1"]


def test_fixture_is_the_default_working_directory():
    (s,) = load_sources([str(SCEN / "file_search.yaml")])[:1]
    assert s.cwd is not None and (s.cwd / "docs" / "guide.md").is_file()


def test_a_stopped_evaluation_leaves_the_runs_it_finished_in_the_json_report(tmp_path, monkeypatch):
    # Measured: a 20-task AgentBench run stopped after 11 graph tasks kept no token figures, since
    # the report was written only once every strategy had finished.
    from ragix_core.eval import suite
    from ragix_core.eval.evaluate import ScenarioResult

    def stopped(spec, on_result=None, on_total=None, **kw):
        on_total(4)
        on_result(ScenarioResult(id="a", passed=True, strategy="graph_v30", prompt_tokens=120, wall_time=3.0))
        on_result(ScenarioResult(id="a", passed=False, strategy="s0", prompt_tokens=40, wall_time=1.0))
        raise RuntimeError("the machine went down")

    monkeypatch.setattr(suite, "run_suite", stopped)
    out = tmp_path / "r.json"
    res = invoke(SCEN / "bypass_question.yaml", "--replay", tmp_path, "--json", out)
    assert res.exit_code != 0
    report = json.loads(out.read_text())
    assert report["meta"]["partial"] is True and (report["meta"]["completed"], report["meta"]["total"]) == (2, 4)
    assert [(r["id"], r["strategy"], r["prompt_tokens"]) for r in report["scenarios"]] == [
        ("a", "graph_v30", 120), ("a", "s0", 40)]
    assert report["by_strategy"]["graph_v30"]["pass_rate"] == 1.0 and report["by_strategy"]["s0"]["pass_rate"] == 0.0
    assert not list(tmp_path.glob(".r.json.tmp"))  # written whole, no temporary left behind


def test_yes_lets_every_run_write_in_its_copy(tmp_path, monkeypatch):
    # NL2Bash's write tasks ask for a change: without --yes a run may only read, as `ragix run` does.
    from ragix_core.eval import suite

    seen = []

    def fake_run_suite(spec, on_result=None, on_total=None, **kw):
        seen.append(spec.options.extra)
        raise RuntimeError("stop here")

    monkeypatch.setattr(suite, "run_suite", fake_run_suite)
    invoke(SCEN / "bypass_question.yaml", "--replay", tmp_path, "--yes")
    invoke(SCEN / "bypass_question.yaml", "--replay", tmp_path)
    assert seen == [{"assume_yes": True}, {}]


def test_the_runner_is_given_the_extra_keywords(tmp_path):
    from ragix_core.eval.scenario import Scenario

    kwargs = []

    def runner(goal, **kw):
        kwargs.append(kw)
        return make_result("ok")

    run_scenarios([Scenario(id="a", input="q")], runner, EvalOptions(cwd=tmp_path, extra={"assume_yes": True}))
    assert kwargs and kwargs[0]["assume_yes"] is True
