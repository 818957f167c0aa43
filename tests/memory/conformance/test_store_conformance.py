"""The corpus-store protocol (ragix_core/memory/store.py), the same tests on every store.

Writers are real processes (``spawn``), killed with SIGKILL where the test says
so; the PostgreSQL server is restarted for real.
"""

from __future__ import annotations

import json
import multiprocessing
import os
import signal
import time
from datetime import timedelta

import pytest

from ragix_core.memory.encoding import MAX_LINE_BYTES, TRUNCATION_MARK
from ragix_core.memory.store import STATS_KEYS, CorpusStore

from . import fixed_corpus
from .backends import open_new, open_spec
from .workers import event_for, write_events, write_until_killed

WRITERS, PER_WRITER = 4, 2_500


def _ids(store):
    return [(r["meta"]["writer"], r["meta"]["seq"]) for r in store.records()]


def test_both_stores_present_the_protocol(backend):
    store = open_new(backend)
    try:
        assert isinstance(store, CorpusStore)
        assert store.backend == backend.kind
        assert store.search_events("anything") == [] and store.search("anything") == ""
        store.append(event_for(0, 0))
        assert store.append_many([event_for(0, 1), event_for(0, 2)]) == 2
        assert store.append_many([]) == 0
        stats = store.stats()
        assert set(STATS_KEYS) <= set(stats) and stats["events"] == 3 and stats["expired"] == 0
        hits = store.search_events("writer0 seq1", top_k=2)
        assert hits[0].event["meta"] == {"writer": 0, "seq": 1} and hits[0].source == "global"
        assert "[1]" in store.search("seq2 make")
        assert _ids(store) == [(0, 0), (0, 1), (0, 2)]  # append order
    finally:
        store.close()


def test_concurrent_writers_lose_and_duplicate_nothing(backend):
    spec = backend.spec()
    ctx = multiprocessing.get_context("spawn")
    procs = [ctx.Process(target=write_events, args=(spec, w, PER_WRITER)) for w in range(WRITERS)]
    for p in procs:
        p.start()
    for p in procs:
        p.join(600)
    assert [p.exitcode for p in procs] == [0] * WRITERS
    store = open_spec(spec)
    try:
        ids = _ids(store)
        assert len(ids) == WRITERS * PER_WRITER
        assert set(ids) == {(w, s) for w in range(WRITERS) for s in range(PER_WRITER)}
        # Each writer's own events stay in the order it wrote them.
        for w in range(WRITERS):
            assert [s for ww, s in ids if ww == w] == list(range(PER_WRITER))
        assert store.stats()["events"] == WRITERS * PER_WRITER
        # The search data kept up with every writer: a unique word of the last events is found.
        for w in range(WRITERS):
            hit = store.search_events(f"writer{w} seq{PER_WRITER - 1}", top_k=1)[0]
            assert hit.event["meta"] == {"writer": w, "seq": PER_WRITER - 1}
        assert store.rebuild() == WRITERS * PER_WRITER
    finally:
        store.close()


def test_a_killed_writer_loses_only_what_it_had_not_acknowledged(backend):
    spec = backend.spec()
    ctx = multiprocessing.get_context("spawn")
    acked = ctx.Value("i", 0, lock=False)
    proc = ctx.Process(target=write_until_killed, args=(spec, acked))
    proc.start()
    deadline = time.monotonic() + 120
    while acked.value < 40 and time.monotonic() < deadline:
        time.sleep(0.01)
    os.kill(proc.pid, signal.SIGKILL)
    proc.join(30)
    assert proc.exitcode == -signal.SIGKILL
    done = acked.value
    assert done >= 40
    store = open_spec(spec)
    try:
        store.append(event_for(8, 0))  # the next writer is not blocked by what the dead one left
        ids = _ids(store)
        killed = [s for w, s in ids if w == 7]
        # Every acknowledged event is there, once; the one in flight is there whole or not at all.
        assert killed[:done] == list(range(done)) and len(killed) in (done, done + 1)
        assert ids[-1] == (8, 0)
        assert store.search_events("writer8 seq0", top_k=1)[0].event["meta"] == {"writer": 8, "seq": 0}
        assert store.stats()["events"] == len(ids)
    finally:
        store.close()


def test_a_restart_keeps_everything_and_open_stores_recover(backend):
    spec = backend.spec()
    store = open_spec(spec)
    store.append_many(fixed_corpus.events(120))
    before = [(h.event["step_num"], round(h.score, 9)) for h in store.search_events("rust linker", top_k=5,
                                                                                     now=fixed_corpus.NOW)]
    assert before
    backend.restart()
    try:
        # The store opened before the restart keeps working (stale pooled connections are replaced).
        again = [(h.event["step_num"], round(h.score, 9)) for h in store.search_events("rust linker", top_k=5,
                                                                                        now=fixed_corpus.NOW)]
        assert again == before
    finally:
        store.close()
    reopened = open_spec(spec)
    try:
        assert reopened.stats()["events"] == 120
        after = [(h.event["step_num"], round(h.score, 9)) for h in reopened.search_events("rust linker", top_k=5,
                                                                                          now=fixed_corpus.NOW)]
        assert after == before
        reopened.append(event_for(1, 1))
        assert reopened.stats()["events"] == 121
    finally:
        reopened.close()


