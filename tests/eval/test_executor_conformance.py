"""One conformance suite for every run executor (eval/executor.py): the local one and Ray's on a real 2-CPU
cluster on loopback (skipped, saying why, without Ray). The runs are real s0 runs (run_goal, confined tools, the
judge) with a scripted model, shipped to the Ray workers like any runner."""

import json
import platform
import threading
from pathlib import Path

import pytest

from ragix_core.config import parse_config
from ragix_core.core.provenance import this_commit
from ragix_core.eval.executor import EXECUTORS, LocalExecutor, RunExecutor, RunJob
from ragix_core.eval.harness import EvalOptions
from ragix_core.eval.scenario import Scenario
from ragix_core.eval.workspace import fingerprint
from tests.eval.ray_runners import RaisesFor, ScriptedS0, fenced

MOCK_REPO = Path(__file__).resolve().parents[1] / "reasoning_v30" / "fixtures" / "mock_repo"
NO_TRACES = parse_config({"reasoning": {"traces": {"enabled": False}}})
REPLIES = {
    "How many lines are in docs/guide.md?": [fenced("wc -l docs/guide.md"), "docs/guide.md has 120 lines"],
    "How many lines are in docs/notes.md?": [fenced("wc -l docs/notes.md"), "docs/notes.md has 6 lines"],
    "Which file is the changelog?": [fenced("ls"), "It is README.md"],  # wrong: judged a failure
    "How many lines are in data.txt?": [fenced("wc -l data.txt"), "data.txt has 3 lines"],
}
GUIDE = Scenario(id="guide", input="How many lines are in docs/guide.md?", expected_patterns=["120"],
                 must_run_commands=["wc"], max_steps=3, category="t")
NOTES = Scenario(id="notes", input="How many lines are in docs/notes.md?", expected_patterns=["6"],
                 must_run_commands=["wc"], max_steps=3, category="t")
WRONG = Scenario(id="wrong", input="Which file is the changelog?", expected_patterns=["CHANGELOG.md"],
                 max_steps=3, category="t")


@pytest.fixture(params=EXECUTORS)
def executor(request, tmp_path, monkeypatch) -> RunExecutor:
    monkeypatch.setenv("RAGIX_HOME", str(tmp_path / "home"))
    if request.param == "local":
        made = LocalExecutor()
    else:
        address = request.getfixturevalue("ray_session")
        from ragix_core.eval.ray_executor import RayExecutor

        made = RayExecutor(address=address, cpus_per_run=1)
    yield made
    made.close()


def jobs(runner, *scenario_runs, config=NO_TRACES, **opts):
    return [RunJob(s, run, runner, EvalOptions(cwd=MOCK_REPO, strategy="s0", config=config, **opts))
            for s, run in scenario_runs]


def test_one_result_per_job_in_job_order_each_streamed_as_it_finishes(executor):
    streamed, lock = [], threading.Lock()

    def on_result(res):
        with lock:
            streamed.append((res.id, res.run))

    todo = jobs(ScriptedS0(REPLIES), (GUIDE, 1), (NOTES, 1), (WRONG, 1), (GUIDE, 2))
    results = executor.run(todo, on_result)
    assert [(r.id, r.run) for r in results] == [("guide", 1), ("notes", 1), ("wrong", 1), ("guide", 2)]
    assert sorted(streamed) == sorted((r.id, r.run) for r in results)  # each once, whatever the order
    assert [r.passed for r in results] == [True, True, False, True], [r.failure for r in results]
    assert results[2].failure and "CHANGELOG.md" in results[2].failure[0]  # judged, not a harness error
    assert results[0].stop_reason == "success" and results[0].commands_run[0].split()[-1] == "docs/guide.md"
    assert {r.strategy for r in results} == {"s0"}
    # the machine and the code that ran each run (one machine here, the cluster is on loopback)
    assert {(r.host, r.commit) for r in results} == {(platform.node(), this_commit())}
    described = executor.describe()
    assert described["name"] == executor.name and described["runs"] == 4
    assert described["hosts"] == [platform.node()] and 1 <= described["worker_processes"] <= 2
    json.dumps(described)  # it goes into the JSON report


def test_a_runner_that_raises_is_that_runs_harness_error_and_the_others_run(executor):
    runner = RaisesFor(REPLIES, broken_goal=NOTES.input)
    results = executor.run(jobs(runner, (GUIDE, 1), (NOTES, 1), (GUIDE, 2)))
    assert [r.passed for r in results] == [True, False, True]
    broken = results[1]
    assert broken.stop_reason == "harness_error" and broken.id == "notes"
    assert broken.error == "runner raised RuntimeError: the engine broke"


def test_the_run_works_in_a_copy_of_its_directory_which_stays_untouched(executor, tmp_path):
    project = tmp_path / "project"
    project.mkdir()
    (project / "data.txt").write_text("a\nb\nc\n")
    (project / ".git").mkdir()
    (project / ".git" / "HEAD").write_text("ref: refs/heads/main\n")  # never copied to a run
    before = fingerprint(project)
    scenario = Scenario(id="data", input="How many lines are in data.txt?", expected_patterns=["3"],
                        must_run_commands=["wc"], max_steps=3, cwd=project)
    [res] = executor.run(jobs(ScriptedS0(REPLIES), (scenario, 1)))
    assert res.passed, res.failure
    assert fingerprint(project) == before


def test_a_kept_trace_is_written_in_the_trace_dir_of_the_machine_that_asked(executor, tmp_path):
    traced = parse_config({"reasoning": {"traces": {"enabled": True}}})
    trace_dir = tmp_path / "traces"
    [res] = executor.run(jobs(ScriptedS0(REPLIES), (NOTES, 2), config=traced, trace_dir=trace_dir))
    assert res.passed, res.failure
    path = Path(res.trace_path)
    assert path.parent == trace_dir and path.name.startswith("s0-notes-2")
    events = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    assert any("wc" in json.dumps(e) for e in events)  # the run's own trace, with its tool call
