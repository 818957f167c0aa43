"""Fixtures of the corpus-store conformance suite: every test runs on every store.

The PostgreSQL store runs against a throwaway cluster started here (initdb in a
temporary directory, a loopback port) and stopped at the end of the session;
its tests skip, saying why, only when the server binaries are absent.
"""

from __future__ import annotations

import itertools

import pytest

from ragix_core.memory.throwaway_pg import ThrowawayCluster, find_bindir

from .backends import LocalBackend, PostgresBackend

NO_POSTGRES = "PostgreSQL server binaries (initdb, pg_ctl) not found: install postgresql or set RAGIX_PG_BINDIR"
_databases = itertools.count()


@pytest.fixture(scope="session")
def pg_cluster():
    if find_bindir() is None:
        pytest.skip(NO_POSTGRES)
    # No fsync: nothing here tests a server crash (writers are killed, the server is stopped cleanly),
    # and 10,000 one-event transactions would otherwise wait on the disk the other developers share.
    cluster = ThrowawayCluster(settings={"fsync": "off", "synchronous_commit": "off"}).start()
    try:
        yield cluster
    finally:
        cluster.stop()


@pytest.fixture
def postgres_backend(pg_cluster):
    return PostgresBackend(pg_cluster, f"conformance{next(_databases)}")


@pytest.fixture
def local_backend(tmp_path):
    return LocalBackend(tmp_path)


@pytest.fixture(params=["local", "postgres"])
def backend(request):
    """Each store kind in turn (the conformance suite's parametrization)."""
    return request.getfixturevalue(f"{request.param}_backend")
