"""Fixtures shared by the benchmark adapters' tests."""

from __future__ import annotations

import os

import pytest

# Ray decides at import whether a node may have a loopback address (RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER=0: yes);
# the test cluster is on 127.0.0.1, so this process must say so before anything imports ray.
os.environ.setdefault("RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER", "0")
os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")


@pytest.fixture()
def no_bench_data(tmp_path, monkeypatch):
    """No downloaded benchmark data anywhere: $RAGIX_BENCH_DIR, ./.bench and the checkout's .bench are empty."""
    import ragix_core.eval.benchmarks.data as data  # where the checkout's .bench is found

    monkeypatch.setenv("RAGIX_BENCH_DIR", str(tmp_path))
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(data, "__file__", str(tmp_path / "a" / "b" / "c" / "d.py"))


@pytest.fixture(scope="session")
def ray_session(tmp_path_factory):
    """A throwaway 2-CPU Ray cluster on 127.0.0.1 (tests/eval/ray_cluster.py) and this process connected to it
    (executors made in the tests join it, and leave it running for the next test). Yields its address."""
    ray = pytest.importorskip("ray", reason="Ray is not installed: pip install 'ragix[ray]' (the dev extra has it)")
    from tests.eval.ray_cluster import LOOPBACK_ENV, RayCluster

    home = tmp_path_factory.mktemp("ray-ragix-home")
    with pytest.MonkeyPatch.context() as mp:
        for key, value in LOOPBACK_ENV.items():
            mp.setenv(key, value)
        if ray._private.ray_constants.ENABLE_RAY_CLUSTER:  # ray was imported before this conftest set it
            pytest.skip("ray was imported before tests/eval/conftest.py allowed a loopback cluster")
        cluster = RayCluster(num_cpus=2, env={"RAGIX_HOME": str(home)}).start()
        try:
            ray.init(address=cluster.address, log_to_driver=False, logging_level="WARNING")
            yield cluster.address
        finally:
            if ray.is_initialized():
                ray.shutdown()
            cluster.stop()
