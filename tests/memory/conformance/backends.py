"""The stores under test, opened the same way in the test process and in writer processes.

A ``spec`` is a plain dict (picklable): writer processes started with ``spawn``
open their own store from it, as separate ragix processes would.
"""

from __future__ import annotations

import itertools
from pathlib import Path
from typing import Any, Dict, Optional

from ragix_core.memory.store import CorpusStore

_names = itertools.count()


def open_spec(spec: Dict[str, Any]) -> CorpusStore:
    if spec["kind"] == "local":
        from ragix_core.memory.experience import ExperienceCorpus

        return ExperienceCorpus(Path(spec["root"]), spec["max_age_days"], spec["name"])
    from ragix_core.memory.postgres_store import PostgresCorpus

    return PostgresCorpus(spec["dsn"], corpus=spec["corpus"], name=spec["name"], max_age_days=spec["max_age_days"])


class LocalBackend:
    kind = "local"

    def __init__(self, tmp: Path) -> None:
        self.tmp = tmp

    def spec(self, key: Optional[str] = None, max_age_days: int = 90, name: str = "global") -> Dict[str, Any]:
        key = key or f"c{next(_names)}"
        return {"kind": "local", "root": str(self.tmp / key), "max_age_days": max_age_days, "name": name}

    def restart(self) -> None:
        """Nothing runs between uses of a local store: a restart is reopening the files."""


class PostgresBackend:
    kind = "postgres"

    def __init__(self, cluster: Any, database: str) -> None:
        self.cluster = cluster
        self.dsn = cluster.create_database(database)

    def spec(self, key: Optional[str] = None, max_age_days: int = 90, name: str = "global") -> Dict[str, Any]:
        return {"kind": "postgres", "dsn": self.dsn, "corpus": key or f"c{next(_names)}",
                "max_age_days": max_age_days, "name": name}

    def restart(self) -> None:
        self.cluster.restart()


def open_new(backend: Any, **kw: Any) -> CorpusStore:
    return open_spec(backend.spec(**kw))
