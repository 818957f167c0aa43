import json
from pathlib import Path

import pytest

from ragix_core.eval.harness import EvalOptions, run_scenarios
from ragix_core.eval.report import build_report, rich_table, to_markdown, write_json
from ragix_core.eval.scenario import Scenario
from tests.eval.fakes import make_result

MOCK_REPO = Path(__file__).resolve().parents[1] / "reasoning_v30" / "fixtures" / "mock_repo"


class Corpus:
    def __init__(self, root):
        self.root = root
        self.events = []


def test_runs_in_a_copy_and_original_is_untouched(tmp_path):
    src = tmp_path / "repo"
    src.mkdir()
    (src / "a.txt").write_text("hello\n")
    seen = []

    def runner(goal, *, cwd, **kw):
        seen.append(cwd)
        assert cwd != src and (cwd / "a.txt").read_text() == "hello\n"
        (cwd / "a.txt").write_text("changed by the agent\n")  # writes land in the copy only
        return make_result("hello", ["cat a.txt"])

    res = run_scenarios([Scenario(id="x", input="read a.txt", expected_patterns=["hello"])], runner,
                        EvalOptions(cwd=src), corpus_factory=Corpus)
    assert res[0].passed, res[0].failure
    assert (src / "a.txt").read_text() == "hello\n"
    assert not seen[0].exists()  # the copy is removed afterwards


def test_detects_modification_of_the_original(tmp_path):
    src = tmp_path / "repo"
    src.mkdir()
    (src / "a.txt").write_text("x")

    def rogue(goal, *, cwd, **kw):
        (src / "a.txt").write_text("escaped the sandbox")
        return make_result("x")

    res = run_scenarios([Scenario(id="x", input="q")], rogue, EvalOptions(cwd=src), corpus_factory=Corpus)
    assert not res[0].passed and "was modified" in res[0].error


def test_runner_exception_is_recorded_and_others_still_run(tmp_path):
    calls = []

    def runner(goal, **kw):
        calls.append(goal)
        if goal == "boom":
            raise RuntimeError("engine crashed")
        return make_result("ok")

    scen = [Scenario(id="a", input="boom"), Scenario(id="b", input="fine", expected_patterns=["ok"])]
    res = run_scenarios(scen, runner, EvalOptions(cwd=tmp_path), corpus_factory=Corpus)
    assert calls == ["boom", "fine"]
    assert not res[0].passed and "engine crashed" in res[0].error and res[0].stop_reason == "harness_error"
    assert res[1].passed


@pytest.mark.parametrize("mode, distinct", [("fresh", 4), ("keep", 1)])
def test_corpus_modes(tmp_path, mode, distinct):
    corpora = []

    def runner(goal, *, corpus, **kw):
        corpus.events.append(goal)
        corpora.append(corpus)
        return make_result("ok")

    scen = [Scenario(id="a", input="one"), Scenario(id="b", input="two")]
    res = run_scenarios(scen, runner, EvalOptions(cwd=tmp_path, repeat=2, corpus=mode), corpus_factory=Corpus)
    assert [(r.id, r.run) for r in res] == [("a", 1), ("a", 2), ("b", 1), ("b", 2)]
    assert len({id(c) for c in corpora}) == distinct
    if mode == "keep":
        assert corpora[-1].events == ["one", "one", "two", "two"]


def test_passes_strategy_model_and_setup(tmp_path):
    got = {}

    def runner(goal, *, cwd, strategy, model, **kw):
        got.update(strategy=strategy, model=model, marker=(cwd / "made.txt").read_text())
        return make_result("done")

    scen = Scenario(id="s", input="q", setup=lambda w: (w / "made.txt").write_text("by setup"))
    run_scenarios([scen], runner, EvalOptions(cwd=None, strategy="s0", model="m.gguf"), corpus_factory=Corpus)
    assert got == {"strategy": "s0", "model": "m.gguf", "marker": "by setup"}


def test_bad_options_rejected(tmp_path):
    with pytest.raises(ValueError, match="corpus mode"):
        run_scenarios([], lambda *a, **k: None, EvalOptions(corpus="sometimes"), corpus_factory=Corpus)


def test_missing_cwd_is_a_clear_error(tmp_path):
    res = run_scenarios([Scenario(id="x", input="q")], lambda g, **k: make_result("x"),
                        EvalOptions(cwd=tmp_path / "missing"), corpus_factory=Corpus)
    assert not res[0].passed and "working directory not found" in res[0].error


def test_reports_json_markdown_rich(tmp_path):
    def runner(goal, **kw):
        return make_result("largest .md lines" if "md" in goal else "nope", ["find . | xargs wc -l"])

    scen = [Scenario(id="md", input="md?", expected_patterns=["largest"], category="file_search"),
            Scenario(id="py", input="py?", expected_patterns=["def execute"], category="code_analysis")]
    results = run_scenarios(scen, runner, EvalOptions(cwd=MOCK_REPO), corpus_factory=Corpus)
    report = build_report(results, {"strategy": "graph_v30"})
    out = tmp_path / "r.json"
    write_json(report, out)
    data = json.loads(out.read_text())
    assert [(s["id"], s["passed"]) for s in data["scenarios"]] == [("md", True), ("py", False)]
    for key in ("plan_success_rate", "recovery_rate", "max_reflections_rate", "avg_steps", "bypass_accuracy",
                "pass_rate", "prompt_tokens", "completion_tokens", "wall_time"):
        assert key in data["aggregates"]
    assert data["aggregates"]["pass_rate"] == 0.5
    assert set(data["by_category"]) == {"file_search", "code_analysis"}
    md = to_markdown(report)
    assert "| md | yes |" in md and "| py | no |" in md and "missing patterns: 'def execute'" in md
    from rich.console import Console

    console = Console(record=True, width=200)
    console.print(rich_table(report))
    assert "plan_success_rate" in console.export_text()


