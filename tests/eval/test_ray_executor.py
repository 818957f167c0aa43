"""What only the Ray executor does: a worker killed mid-run (the run is retried once, then reported as a harness
error, never lost), the whole suite's report through Ray equal to the local one, and the command line's checks.
The cluster is real (tests/eval/ray_cluster.py, 2 CPUs on 127.0.0.1); the model is scripted."""

import json
import os
import signal
import threading
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from ragix_core.cli import app
from ragix_core.eval.executor import LocalExecutor, RunJob
from ragix_core.eval.harness import EvalOptions
from ragix_core.eval.suite import SuiteSpec, run_suite
from tests.eval.ray_runners import DiesEveryTime, KilledOnce, ScriptedS0, marker
from tests.eval.test_executor_conformance import GUIDE, MOCK_REPO, NO_TRACES, NOTES, REPLIES, WRONG

pytest.importorskip("ray", reason="Ray is not installed: pip install 'ragix[ray]' (the dev extra has it)")


@pytest.fixture()
def ray_executor(ray_session, tmp_path, monkeypatch):
    from ragix_core.eval.ray_executor import RayExecutor

    monkeypatch.setenv("RAGIX_HOME", str(tmp_path / "home"))
    made = RayExecutor(address=ray_session, cpus_per_run=1)
    yield made
    made.close()


def s0_jobs(runner, *scenarios):
    return [RunJob(s, 1, runner, EvalOptions(cwd=MOCK_REPO, strategy="s0", config=NO_TRACES)) for s in scenarios]


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


def test_a_worker_killed_mid_run_is_retried_once_and_the_run_is_judged(ray_executor, tmp_path):
    runner = KilledOnce(REPLIES, victim=NOTES.input, directory=tmp_path)
    killed = []
    watcher = kill_when_started(marker(tmp_path, NOTES.input, ".pid"), killed)
    streamed = []
    results = ray_executor.run(s0_jobs(runner, GUIDE, NOTES, WRONG), streamed.append)
    watcher.join(5)
    assert len(killed) == 1  # the test really killed the worker running that run
    attempts = marker(tmp_path, NOTES.input, ".attempts").read_text().split()
    assert len(attempts) == 2 and attempts[0] == str(killed[0]) != attempts[1]  # run again, in another process
    assert [(r.id, r.passed) for r in results] == [("guide", True), ("notes", True), ("wrong", False)]
    assert results[1].stop_reason == "success" and not results[1].error
    assert len(streamed) == 3
    assert ray_executor.describe()["runs_lost_to_dead_workers"] == 0


def test_a_run_whose_worker_dies_twice_is_a_harness_error_and_nothing_is_lost(ray_executor, tmp_path):
    runner = DiesEveryTime(REPLIES, victim=NOTES.input, directory=tmp_path)
    results = ray_executor.run(s0_jobs(runner, GUIDE, NOTES, WRONG))
    assert [r.id for r in results] == ["guide", "notes", "wrong"]
    lost = results[1]
    assert not lost.passed and lost.stop_reason == "harness_error" and lost.strategy == "s0"
    assert lost.error.startswith("its Ray worker died 2 times (run again once, then given up): ")
    assert lost.failure == [lost.error]
    assert len(marker(tmp_path, NOTES.input, ".attempts").read_text().split()) == 2  # retried once, no more
    assert results[0].passed and not results[2].passed and results[2].stop_reason != "harness_error"
    assert ray_executor.describe()["runs_lost_to_dead_workers"] == 1


def test_the_suites_report_through_ray_is_the_local_report(ray_executor, tmp_path, monkeypatch):
    monkeypatch.setenv("RAGIX_HOME", str(tmp_path / "home"))
    spec_file = tmp_path / "set.yaml"
    spec_file.write_text(json.dumps([
        {"id": s.id, "input": s.input, "expected_patterns": s.expected_patterns,
         "must_run_commands": s.must_run_commands, "max_steps": 3} for s in (GUIDE, NOTES, WRONG)]))

    def spec():
        return SuiteSpec(sources=[str(spec_file)], strategies=["s0"],
                         options=EvalOptions(cwd=MOCK_REPO, config=NO_TRACES, repeat=2))

    local = run_suite(spec(), runner_factory=lambda s: ScriptedS0(REPLIES), executor=LocalExecutor())
    remote = run_suite(spec(), runner_factory=lambda s: ScriptedS0(REPLIES), executor=ray_executor)

    def rows(report):
        return [(r["id"], r["run"], r["passed"], r["stop_reason"], r["steps"], r["commands_run"], r["final_answer"])
                for r in report["scenarios"]]

    assert rows(remote) == rows(local) and len(rows(local)) == 6
    assert remote["aggregates"]["pass_rate"] == local["aggregates"]["pass_rate"] == pytest.approx(4 / 6, abs=1e-4)
    assert set(remote) == set(local) and set(remote["meta"]) == set(local["meta"])
    assert remote["meta"]["executor"]["name"] == "ray" and local["meta"]["executor"]["name"] == "local"
    assert remote["meta"]["commit"] == local["meta"]["commit"] != ""
    assert remote["meta"]["executor"]["runs"] == 6


def eval_cli(*args):
    return CliRunner().invoke(app, ["eval", str(MOCK_REPO.parent.parent / "scenarios" / "absence.yaml"), *args])


