"""Which store holds each corpus: ``reasoning.experience`` (roots, ages) and the user's ``memory`` section.

The global corpus follows ``memory.backend``; the project corpus stays a local
JSONL under the project unless ``memory.postgres.project_corpus`` names a
corpus in the database (its ``{project}`` is replaced by the project
directory's name, so machines that clone a project under the same name share it).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, List, Optional, Tuple

from ragix_core.memory.store import CorpusStore

__all__ = ["open_stores", "local_roots", "postgres_store", "project_corpus_name", "migration_pairs"]


def local_roots(section: Any, project_dir: Path) -> Tuple[Path, Path]:
    """(project root, global root) of the local stores; "~/.ragix" means ``ragix_home()``."""
    from ragix_core.core.home import ragix_home

    g = str(getattr(section, "global_root", "~/.ragix"))
    global_root = ragix_home() if g.rstrip("/") in ("~/.ragix", "") else Path(g).expanduser()
    p = Path(str(getattr(section, "project_root", ".ragix"))).expanduser()
    return (p if p.is_absolute() else Path(project_dir) / p), global_root


def postgres_store(memory: Any, corpus: str, name: str, max_age_days: int) -> CorpusStore:
    from ragix_core.memory.postgres_store import PostgresCorpus

    pg = memory.postgres
    return PostgresCorpus(pg.dsn, corpus=corpus, name=name, max_age_days=max_age_days, pool_size=pg.pool_size,
                          connect_timeout=pg.connect_timeout)


def project_corpus_name(memory: Any, project_dir: Path) -> Optional[str]:
    """The project corpus's name in the database, or None when it stays local."""
    name = memory.postgres.project_corpus
    return name.replace("{project}", project_dir.resolve().name) if name else None


def migration_pairs(section: Any, memory: Any, project_dir: Path) -> List[Tuple[CorpusStore, CorpusStore]]:
    """(local store, PostgreSQL store) for each corpus the database can hold: the global one, and the
    project one when ``memory.postgres.project_corpus`` names it. Needs ``memory.postgres.dsn``."""
    from ragix_core.memory.local_store import ExperienceCorpus

    if not memory.postgres.dsn:
        raise ValueError("memory.postgres.dsn is not set in your own ragix.yaml ($RAGIX_HOME/ragix.yaml): "
                         "there is no database to migrate to or from")
    project_root, global_root = local_roots(section, project_dir)
    g_age = int(getattr(section, "global_max_age_days", 90))
    p_age = int(getattr(section, "project_max_age_days", 30))
    pairs = [(ExperienceCorpus(global_root, g_age, "global", create=False),
              postgres_store(memory, memory.postgres.global_corpus, "global", g_age))]
    project_name = project_corpus_name(memory, project_dir)
    if project_name:
        pairs.append((ExperienceCorpus(project_root, p_age, "project", create=False),
                      postgres_store(memory, project_name, "project", p_age)))
    return pairs


def open_stores(section: Any, memory: Any, project_dir: Path, *, create: bool = True) -> Tuple[CorpusStore, CorpusStore]:
    """(project store, global store) as configured; ``memory`` None means both local."""
    from ragix_core.memory.local_store import ExperienceCorpus

    project_root, global_root = local_roots(section, project_dir)
    g_age = int(getattr(section, "global_max_age_days", 90))
    p_age = int(getattr(section, "project_max_age_days", 30))
    postgres = memory is not None and memory.backend == "postgres"
    if postgres:
        global_store = postgres_store(memory, memory.postgres.global_corpus, "global", g_age)
    else:
        global_store = ExperienceCorpus(global_root, g_age, "global", create=create)
    project_name = project_corpus_name(memory, project_dir) if postgres else None
    if project_name:
        project_store = postgres_store(memory, project_name, "project", p_age)
    else:
        project_store = ExperienceCorpus(project_root, p_age, "project", create=create)
    return project_store, global_store
