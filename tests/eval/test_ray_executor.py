"""What only the Ray executor does: the command line's checks, an unreachable cluster, a real model loaded once per
worker process (a killed worker and the suite's report are in the conformance suite, with the pool's). The
cluster is real (tests/eval/ray_cluster.py, 2 CPUs on 127.0.0.1)."""

import json
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
