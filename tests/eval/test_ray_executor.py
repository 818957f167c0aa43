"""What only the Ray executor does: the command line's checks, an unreachable cluster, a real model loaded once per
worker process (a killed worker and the suite's report are in the conformance suite, with the pool's). The
cluster is real (tests/eval/ray_cluster.py, 2 CPUs on 127.0.0.1)."""

import json
import os
import time

import pytest
from typer.testing import CliRunner

from ragix_core.cli import app
from tests.eval.test_executor_conformance import MOCK_REPO
from tests.eval.test_pool_executor import eval_cli

pytest.importorskip("ray", reason="Ray is not installed: pip install 'ragix[ray]' (the dev extra has it)")


@pytest.mark.parametrize("args, message", [
    (["--executor", "ray", "--corpus", "keep"], "--corpus keep shares one corpus between runs in order, in this "
                                                "process: not with --executor ray"),
    (["--executor", "ray", "--replay", "x"], "--replay runs no model"),
    (["--executor", "ray", "--record", "x"], "--record writes each run from this process, where it ran: not with "
                                             "--executor ray"),
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
