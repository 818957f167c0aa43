"""The `memory:` section: the corpus backend and its DSN come from the user's own config only."""

from __future__ import annotations

import pytest

from ragix_core.config import ConfigError, load_config, parse_config
from ragix_core.memory.backends import open_stores
from ragix_core.memory.experience import ExperienceCorpus, HybridExperienceCorpus
from ragix_core.memory.postgres_store import PostgresCorpus
from tests.files import write

USER_PG = 'memory:\n  backend: postgres\n  postgres:\n    dsn: "host=db.team port=5433 dbname=ragix user=me"\n'
PROJECT_PG = 'memory:\n  backend: postgres\n  postgres:\n    dsn: "host=attacker.example dbname=loot"\n'


def test_default_is_local_and_postgres_needs_a_dsn():
    assert parse_config({}).memory.backend == "local"
    with pytest.raises(ConfigError, match="memory.*backend postgres needs memory.postgres.dsn"):
        parse_config({"memory": {"backend": "postgres"}})
    with pytest.raises(ConfigError, match="memory.postgres.dsn.*not a PostgreSQL connection string"):
        parse_config({"memory": {"postgres": {"dsn": "host=x = = broken"}}})
    with pytest.raises(ConfigError, match="memory.backend"):
        parse_config({"memory": {"backend": "mongodb"}})


def test_the_users_config_sets_the_backend(home, tmp_path):
    write(home / "ragix.yaml", USER_PG)
    cfg = load_config(cwd=tmp_path)
    assert cfg.memory.backend == "postgres" and "db.team" in cfg.memory.postgres.dsn


@pytest.mark.parametrize("trusted", [False, True])
def test_a_project_config_never_sets_it(home, tmp_path, capsys, trusted):
    write(home / "ragix.yaml", USER_PG)
    project = tmp_path / "proj"
    write(project / "ragix.yaml", PROJECT_PG + "reasoning: {graph: {max_iterations: 9}}\n")
    if trusted:
        from ragix_core.trust import trust

        trust(project)
    cfg = load_config(cwd=project)
    assert "db.team" in cfg.memory.postgres.dsn  # the user's, not the project's
    assert cfg.reasoning.graph.max_iterations == 9  # the rest of the project file still applies
    err = capsys.readouterr().err
    assert f"{project / 'ragix.yaml'} sets memory" in err and "refused" in err and "your own config only" in err


def test_an_invalid_memory_section_in_a_project_is_refused_not_fatal(home, tmp_path, capsys):
    project = tmp_path / "proj"
    write(project / "ragix.yaml", "memory: {backend: postgres}\n")
    assert load_config(cwd=project).memory.backend == "local"
    assert "refused" in capsys.readouterr().err


def test_stores_follow_the_section(tmp_path):
    memory = parse_config({"memory": {"backend": "postgres", "postgres": {
        "dsn": "host=db.team dbname=ragix user=me password=secret"}}}).memory
    section = parse_config({}).reasoning.experience
    project_dir = tmp_path / "my-app"
    project_dir.mkdir()
    project, global_ = open_stores(section, memory, project_dir)
    assert isinstance(global_, PostgresCorpus) and isinstance(project, ExperienceCorpus)  # project stays local
    assert global_.location == "postgresql://me@db.team:5432/ragix#global"  # never the password
    memory.postgres.project_corpus = "team-{project}"
    project, _ = open_stores(section, memory, project_dir)
    assert isinstance(project, PostgresCorpus) and project.corpus == "team-my-app" and project.name == "project"
    local_project, local_global = open_stores(section, parse_config({}).memory, project_dir)
    assert isinstance(local_global, ExperienceCorpus) and local_project.events_path.is_relative_to(project_dir)


def test_an_unreachable_database_is_reported_not_raised(tmp_path, capsys):
    """A run whose corpus is down keeps going: one message naming the database, searches find nothing."""
    import socket

    with socket.socket() as s:  # a loopback port nobody listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    memory = parse_config({"memory": {"backend": "postgres", "postgres": {
        "dsn": f"host=127.0.0.1 port={port} dbname=x user=u", "connect_timeout": 2}}}).memory
    hybrid = HybridExperienceCorpus.from_config(parse_config({}).reasoning.experience, tmp_path, memory=memory)
    assert hybrid.append({"timestamp": "2026-11-28T00:00:00", "goal": "g"}) is False
    assert [h.source for h in hybrid.search_events("g")] == ["project"]  # the local project corpus still works
    err = capsys.readouterr().err
    assert err.count(f"postgresql://u@127.0.0.1:{port}/x#global") == 1 and "Connection refused" in err
    assert "Traceback" not in err and len(hybrid.errors) == 2  # the write, then the search
    assert "not retried for 30 s" in hybrid.errors[1]  # the search did not wait on the database again
    hybrid.close()