@pytest.mark.parametrize("args, message", [
    (["--executor", "ray", "--corpus", "keep"], "--corpus keep shares one corpus between runs in order"),
    (["--executor", "ray", "--replay", "x"], "--replay runs no model"),
    (["--executor", "ray", "--record", "x"], "--record writes the runs on this machine"),
    (["--address", "127.0.0.1:1"], "--address names a Ray cluster: it needs --executor ray"),
    (["--executor", "dask"], "--executor must be one of local, ray, got 'dask'"),
    (["--executor", "ray", "--cpus-per-run", "0"], "--cpus-per-run must be > 0"),
])
def test_the_command_line_refuses_what_ray_cannot_run_before_starting_anything(args, message):
    result = eval_cli(*args)
    assert result.exit_code == 2, result.output
    assert message in " ".join(result.output.split()) and "Traceback" not in result.output


def test_an_address_where_no_cluster_answers_is_an_error_within_seconds():
    from tests.eval.ray_cluster import free_port

    started = time.monotonic()
    result = eval_cli("--executor", "ray", "--address", f"127.0.0.1:{free_port()}")
    assert result.exit_code == 2, result.output
    assert "no Ray cluster answers at 127.0.0.1:" in " ".join(result.output.split())
    assert time.monotonic() - started < 60  # Ray alone would wait for minutes


@pytest.mark.slow
def test_the_command_line_on_ray_with_a_real_model_loads_it_once_per_worker_process(ray_session, tmp_path,
                                                                                      monkeypatch):
    pytest.importorskip("xllamacpp")
    monkeypatch.setenv("RAGIX_HOME", str(tmp_path / "home"))
    out = tmp_path / "report.json"
    result = CliRunner().invoke(app, [
        "eval", str(MOCK_REPO.parent.parent / "scenarios" / "file_search.yaml"), "--only", "config-port",
        "--only", "grep-pattern", "--strategy", "s0", "--model", "smollm2-135m", "--repeat", "2",
        "--executor", "ray", "--address", ray_session, "--json", str(out)])
    assert result.exit_code == 0, result.output
    report = json.loads(out.read_text())
    rows = report["scenarios"]
    assert len(rows) == 4 and all(r["error"] is None and r["llm_calls"] >= 1 for r in rows), rows
    executor = report["meta"]["executor"]
    assert executor["name"] == "ray" and executor["runs"] == len(rows)
    # 2 CPUs, 1 per run: at most 2 worker processes, each loaded the model for its first run only
    assert 1 <= executor["worker_processes"] <= 2 and executor["model_loads"] == executor["worker_processes"]
    assert {r["host"] for r in rows} == set(executor["hosts"]) and report["meta"]["commit"]


LISTENING_PROBE = r"""
import socket, struct, sys
def listening():
    found = set()
    for name, width in (("tcp", 8), ("tcp6", 32)):
        try:
            rows = open(f"/proc/net/{name}").read().splitlines()[1:]
        except OSError:
            continue
        for row in rows:
            local, state = row.split()[1], row.split()[3]
            if state != "0A":
                continue
            addr, port = local.split(":")
            raw = bytes.fromhex(addr)
            if width == 8:
                ip = socket.inet_ntop(socket.AF_INET, raw[::-1])
            else:
                ip = socket.inet_ntop(socket.AF_INET6, b"".join(raw[i:i + 4][::-1] for i in range(0, 16, 4)))
            found.add((ip, int(port, 16)))
    return found
before = listening()
from ragix_core.eval.ray_executor import RayExecutor
ex = RayExecutor(cpus_per_run=1)
after = listening()
ex.close()
for ip, port in sorted(after - before):
    print(ip, port)
"""


@pytest.mark.slow  # starts a Ray head of its own (tens of seconds on two busy cores)
def test_without_an_address_the_head_ragix_starts_listens_on_loopback_only(tmp_path):
    import subprocess
    import sys

    env = {k: v for k, v in os.environ.items() if not k.startswith("RAY_")}
    env.update(HOME=str(tmp_path), RAY_USAGE_STATS_ENABLED="0")
    done = subprocess.run([sys.executable, "-c", LISTENING_PROBE], env=env, capture_output=True, text=True,
                          timeout=300, cwd=str(tmp_path))
    assert done.returncode == 0, done.stderr[-2000:]
    opened = [line.split()[0] for line in done.stdout.splitlines() if line.strip()]
    assert opened, "the probe saw no listener open: it tests nothing"
    loopback = ("127.", "::1", "::ffff:127.")
    assert [ip for ip in opened if not ip.startswith(loopback)] == [], done.stdout


def test_a_head_that_would_listen_on_the_network_is_refused_before_it_starts(tmp_path):
    import subprocess
    import sys

    env = {k: v for k, v in os.environ.items() if not k.startswith("RAY_")}
    env.update(HOME=str(tmp_path), RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER="1")  # single-machine mode switched off
    probe = ("from ragix_core.eval.executor import ExecutorError\n"
             "from ragix_core.eval.ray_executor import RayExecutor\n"
             "try:\n    RayExecutor(cpus_per_run=1)\nexcept ExecutorError as e:\n    print(e)\n"
             "else:\n    print('STARTED')\n")
    done = subprocess.run([sys.executable, "-c", probe], env=env, capture_output=True, text=True, timeout=120,
                          cwd=str(tmp_path))
    assert "would listen on the" in done.stdout and "STARTED" not in done.stdout, done.stdout + done.stderr[-1000:]