def test_prune_and_rebuild_keep_search_consistent(backend):
    store = open_new(backend, max_age_days=30)
    fresh = open_new(backend, max_age_days=30)
    try:
        evs = fixed_corpus.events(150)  # 7 hours apart: the oldest ~44 days before NOW
        store.append_many(evs)
        undated = {**event_for(3, 3), "timestamp": None}
        store.append(undated)
        expired = sum(1 for e in evs if fixed_corpus.NOW - timedelta(days=30) > _ts(e))
        assert expired > 0
        assert store.count_expired(now=fixed_corpus.NOW) == expired
        assert store.prune(now=fixed_corpus.NOW) == expired
        assert store.stats(now=fixed_corpus.NOW)["events"] == len(evs) - expired + 1  # undated kept
        assert store.stats(now=fixed_corpus.NOW)["undated"] == 1
        # After pruning, scores equal those of a store that only ever held the survivors:
        # document counts and frequencies were updated, not left stale.
        fresh.append_many([e for e in evs if _ts(e) >= fixed_corpus.NOW - timedelta(days=30)] + [undated])
        for q in fixed_corpus.QUERIES[:8]:
            assert _ranked(store, q) == _ranked(fresh, q), q
        assert store.rebuild() == len(evs) - expired + 1
        for q in fixed_corpus.QUERIES[:8]:
            assert _ranked(store, q) == _ranked(fresh, q), q
    finally:
        store.close()
        fresh.close()


def _ts(e):
    from datetime import datetime

    return datetime.fromisoformat(e["timestamp"])


def _ranked(store, query, top_k=5):
    return [(h.event["step_num"], round(h.score, 9)) for h in store.search_events(query, top_k=top_k,
                                                                                  now=fixed_corpus.NOW)]


def test_an_oversized_event_is_stored_bounded_and_still_found(backend):
    store = open_new(backend)
    try:
        huge = {**event_for(5, 5), "goal": "oversized zebra event", "error": "x" * (3 * MAX_LINE_BYTES),
                "llm_critique": "y " * MAX_LINE_BYTES}
        store.append(huge)
        (stored,) = list(store.records())
        assert stored["truncated"] is True and stored["original_bytes"] > 3 * MAX_LINE_BYTES
        assert len(json.dumps(stored, ensure_ascii=False).encode()) < MAX_LINE_BYTES
        assert stored["error"].endswith(TRUNCATION_MARK)
        assert store.search_events("zebra", top_k=1)[0].event["goal"] == "oversized zebra event"
    finally:
        store.close()


def test_invalid_utf8_is_replaced_not_refused(backend):
    store = open_new(backend)
    try:
        store.append({**event_for(6, 1), "goal": "broken bytes \udcff\udcfe in quokka output",
                      "error": b"quokka \xff\xfe exit", "tool_output": b"\x00\x80 raw"})
        (stored,) = list(store.records())
        assert stored["goal"] == "broken bytes \ufffd\ufffd in quokka output"
        assert stored["error"] == "quokka \ufffd\ufffd exit" and stored["tool_output"] == "\x00\ufffd raw"
        assert store.search_events("quokka", top_k=1)[0].event["meta"] == {"writer": 6, "seq": 1}
    finally:
        store.close()


INJECTIONS = [
    "x'); DROP TABLE ragix_corpus_events; --",
    "' OR 1=1 --",
    "foo & !bar | baz:* <-> qux",
    '"unbalanced ( NEAR(a b) col:umn ^start *',
    "back\\slash \\' quote''",
    "nul\x00byte",
    "%s %(name)s {0} $1",
]


def test_injection_shaped_text_is_only_text(backend):
    store = open_new(backend)
    try:
        for i, text in enumerate(INJECTIONS):
            store.append({**event_for(9, i), "goal": f"wombat {text}", "error": text})
        for i, text in enumerate(INJECTIONS):
            store.search_events(text, top_k=3)  # never a syntax error
        ids = _ids(store)
        assert ids == [(9, i) for i in range(len(INJECTIONS))]
        assert [r["error"] for r in store.records()] == INJECTIONS  # stored verbatim
        hit = store.search_events("baz qux", top_k=1)[0]
        assert hit.event["meta"]["seq"] == 2
        assert len(store.search_events("wombat", top_k=20)) == len(INJECTIONS)
        assert store.stats()["events"] == len(INJECTIONS)
    finally:
        store.close()


def test_a_record_that_is_not_an_event_is_refused_clearly(backend):
    store = open_new(backend)
    try:
        with pytest.raises(TypeError, match="ReasoningEvent or a dict"):
            store.append(["not", "an", "event"])
        assert store.stats()["events"] == 0
    finally:
        store.close()
