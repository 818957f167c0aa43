"""`ragix corpus migrate` both ways against a real (throwaway) PostgreSQL, and what a failure leaves."""

from __future__ import annotations

import json
from datetime import datetime, timezone

import pytest
from typer.testing import CliRunner

from ragix_core.cli import app
from ragix_core.memory.errors import CorpusReadError
from ragix_core.memory.experience import ExperienceCorpus
from ragix_core.memory.migrate import migrate

from . import fixed_corpus
from .backends import open_new

runner = CliRunner()


def _home(home, dsn, backend="local", global_root=None):
    home.mkdir(parents=True, exist_ok=True)
    root = f"    global_root: {global_root}\n" if global_root else ""
    (home / "ragix.yaml").write_text(f"reasoning:\n  experience:\n{root or '    enabled: true' + chr(10)}"
                                     f"memory:\n  backend: {backend}\n  postgres:\n    dsn: \"{dsn}\"\n")


def _search(project, query):
    res = runner.invoke(app, ["corpus", "search", query, "--json", "--top-k", "5", "--project", str(project)])
    assert res.exit_code == 0, res.output
    return [(h["source"], h["timestamp"], h["goal"], h["score"]) for h in json.loads(res.output)["hits"]
            if h["source"] == "global"]


def assert_same_hits(found, expected):
    """The same hits in the same order, scores to 1e-3: the CLI searches at the real now, and recency
    decays between two searches seconds apart (more on a loaded machine), which can move a 4th decimal."""
    assert {q: [h[:3] for h in hits] for q, hits in found.items()} == \
        {q: [h[:3] for h in hits] for q, hits in expected.items()}
    for q, hits in found.items():
        assert [h[3] for h in hits] == pytest.approx([h[3] for h in expected[q]], abs=1e-3)


def test_migrate_to_postgres_and_back_keeps_counts_and_search(tmp_path, monkeypatch, postgres_backend):
    home, project = tmp_path / "home", tmp_path / "proj"
    project.mkdir()
    monkeypatch.setenv("RAGIX_HOME", str(home))
    events = fixed_corpus.events(now=datetime.now(timezone.utc))  # the CLI searches at the real now
    ExperienceCorpus(home).append_many(events)
    _home(home, postgres_backend.dsn)
    queries = fixed_corpus.QUERIES[:6]
    local_hits = {q: _search(project, q) for q in queries}
    assert all(local_hits.values())

    res = runner.invoke(app, ["corpus", "migrate", "--to", "postgres", "--json", "--project", str(project)])
    assert res.exit_code == 0, res.output
    (report,) = json.loads(res.output[res.output.index("{"):])["corpora"]
    assert report["events"] == report["source_events"] == len(events)
    assert report["queries"] >= 15 and report["identical_queries"] == report["queries"]
    assert report["target"].startswith("postgresql://") and report["target"].endswith("#global")

    _home(home, postgres_backend.dsn, backend="postgres")  # the global corpus now reads the database
    assert_same_hits({q: _search(project, q) for q in queries}, local_hits)
    stats = json.loads(runner.invoke(app, ["corpus", "stats", "--json", "--project", str(project)]).output)
    assert [(c["name"], c["backend"], c["events"]) for c in stats["corpora"]] == [
        ("project", "local", 0), ("global", "postgres", len(events))]
    table = runner.invoke(app, ["corpus", "stats", "--project", str(project)])
    assert table.exit_code == 0 and "postgres" in table.output and "table bytes (all corpora)" in table.output

    back = tmp_path / "back"
    _home(home, postgres_backend.dsn, global_root=back)
    res = runner.invoke(app, ["corpus", "migrate", "--to", "local", "--json", "--project", str(project)])
    assert res.exit_code == 0, res.output
    (report,) = json.loads(res.output[res.output.index("{"):])["corpora"]
    assert report["events"] == len(events) and report["identical_queries"] == report["queries"]
    assert list(ExperienceCorpus(back).records()) == list(ExperienceCorpus(home).records())
    assert_same_hits({q: _search(project, q) for q in queries}, local_hits)

    # Again into the database that now holds the corpus: refused, nothing written twice.
    _home(home, postgres_backend.dsn)
    res = runner.invoke(app, ["corpus", "migrate", "--to", "postgres", "--project", str(project)])
    assert res.exit_code == 2 and f"already holds {len(events)} events" in res.output


def test_migrate_needs_a_dsn_and_a_known_direction(tmp_path, monkeypatch):
    monkeypatch.setenv("RAGIX_HOME", str(tmp_path / "home"))
    res = runner.invoke(app, ["corpus", "migrate", "--to", "postgres", "--project", str(tmp_path)])
    assert res.exit_code == 2 and "memory.postgres.dsn is not set" in res.output
    res = runner.invoke(app, ["corpus", "migrate", "--to", "mysql", "--project", str(tmp_path)])
    assert res.exit_code == 2 and "--to must be one of: postgres, local" in res.output


def _failing(store, after):
    """The source's own records, then a read failure half-way (as a dropped connection would raise)."""

    def records():
        for i, record in enumerate(type(store).records(store)):
            if i == after:
                raise CorpusReadError(store.location, "connection lost")
            yield record

    store.records = records
    return store


@pytest.mark.parametrize("to", ["postgres", "local"])
def test_a_failed_migration_leaves_the_target_empty(to, local_backend, postgres_backend):
    src_backend, dst_backend = (local_backend, postgres_backend) if to == "postgres" else (postgres_backend,
                                                                                           local_backend)
    source, target = open_new(src_backend), open_new(dst_backend)
    try:
        source.append_many(fixed_corpus.events())
        with pytest.raises(CorpusReadError, match="connection lost"):
            migrate(_failing(source, after=150), target)
        assert target.stats()["events"] == 0 and list(target.records()) == []
        assert source.stats()["events"] == 200
        if to == "local":
            assert [p.name for p in target.events_path.parent.iterdir()] == []  # no partial or temp file left
        # Nothing was lost and nothing half-written blocks a second attempt.
        report = migrate(_restore(source), target)
        assert report.events == 200
    finally:
        source.close()
        target.close()


def _restore(store):
    del store.records
    return store


def test_migration_reports_progress_on_a_large_corpus(local_backend, postgres_backend):
    source, target = open_new(local_backend), open_new(postgres_backend)
    base = fixed_corpus.events()
    try:
        source.append_many({**base[i % 200], "step_num": i} for i in range(25_000))
        seen = []
        report = migrate(source, target, progress=lambda done, total: seen.append((done, total)))
        assert seen == [(10_000, 25_000), (20_000, 25_000), (25_000, 25_000)]
        assert report.events == 25_000 and target.stats()["events"] == 25_000
    finally:
        source.close()
        target.close()
