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
                 "--markdown", tmp_path / "r.md", "--min-pass-rate", "0.05")
    assert res.exit_code == 0, res.output
    report = json.loads((tmp_path / "r.json").read_text())
    passed = {s["id"]: s["passed"] for s in report["scenarios"]}
    assert passed["conceptual-question"] is True and passed["list-vs-tuple"] is False
    assert report["aggregates"]["runs"] == 10
    assert report["aggregates"]["bypass_accuracy"] == 0.8  # the two traps were answered blind
    assert "## Aggregates" in (tmp_path / "r.md").read_text()
    strict = invoke(SCEN / "bypass_question.yaml", "--replay", tmp_path / "runs", "--min-pass-rate", "0.5")
    assert strict.exit_code == 1


def test_fixture_is_the_default_working_directory():
    (s,) = load_sources([str(SCEN / "file_search.yaml")])[:1]
    assert s.cwd is not None and (s.cwd / "docs" / "guide.md").is_file()
