"""Ranking parity between the stores on a fixed corpus.

Parity (docs/DECISIONS.md): both stores score their candidates with the same
``hits.rank_pool``; on a corpus where every query's matching events fit the
candidate pool (so neither store's candidate selection drops any), they return
the same hits, in the same order, with the same scores (to 1e-9).
"""

from __future__ import annotations

from ragix_core.memory.fts_query import query_terms
from ragix_core.memory.rerank import fold, tokens
from ragix_core.memory.records import indexed_fields

from . import fixed_corpus
from .backends import open_new

TOP_K = 5
POOL = max(64, TOP_K * 8)  # what both stores ask their index for at this top_k


def _matches(events, query):
    words = {fold(t) for t in query_terms(query)}
    return sum(1 for e in events if words & set(tokens(" ".join(indexed_fields(e)))))


def _ranked(store, query):
    return [(h.event["step_num"], round(h.score, 9), round(h.bm25, 9), round(h.coverage, 9))
            for h in store.search_events(query, top_k=TOP_K, now=fixed_corpus.NOW)]


def test_both_stores_rank_a_fixed_corpus_identically(local_backend, postgres_backend):
    events = fixed_corpus.events()
    local, pg = open_new(local_backend), open_new(postgres_backend)
    try:
        local.append_many(events[:100])
        for e in events[100:]:  # the two write paths (one transaction each, bulk COPY) agree too
            pg.append(e)
        local.append_many(events[100:])
        pg.append_many(events[:100])  # other order: ids differ, rankings must not
        nonempty = 0
        for query in fixed_corpus.QUERIES:
            assert _matches(events, query) <= POOL, f"{query!r} does not fit the pool: not a parity case"
            ours, theirs = _ranked(local, query), _ranked(pg, query)
            assert ours == theirs, query
            nonempty += bool(ours)
        assert nonempty == len(fixed_corpus.QUERIES) - 2  # all but the two that match nothing
    finally:
        local.close()
        pg.close()
