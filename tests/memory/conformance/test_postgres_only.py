"""What only the PostgreSQL store has: a server that must be UTF8, a schema shared by processes, quoting."""

from __future__ import annotations

import psycopg
import pytest

from ragix_core.memory.errors import CorpusError
from ragix_core.memory.postgres_store import PostgresCorpus, tsquery_literal, tsvector_literal


def test_a_database_that_is_not_utf8_is_refused_clearly(pg_cluster):
    with psycopg.connect(pg_cluster.dsn, autocommit=True) as conn:
        conn.execute("CREATE DATABASE latin ENCODING 'SQL_ASCII' TEMPLATE template0 LC_COLLATE 'C' LC_CTYPE 'C'")
    store = PostgresCorpus(pg_cluster.dsn.replace("dbname=postgres", "dbname=latin"))
    with pytest.raises(CorpusError, match=r"/latin#global: the database's encoding is SQL_ASCII; .*UTF8"):
        store.append({"goal": "x"})


def test_lexemes_are_quoted_so_no_text_is_an_operator():
    text, counts, words = tsvector_literal(["it's a \\ back", "Ünïcödé ünicode x" * 1])
    assert counts == {"it": 1, "s": 1, "a": 1, "back": 1, "unicode": 2, "x": 1} and words == 7
    assert tsquery_literal(["a'b", "c\\d"]) == "'a''b' | 'c\\\\d'"


def test_the_schema_is_created_once_and_other_versions_are_refused(postgres_backend):
    a = PostgresCorpus(postgres_backend.dsn, corpus="a")
    b = PostgresCorpus(postgres_backend.dsn, corpus="b")
    a.append({"goal": "first", "timestamp": "2026-11-28T00:00:00"})
    b.append({"goal": "second", "timestamp": "2026-11-28T00:00:00"})
    assert [a.stats()["events"], b.stats()["events"]] == [1, 1]  # corpora share tables, not events
    with psycopg.connect(postgres_backend.dsn, autocommit=True) as conn:
        conn.execute("UPDATE ragix_corpus_meta SET value = '99' WHERE key = 'schema'")
    c = PostgresCorpus(postgres_backend.dsn, corpus="c")
    with pytest.raises(CorpusError, match="schema 99, this ragix reads schema 1"):
        c.stats()
    for store in (a, b, c):
        store.close()
