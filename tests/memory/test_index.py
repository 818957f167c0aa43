"""The derived FTS5 index: catch-up, rebuild on replacement, corruption, query safety."""

from __future__ import annotations

import json
import os
import string
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ragix_core.memory import index as index_mod
from ragix_core.memory.fts_query import match_expression, query_terms
from ragix_core.memory.jsonl_log import JsonlLog
from ragix_core.memory.experience import ExperienceCorpus

from .conftest import NOW, event


def _goals(corpus):
    return [h.event["goal"] for h in corpus.search_events("disk", top_k=50, now=NOW)]


def test_index_catches_up_after_external_appends(tmp_path):
    corpus = ExperienceCorpus(tmp_path, max_age_days=90)
    corpus.log.append(event("disk full on build"))
    assert _goals(corpus) == ["disk full on build"]
    # Another process (another log object, same file) appends; raw lines too.
    JsonlLog(corpus.events_path).append(event("disk quota exceeded"))
    with open(corpus.events_path, "a", encoding="utf-8") as f:
        f.write(json.dumps(event("disk is read-only")) + "\n")
    assert sorted(_goals(corpus)) == ["disk full on build", "disk is read-only", "disk quota exceeded"]
    assert corpus.index.rebuilds == 0  # incremental, not rebuilt


def test_replaced_jsonl_triggers_a_rebuild(tmp_path):
    corpus = ExperienceCorpus(tmp_path)
    for i in range(3):
        corpus.log.append(event(f"disk old {i}"))
    assert len(_goals(corpus)) == 3
    new = tmp_path / "new.jsonl"
    new.write_text("".join(json.dumps(event(f"disk new {i}")) + "\n" for i in range(5)), encoding="utf-8")
    os.replace(new, corpus.events_path)  # bigger file, different inode
    assert sorted(_goals(corpus)) == [f"disk new {i}" for i in range(5)]


def test_same_size_rewrite_in_place_is_detected(tmp_path):
    corpus = ExperienceCorpus(tmp_path)
    corpus.log.append(event("disk alpha"))
    assert _goals(corpus) == ["disk alpha"]
    data = corpus.events_path.read_bytes().replace(b"disk alpha", b"disk omega")
    with open(corpus.events_path, "r+b") as f:  # same inode, same size, other content
        f.write(data)
    assert _goals(corpus) == ["disk omega"]


def test_shrunk_jsonl_triggers_a_rebuild(tmp_path):
    corpus = ExperienceCorpus(tmp_path)
    for i in range(4):
        corpus.log.append(event(f"disk {i}"))
    assert len(_goals(corpus)) == 4
    lines = corpus.events_path.read_bytes().splitlines(keepends=True)
    with open(corpus.events_path, "r+b") as f:
        f.truncate(len(b"".join(lines[:2])))
    assert sorted(_goals(corpus)) == ["disk 0", "disk 1"]


@pytest.mark.parametrize("garbage", [b"this is not a database" * 100, b"SQLite format 3\x00" + b"\xff" * 8000])
def test_corrupt_index_is_rebuilt_transparently(tmp_path, garbage):
    corpus = ExperienceCorpus(tmp_path)
    corpus.log.append(event("disk corrupted index"))
    assert len(_goals(corpus)) == 1
    corpus.close()
    db = corpus.index.db_path
    for suffix in ("-wal", "-shm"):
        if os.path.exists(str(db) + suffix):
            os.unlink(str(db) + suffix)
    db.write_bytes(garbage)
    fresh = ExperienceCorpus(tmp_path)
    assert _goals(fresh) == ["disk corrupted index"]
    assert fresh.index.rebuilds == 1


def test_unwritable_index_location_falls_back_to_memory(tmp_path):
    corpus = ExperienceCorpus(tmp_path)
    corpus.log.append(event("disk readonly"))
    corpus.index.db_path = tmp_path / "missing-dir" / "x.sqlite"  # cannot be created
    assert _goals(corpus) == ["disk readonly"]
    assert corpus.index.in_memory


def test_skipped_lines_are_counted_in_stats(tmp_path):
    corpus = ExperienceCorpus(tmp_path)
    corpus.log.append(event("disk a"))
    with open(corpus.events_path, "ab") as f:
        f.write(b"garbage\n{\"half\": ")
    stats = corpus.stats(now=NOW)
    assert stats["events"] == 1 and stats["skipped_lines"] == 1 and stats["partial_tail"] is True
    corpus.log.append(event("disk b"))
    stats = corpus.stats(now=NOW)
    assert stats["events"] == 2 and stats["partial_tail"] is False