def test_record_then_replay_gives_the_same_verdicts(tmp_path):
    from ragix_core.eval.engines import recording_runner, replay_runner

    def live(goal, **kw):
        return make_result("largest .md lines" if "md" in goal else "?", ["find . | xargs wc -l"], reflections=1)

    scen = [Scenario(id="md", input="md?", expected_patterns=["largest"], must_run_commands=["wc"]),
            Scenario(id="py", input="py?", expected_patterns=["execute"])]
    repo = tmp_path / "repo"
    repo.mkdir()  # recordings go outside the working directory (writing into it would be flagged)
    rec = run_scenarios(scen, recording_runner(live, tmp_path / "runs"), EvalOptions(cwd=repo), corpus_factory=Corpus)
    rep = run_scenarios(scen, replay_runner(tmp_path / "runs"), EvalOptions(cwd=repo), corpus_factory=Corpus)
    strip = lambda rs: [(r.id, r.passed, r.steps, r.reflections, r.commands_run, r.prompt_tokens) for r in rs]
    assert strip(rec) == strip(rep) and [r.passed for r in rep] == [True, False]
    # another strategy was not recorded: a clear error, recorded per scenario
    other = run_scenarios(scen[:1], replay_runner(tmp_path / "runs"), EvalOptions(cwd=repo, strategy="s0"),
                          corpus_factory=Corpus)
    assert "no recorded run for strategy s0" in other[0].error


def test_unknown_strategy():
    from ragix_core.eval.engines import EngineUnavailable, get_runner

    with pytest.raises(EngineUnavailable, match="unknown strategy 'graph_v9'"):
        get_runner("graph_v9")


def test_engine_memory_written_into_the_original_is_caught(tmp_path):
    src = tmp_path / "repo"
    src.mkdir()
    (src / "a.txt").write_text("x")

    def leaky(goal, *, cwd, **kw):
        (src / ".ragix").mkdir()
        (src / ".ragix" / "events.jsonl").write_text("{}\n")
        return make_result("x")

    res = run_scenarios([Scenario(id="x", input="q")], leaky, EvalOptions(cwd=src), corpus_factory=Corpus)
    assert not res[0].passed and ".ragix/events.jsonl" in res[0].error


def test_traces_of_two_strategies_are_both_kept(tmp_path):
    src = tmp_path / "repo"
    src.mkdir()
    (src / "a.txt").write_text("hello\n")
    traces = tmp_path / "traces"

    def runner(goal, *, cwd, strategy, **kw):
        trace = cwd / "trace.jsonl"
        trace.write_text(json.dumps({"strategy": strategy}) + "\n")
        return make_result("hello", ["cat a.txt"], trace_path=trace)

    scenario = Scenario(id="x", input="read a.txt", expected_patterns=["hello"])
    kept = [run_scenarios([scenario], runner, EvalOptions(cwd=src, strategy=s, trace_dir=traces),
                          corpus_factory=Corpus)[0].trace_path for s in ("graph_v30", "s0")]
    assert len(set(kept)) == 2
    assert [json.loads(Path(p).read_text())["strategy"] for p in kept] == ["graph_v30", "s0"]


def test_ctrl_c_in_a_run_stops_the_whole_eval(tmp_path):
    """An engine ends a run on Ctrl-C itself (stop_reason user_abort); the eval must stop, not go on."""
    calls = []

    def runner(goal, **kw):
        calls.append(goal)
        return make_result("partial", stop_reason="user_abort")

    with pytest.raises(KeyboardInterrupt):
        run_scenarios([Scenario(id="a", input="first"), Scenario(id="b", input="second")], runner,
                      EvalOptions(cwd=tmp_path), corpus_factory=Corpus)
    assert calls == ["first"]


@pytest.mark.parametrize("given", ["a config", "none"])
def test_evaluation_runs_leave_the_users_global_trace_store_alone(tmp_path, monkeypatch, given):
    # An evaluation's throwaway runs would otherwise fill the user's bounded store (pushing their own sessions
    # out) and be found from their projects as experience.
    from ragix_core.config import RagixConfig

    monkeypatch.setenv("RAGIX_HOME", str(tmp_path / "home"))
    config = RagixConfig() if given == "a config" else None
    assert RagixConfig().memory.global_traces.enabled  # on by default: the harness is what turns it off
    seen = []

    def runner(goal, **kw):
        seen.append(kw["config"])
        return make_result("x")

    run_scenarios([Scenario(id="x", input="q")], runner, EvalOptions(cwd=tmp_path, config=config))
    assert seen and seen[0].memory.global_traces.enabled is False
    if config is not None:
        assert config.memory.global_traces.enabled  # the caller's configuration is not changed


@pytest.mark.parametrize("home", [False, True])
def test_a_scenario_whose_copy_stands_for_home_runs_with_tilde_read_as_it(tmp_path, home):
    from ragix_core.config import RagixConfig

    seen = []

    def runner(goal, **kw):
        seen.append(kw["config"].tools.home)
        return make_result("x")

    config = RagixConfig()
    run_scenarios([Scenario(id="x", input="q", empty_workdir=True, home_is_workdir=home)], runner,
                  EvalOptions(cwd=tmp_path, config=config))
    assert seen == ["project" if home else "refused"]
    assert config.tools.home == "refused"  # the caller's configuration is not changed
