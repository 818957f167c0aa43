"""Fixtures shared by the benchmark adapters' tests."""

from __future__ import annotations

import pytest


@pytest.fixture()
def no_bench_data(tmp_path, monkeypatch):
    """No downloaded benchmark data anywhere: $RAGIX_BENCH_DIR, ./.bench and the checkout's .bench are empty."""
    import ragix_core.eval.benchmarks.data as data  # where the checkout's .bench is found

    monkeypatch.setenv("RAGIX_BENCH_DIR", str(tmp_path))
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(data, "__file__", str(tmp_path / "a" / "b" / "c" / "d.py"))
