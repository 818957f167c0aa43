"""One conformance suite for every run executor (eval/executor.py): the local one, the local process pool (2
worker processes) and Ray's on a real 2-CPU cluster on loopback (skipped, saying why, without Ray). The runs are
real s0 runs (run_goal, confined tools, the judge) with a scripted model, shipped to the workers like any runner.
A worker killed mid-run is a case for the executors whose runs live in other processes (pool and Ray): the local
executor's worker is this process."""

import json
import os
import platform
import signal
import threading
import time
from pathlib import Path

import pytest

from ragix_core.config import parse_config
from ragix_core.core.provenance import this_commit
from ragix_core.eval.executor import LocalExecutor, RunExecutor, RunJob
from ragix_core.eval.harness import EvalOptions
from ragix_core.eval.suite import SuiteSpec, run_suite
from ragix_core.eval.scenario import Scenario
from ragix_core.eval.workspace import fingerprint
from tests.eval.ray_runners import DiesEveryTime, KilledOnce, RaisesFor, ScriptedS0, fenced, marker

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


def make(name, request, tmp_path, monkeypatch) -> RunExecutor:
    monkeypatch.setenv("RAGIX_HOME", str(tmp_path / "home"))
    if name == "local":
        return LocalExecutor()
    if name == "pool":
        from ragix_core.eval.pool_executor import PoolExecutor

        return PoolExecutor(jobs=2)
    address = request.getfixturevalue("ray_session")
    from ragix_core.eval.ray_executor import RayExecutor

    return RayExecutor(address=address, cpus_per_run=1)


@pytest.fixture(params=["local", "pool", "ray"])
def executor(request, tmp_path, monkeypatch) -> RunExecutor:
    made = make(request.param, request, tmp_path, monkeypatch)
    yield made
    made.close()


@pytest.fixture(params=["pool", "ray"])
def process_executor(request, tmp_path, monkeypatch) -> RunExecutor:
    """An executor whose runs live in worker processes of their own, which a test can kill."""
    made = make(request.param, request, tmp_path, monkeypatch)
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


def kill_when_started(pid_file: Path, killed: list, timeout: float = 120.0) -> threading.Thread:
    """Kill (SIGKILL) the worker process that writes ``pid_file``, as soon as it does."""
    def watch():
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            if pid_file.exists() and pid_file.read_text().strip():
                pid = int(pid_file.read_text())
                os.kill(pid, signal.SIGKILL)
                killed.append(pid)
                return
            time.sleep(0.05)

    thread = threading.Thread(target=watch, daemon=True)
    thread.start()
    return thread


def test_a_worker_killed_mid_run_is_retried_once_and_the_run_is_judged(process_executor, tmp_path):
    runner = KilledOnce(REPLIES, victim=NOTES.input, directory=tmp_path)
    killed = []
    watcher = kill_when_started(marker(tmp_path, NOTES.input, ".pid"), killed)
    streamed = []
    results = process_executor.run(jobs(runner, (GUIDE, 1), (NOTES, 1), (WRONG, 1)), streamed.append)
    watcher.join(5)
    assert len(killed) == 1  # the test really killed the worker running that run
    attempts = marker(tmp_path, NOTES.input, ".attempts").read_text().split()
    assert len(attempts) == 2 and attempts[0] == str(killed[0]) != attempts[1]  # run again, in another process
    assert [(r.id, r.passed) for r in results] == [("guide", True), ("notes", True), ("wrong", False)]
    assert results[1].stop_reason == "success" and not results[1].error
    assert len(streamed) == 3
    assert process_executor.describe()["runs_lost_to_dead_workers"] == 0


def test_a_run_whose_worker_dies_twice_is_a_harness_error_and_nothing_is_lost(process_executor, tmp_path):
    runner = DiesEveryTime(REPLIES, victim=NOTES.input, directory=tmp_path)
    results = process_executor.run(jobs(runner, (GUIDE, 1), (NOTES, 1), (WRONG, 1)))
    assert [r.id for r in results] == ["guide", "notes", "wrong"]
    lost = results[1]
    assert not lost.passed and lost.stop_reason == "harness_error" and lost.strategy == "s0"
    worker = {"pool": "its worker process", "ray": "its Ray worker"}[process_executor.name]
    assert lost.error.startswith(f"{worker} died 2 times (run again once, then given up): "), lost.error
    assert lost.failure == [lost.error]
    assert len(marker(tmp_path, NOTES.input, ".attempts").read_text().split()) == 2  # retried once, no more
    assert results[0].passed and not results[2].passed and results[2].stop_reason != "harness_error"
    assert process_executor.describe()["runs_lost_to_dead_workers"] == 1


def test_the_suites_report_through_it_is_the_local_report(process_executor, tmp_path, monkeypatch):
    monkeypatch.setenv("RAGIX_HOME", str(tmp_path / "home"))
    spec_file = tmp_path / "set.yaml"
    spec_file.write_text(json.dumps([
        {"id": s.id, "input": s.input, "expected_patterns": s.expected_patterns,
         "must_run_commands": s.must_run_commands, "max_steps": 3} for s in (GUIDE, NOTES, WRONG)]))

    def spec():
        return SuiteSpec(sources=[str(spec_file)], strategies=["s0"],
                         options=EvalOptions(cwd=MOCK_REPO, config=NO_TRACES, repeat=2))

    local = run_suite(spec(), runner_factory=lambda s: ScriptedS0(REPLIES), executor=LocalExecutor())
    remote = run_suite(spec(), runner_factory=lambda s: ScriptedS0(REPLIES), executor=process_executor)

    def rows(report):
        return [(r["id"], r["run"], r["passed"], r["stop_reason"], r["steps"], r["commands_run"], r["final_answer"])
                for r in report["scenarios"]]

    assert rows(remote) == rows(local) and len(rows(local)) == 6
    assert remote["aggregates"]["pass_rate"] == local["aggregates"]["pass_rate"] == pytest.approx(4 / 6, abs=1e-4)
    assert set(remote) == set(local) and set(remote["meta"]) == set(local["meta"])
    assert remote["meta"]["executor"]["name"] == process_executor.name and local["meta"]["executor"]["name"] == "local"
    assert remote["meta"]["commit"] == local["meta"]["commit"] != ""
    assert remote["meta"]["executor"]["runs"] == 6
