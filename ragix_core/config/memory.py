"""The `memory:` section of ragix.yaml: where the experience corpus is stored.

Read from the user's own config only ($RAGIX_HOME/ragix.yaml or ``--config``):
a DSN sends every lesson a run learns (goals, errors, commands) to a database,
so a project's ragix.yaml, trusted or not, never sets it (config/__init__.py).

``backend: local`` (default) keeps both corpora as JSONL + SQLite files;
``backend: postgres`` puts the global corpus in PostgreSQL at ``postgres.dsn``.
The project corpus stays local unless ``postgres.project_corpus`` names one.

``global_traces`` says whether every run's trace is also written to the global trace store of
spec 000 §5.1 (``$RAGIX_HOME/experience/traces/{session}.jsonl``, memory/global_traces.py), and how
many sessions it keeps: writes into the user's home are the user's decision alone.
"""

from __future__ import annotations

from typing import Literal, Optional

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

__all__ = ["MemorySection", "PostgresSection", "GlobalTracesSection"]


class _Section(BaseModel):
    model_config = ConfigDict(extra="forbid", validate_assignment=True)


class PostgresSection(_Section):
    # libpq connection string or URI. Keep the password out of it: libpq reads ~/.pgpass and PGPASSWORD.
    dsn: Optional[str] = None
    pool_size: int = Field(4, ge=1, le=64)  # connections per process
    connect_timeout: float = Field(10.0, gt=0, le=300)
    global_corpus: str = Field("global", min_length=1, max_length=200)  # the shared corpus's name in the database
    # None: the project corpus stays in <project>/.ragix. A name (``{project}`` = the project directory's name)
    # puts it in the database too, shared by every machine that opens a project of that name.
    project_corpus: Optional[str] = Field(None, min_length=1, max_length=200)

    @field_validator("dsn")
    @classmethod
    def _parsable(cls, dsn: Optional[str]) -> Optional[str]:
        if dsn is None:
            return dsn
        try:
            from psycopg.conninfo import conninfo_to_dict
        except ImportError:
            return dsn  # checked when the store opens, with the install hint
        try:
            conninfo_to_dict(dsn)
        except Exception as exc:  # psycopg.ProgrammingError names what is wrong
            raise ValueError(f"not a PostgreSQL connection string: {exc}") from None
        return dsn


class GlobalTracesSection(_Section):
    enabled: bool = True  # spec 000 §5.1's layout has the global store; false: traces stay in the project only
    # The oldest session files beyond this many are removed when a run opens the store (one file per run,
    # each at most reasoning.traces.max_per_session lines): the store cannot grow without bound.
    max_sessions: int = Field(2000, ge=1, le=1_000_000)


class MemorySection(_Section):
    backend: Literal["local", "postgres"] = "local"
    postgres: PostgresSection = Field(default_factory=PostgresSection)
    global_traces: GlobalTracesSection = Field(default_factory=GlobalTracesSection)

    @model_validator(mode="after")
    def _dsn_needed(self) -> "MemorySection":
        if self.backend == "postgres" and not self.postgres.dsn:
            raise ValueError("backend postgres needs memory.postgres.dsn (a libpq connection string)")
        return self