def test_bounded_cost_path_still_returns_recent_best_hits(tmp_path, monkeypatch):
    monkeypatch.setattr(index_mod, "MATCH_BUDGET", 20)
    corpus = ExperienceCorpus(tmp_path)
    # The oldest events match "common" best by BM25 (three occurrences): a full scan ranks them first.
    corpus.append_many(event(f"common words everywhere {i}" if i >= 100 else f"common common common {i}",
                             days_ago=(300 - i) / 10) for i in range(300))
    monkeypatch.setattr(index_mod, "MATCH_BUDGET", 10_000)
    assert corpus.search_events("common", top_k=1, now=NOW)[0].event["goal"].startswith("common common")
    monkeypatch.setattr(index_mod, "MATCH_BUDGET", 20)
    corpus.append_many([event("rare zebra common", days_ago=5)])
    hits = corpus.search_events("common", top_k=5, now=NOW)
    assert len(hits) == 5
    # Only a window of the newest rows was scored (the pool size, 64 rows), not all 301 matches.
    recent = {f"common words everywhere {i}" for i in range(301 - 64, 300)} | {"rare zebra common"}
    assert {h.event["goal"] for h in hits} <= recent
    # A rare word still finds its event although "common" alone exceeds the budget.
    assert corpus.search_events("common zebra", top_k=1, now=NOW)[0].event["goal"] == "rare zebra common"


NASTY = ['"', '""', "'", "()", "(", ")", "NEAR", "NEAR(a b)", "a*", "*", ":", "goal:", "a:b", "^a",
         "AND", "OR NOT", "-", "+", "{a b}", "[x]", "\\", "\x00", "_", "__init__", "é́", "\u200b",
         "😀", "a\nb", "''", "%", "NOT a", "col:\"x\"", " ", ""]


@pytest.mark.parametrize("query", NASTY)
def test_nasty_queries_never_raise(tmp_path, query):
    corpus = ExperienceCorpus(tmp_path)
    corpus.log.append(event("a b goal init near not", error="x: y"))
    assert isinstance(corpus.search(query), str)


def test_terms_are_literal_words():
    assert query_terms('fix "the" (build) NEAR error:*') == ["fix", "build", "near", "error"]
    assert match_expression(["a", "b"]) == '"a" OR "b"'
    assert match_expression([]) is None
    assert query_terms("the of and") == ["the", "of", "and"]  # only stopwords: keep them


@pytest.fixture(scope="module")
def fuzz_corpus(tmp_path_factory):
    corpus = ExperienceCorpus(tmp_path_factory.mktemp("fuzz"))
    corpus.append_many([event("find largest markdown file", error="wc: permission denied"),
                        event("ünïcödé gœal 😀 日本語", critique="near AND or NOT")])
    return corpus


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.text(alphabet=st.characters(codec="utf-8") | st.sampled_from(list(string.punctuation)), max_size=80))
def test_fuzz_arbitrary_text_never_raises(fuzz_corpus, text):
    hits = fuzz_corpus.search_events(text, top_k=3, now=NOW)
    assert isinstance(hits, list) and len(hits) <= 2
    assert isinstance(fuzz_corpus.search(text), str)


def test_another_process_pruning_does_not_confuse_a_live_index(tmp_path):
    a = ExperienceCorpus(tmp_path, max_age_days=30)
    a.append_many([event(f"disk old {i}", days_ago=100) for i in range(50)])
    a.append_many([event(f"disk fresh {i}", days_ago=1) for i in range(3)])
    assert len(a.search_events("disk", top_k=10, now=NOW)) == 3
    b = ExperienceCorpus(tmp_path, max_age_days=30)  # stands for another process
    assert b.prune(now=NOW) == 50  # rewrites the file and rebuilds the shared index (new ids)
    assert sorted(h.event["goal"] for h in a.search_events("disk", top_k=10, now=NOW)) == [
        f"disk fresh {i}" for i in range(3)]


def _sync_index(root: str) -> None:
    ExperienceCorpus(Path(root)).index.sync()


def test_concurrent_catch_up_indexes_each_event_once(tmp_path):
    import multiprocessing as mp
    import sqlite3

    corpus = ExperienceCorpus(tmp_path)
    corpus.append_many(event(f"disk event {i}") for i in range(30_000))  # several batches
    ctx = mp.get_context("spawn")  # not fork: earlier tests leave llama.cpp threads in this process
    procs = [ctx.Process(target=_sync_index, args=(str(tmp_path),)) for _ in range(3)]
    for p in procs:
        p.start()
    for p in procs:
        p.join()
        assert p.exitcode == 0
    db = sqlite3.connect(str(corpus.index.db_path))
    count, distinct = db.execute("SELECT count(*), count(DISTINCT offset) FROM docs").fetchone()
    assert count == distinct == 30_000
    assert db.execute("SELECT df FROM terms WHERE term = 'disk'").fetchone()[0] == 30_000
    db.close()
