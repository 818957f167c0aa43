"""The throwaway PostgreSQL cluster the PostgreSQL store's tests run against (ragix_core/memory/throwaway_pg.py)."""

from __future__ import annotations

import socket

import pytest

from ragix_core.memory import throwaway_pg
from ragix_core.memory.throwaway_pg import ThrowawayCluster, find_bindir


def test_a_port_taken_between_the_probe_and_the_bind_is_replaced_by_another(monkeypatch):
    # What two clusters starting at once (parallel test workers) can do to each other.
    if find_bindir() is None:
        pytest.skip("PostgreSQL server binaries (initdb, pg_ctl) not found: install postgresql or set RAGIX_PG_BINDIR")
    taken = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    taken.bind(("127.0.0.1", 0))
    taken.listen()
    ports = [taken.getsockname()[1]]
    real = throwaway_pg._free_port
    monkeypatch.setattr(throwaway_pg, "_free_port", lambda: ports.pop(0) if ports else real())
    cluster = ThrowawayCluster(settings={"fsync": "off"})
    try:
        cluster.start()
        assert cluster.port != taken.getsockname()[1] and not ports
        import psycopg

        with psycopg.connect(cluster.dsn) as conn:
            assert conn.execute("SELECT 1").fetchone() == (1,)
    finally:
        cluster.stop()
        taken.close()
