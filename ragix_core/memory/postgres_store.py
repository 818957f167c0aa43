"""The experience corpus in PostgreSQL (``store.CorpusStore``): a team's machines share one corpus.

Why this shape:
- One table for every corpus (``corpus`` column), the stored record as the exact
  JSON text the local store would write (``encoding.encode_record``: bounded,
  valid UTF-8), and beside it what search filters on (ts, outcome, recovery) and
  a ``tsvector`` under a GIN index.
- The tsvector is built here, from the same tokens the SQLite index uses
  (``rerank.tokens``: letters and digits, lower case, diacritics removed), and
  handed to the server as a tsvector literal: the server's parser and its
  locale never decide what a word is, so both stores match the same words.
- Candidates come from the server as index.py takes them from FTS5: the
  matches of the rarest words (``@@`` through GIN) ranked by FTS5's own BM25
  formula (word counts in a jsonb column, the length in words a column, the
  average length kept beside the count of events), topped up with
  the newest matches of the other words. Document frequencies come from a terms
  table kept in the same transactions as the events. The final ranking is
  ``hits.rank_pool``, shared with the local store: same pool, same hits.
- Writers of one corpus serialise on its row in ``ragix_corpora`` (the count of
  events is kept there), as local writers do on the file's flock: no deadlock
  on the terms table, and counts that match the events at every commit.
- One connection pool per process (psycopg_pool), made on first use and made
  again after a fork; connections are checked when taken, so a server restart
  costs the next call a reconnect, not an error.
"""

from __future__ import annotations

import json
import math
import os
import threading
import time
from collections import Counter
from typing import Any, Callable, Dict, Iterable, Iterator, List, Optional, Sequence, Tuple, Union

from ragix_core.core.types import ReasoningEvent
from ragix_core.memory.encoding import encode_record
from ragix_core.memory.errors import CorpusError, CorpusReadError, CorpusWriteError
from ragix_core.memory.hits import Candidate, ScoredEvent, rank_pool
from ragix_core.memory.records import indexed_fields, record_facts
from ragix_core.memory.rerank import fold, tokens
from ragix_core.memory.store import DAY, Now, TextSearch, as_record, check_max_age, epoch

__all__ = ["PostgresCorpus", "tsvector_literal", "tsquery_literal", "describe_dsn", "SCHEMA_VERSION"]

SCHEMA_VERSION = "1"
MAX_LEXEME_CHARS = 64  # fts_query keeps query words to 64 characters: a longer word can never match one
_COPY_ROWS = 200  # from this many events on, append_many sends them with COPY
_PAGE = 5000  # rows per round trip when streaming records or rebuilding
RETRY_AFTER = 30.0  # seconds before a database that could not be reached is tried again
_SCHEMA_LOCK = 0x7261676978  # advisory lock: two processes creating the schema at once would collide

_SCHEMA = (
    "CREATE TABLE IF NOT EXISTS ragix_corpus_meta (key text PRIMARY KEY, value text NOT NULL)",
    """CREATE TABLE IF NOT EXISTS ragix_corpora (
         name text PRIMARY KEY, n_docs bigint NOT NULL DEFAULT 0, n_words bigint NOT NULL DEFAULT 0)""",
    """CREATE TABLE IF NOT EXISTS ragix_corpus_events (
         id bigserial PRIMARY KEY, corpus text NOT NULL, ts double precision, outcome text,
         event_type text NOT NULL DEFAULT '', recovery boolean NOT NULL DEFAULT false,
         dl integer NOT NULL, tf jsonb NOT NULL, record text NOT NULL, tsv tsvector NOT NULL)""",
    "CREATE INDEX IF NOT EXISTS ragix_corpus_events_tsv ON ragix_corpus_events USING gin (tsv)",
    "CREATE INDEX IF NOT EXISTS ragix_corpus_events_corpus_id ON ragix_corpus_events (corpus, id)",
    "CREATE INDEX IF NOT EXISTS ragix_corpus_events_corpus_ts ON ragix_corpus_events (corpus, ts)",
    """CREATE TABLE IF NOT EXISTS ragix_corpus_terms (
         corpus text NOT NULL, term text NOT NULL, df bigint NOT NULL, PRIMARY KEY (corpus, term))""",
)
_COLUMNS = "corpus, ts, outcome, event_type, recovery, dl, tf, record, tsv"

Row = Tuple[str, Optional[float], Optional[str], str, bool, int, str, str, str]


def _quote(word: str) -> str:
    return "'" + word.replace("\\", "\\\\").replace("'", "''") + "'"


def tsvector_literal(fields: Sequence[str]) -> Tuple[str, Dict[str, int], int]:
    """(tsvector input text, each lexeme's count, the number of words) for one record's searched fields.

    The tsvector has no positions (it only says which words a record has: GIN matches on it);
    the counts go to a jsonb column, which ranking reads faster than unnest() over tsvector
    positions (docs/DECISIONS.md).
    """
    counts: Counter = Counter(tokens(" ".join(fields)))
    kept = {w: n for w, n in counts.items() if len(w) <= MAX_LEXEME_CHARS}
    return " ".join(_quote(w) for w in kept), kept, sum(counts.values())


def fts5_idf(df: int, n_docs: int) -> float:
    """SQLite FTS5's bm25() idf (fts5_aux.c): log((N - n + 0.5) / (n + 0.5)), at least 1e-6."""
    idf = math.log((n_docs - df + 0.5) / (df + 0.5)) if n_docs > 0 else 0.0
    return idf if idf > 0 else 1e-6


def stage1_sql(n_terms: int) -> str:
    """FTS5's bm25() (k1 = 1.2, b = 0.75) over the tsquery's words, best first; ties in row order."""
    counts = ", ".join(f"coalesce((e.tf ->> %(t{i})s)::float8, 0) AS f{i}" for i in range(n_terms))
    score = " + ".join(f"%(idf{i})s * f.f{i} * 2.2 / (f.f{i} + n.k)" for i in range(n_terms))
    return (f"SELECT e.id FROM ragix_corpus_events e, LATERAL (SELECT {counts}) AS f, "
            "LATERAL (SELECT 1.2 * (0.25 + 0.75 * e.dl::float8 / %(avgdl)s) AS k) AS n "
            "WHERE e.corpus = %(corpus)s AND e.tsv @@ %(q)s::tsquery AND e.ts >= %(cutoff)s "
            f"ORDER BY {score} DESC, e.id LIMIT %(size)s")


def tsquery_literal(words: Sequence[str]) -> str:
    """``'a' | 'b'``: each word a quoted lexeme, so no text can act as a tsquery operator."""
    return " | ".join(_quote(w) for w in words)


def describe_dsn(dsn: str) -> str:
    """``postgresql://user@host:port/dbname`` without the password (for messages and ``location``)."""
    from psycopg.conninfo import conninfo_to_dict

    try:
        parts = conninfo_to_dict(dsn)
    except Exception as exc:  # psycopg.ProgrammingError; the message says what is wrong with the string
        raise ValueError(f"memory.postgres.dsn is not a valid PostgreSQL connection string: {exc}") from None
    user = parts.get("user") or os.environ.get("PGUSER", "")
    host = parts.get("host") or os.environ.get("PGHOST", "localhost")
    port = parts.get("port") or os.environ.get("PGPORT", "5432")
    db = parts.get("dbname") or os.environ.get("PGDATABASE", user)
    return f"postgresql://{user + '@' if user else ''}{host}:{port}/{db}"


def _why(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return text[0] if text else type(exc).__name__


class PostgresCorpus(TextSearch):
    backend = "postgres"

    def __init__(self, dsn: str, corpus: str = "global", name: Optional[str] = None, max_age_days: int = 90,
                 pool_size: int = 4, connect_timeout: float = 10.0) -> None:
        check_max_age(max_age_days)
        if not dsn or not isinstance(dsn, str):
            raise ValueError("memory.postgres.dsn is empty: set it in your own ragix.yaml")
        if not corpus:
            raise ValueError("a PostgreSQL corpus needs a name")
        try:
            self._address = describe_dsn(dsn)
        except ImportError:
            raise CorpusError("the postgres corpus backend needs psycopg: pip install 'ragix[postgres]'") from None
        self.dsn = dsn
        self.corpus = corpus
        self.name = name or corpus
        self.max_age_days = max_age_days
        self.pool_size = pool_size
        self.connect_timeout = connect_timeout
        self._pool: Any = None
        self._pid = 0
        self._lock = threading.Lock()
        self._forked_pools: List[Any] = []  # a parent's pool: never closed from a child (shared sockets)
        self._down_until = 0.0
        self._down_why = ""

    @property
    def location(self) -> str:
        return f"{self._address}#{self.corpus}"

    # --- connections ----------------------------------------------------------

    def _connect_args(self) -> Dict[str, Any]:
        return {"connect_timeout": max(2, int(self.connect_timeout)), "autocommit": True}

    def _get_pool(self) -> Any:
        if self._pool is not None and self._pid == os.getpid():
            return self._pool
        with self._lock:
            if self._pool is not None and self._pid != os.getpid():
                self._forked_pools.append(self._pool)
                self._pool = None
            if self._pool is None:
                self._pool, self._pid = self._open_pool(), os.getpid()
        return self._pool

    def _open_pool(self) -> Any:
        import psycopg
        from psycopg_pool import ConnectionPool

        # A database that just failed is not tried again for RETRY_AFTER seconds: a run searches at every
        # REFLECT, and each try could wait connect_timeout on an unreachable host.
        if time.monotonic() < self._down_until:
            raise CorpusReadError(self.location, f"{self._down_why} (not retried for {RETRY_AFTER:.0f} s)")
        pool = None
        try:
            self._ensure_schema()
            pool = ConnectionPool(self.dsn, min_size=1, max_size=self.pool_size, kwargs=self._connect_args(),
                                  check=ConnectionPool.check_connection, open=False,
                                  name=f"ragix-corpus-{self.corpus}")
            pool.open(wait=True, timeout=self.connect_timeout)
            return pool
        except psycopg.OperationalError as exc:
            if pool is not None:
                pool.close()  # else its workers keep trying to connect in the background
            self._down_until, self._down_why = time.monotonic() + RETRY_AFTER, _why(exc)
            raise

    def _ensure_schema(self) -> None:
        import psycopg

        with psycopg.connect(self.dsn, **self._connect_args()) as conn:
            encoding = conn.execute("SHOW server_encoding").fetchone()[0]
            if isinstance(encoding, bytes):  # psycopg returns bytes from a SQL_ASCII database
                encoding = encoding.decode("ascii", "replace")
            if encoding != "UTF8":
                raise CorpusError(f"{self.location}: the database's encoding is {encoding}; the corpus needs a "
                                  f"UTF8 database (createdb -E UTF8)")
            # DDL only when something is missing: even CREATE INDEX IF NOT EXISTS locks the table against
            # writers, and a process opening its pool must never wait on (or deadlock with) one writing.
            if not self._schema_complete(conn):
                with conn.transaction():
                    conn.execute("SELECT pg_advisory_xact_lock(%s)", (_SCHEMA_LOCK,))
                    if not self._schema_complete(conn):
                        for statement in _SCHEMA:
                            conn.execute(statement)
                        conn.execute("INSERT INTO ragix_corpus_meta VALUES ('schema', %s) ON CONFLICT DO NOTHING",
                                     (SCHEMA_VERSION,))
            found = conn.execute("SELECT value FROM ragix_corpus_meta WHERE key = 'schema'").fetchone()
            if found is None or found[0] != SCHEMA_VERSION:
                raise CorpusError(f"{self.location}: the corpus tables have schema {found and found[0]}, this "
                                  f"ragix reads schema {SCHEMA_VERSION}")
            conn.execute("INSERT INTO ragix_corpora(name) VALUES (%s) ON CONFLICT DO NOTHING", (self.corpus,))

    @staticmethod
    def _schema_complete(conn: Any) -> bool:
        names = ["ragix_corpus_meta", "ragix_corpora", "ragix_corpus_events", "ragix_corpus_terms",
                 "ragix_corpus_events_tsv", "ragix_corpus_events_corpus_id", "ragix_corpus_events_corpus_ts"]
        row = conn.execute("SELECT bool_and(to_regclass(n) IS NOT NULL) FROM unnest(%s::text[]) AS n", (names,))
        return bool(row.fetchone()[0])

    def _run(self, write: bool, fn: Callable[[Any], Any]) -> Any:
        """``fn(connection)``; driver and pool failures become a CorpusError naming the database and why."""
        import psycopg

        error = CorpusWriteError if write else CorpusReadError
        try:
            with self._get_pool().connection() as conn:
                return fn(conn)
        except CorpusError:
            raise
        except psycopg.Error as exc:
            raise error(self.location, _why(exc)) from None

    def close(self) -> None:
        with self._lock:
            if self._pool is not None and self._pid == os.getpid():
                self._pool.close()
            self._pool = None

    # --- writing --------------------------------------------------------------

    def _row(self, record: Dict[str, Any]) -> Tuple[Row, List[str], int]:
        line = encode_record(record)  # bounded, valid UTF-8, the same text the local store writes
        text = line[:-1].decode("utf-8")
        stored = json.loads(text)  # index what is stored (cleaned, maybe truncated), as the local index does
        ts, outcome, event_type, recovery = record_facts(stored)
        tsv, counts, dl = tsvector_literal(indexed_fields(stored))
        return (self.corpus, ts, outcome, event_type, recovery, dl, json.dumps(counts, ensure_ascii=False), text,
                tsv), list(counts), dl

    def append(self, event: Union[ReasoningEvent, Dict[str, Any]]) -> None:
        self.append_many([event])

    def append_many(self, events: Iterable[Union[ReasoningEvent, Dict[str, Any]]]) -> int:
        """All-or-nothing in one transaction; returns how many events were written."""
        rows: List[Row] = []
        df: Counter = Counter()
        n_words = 0
        for event in events:
            row, words, dl = self._row(as_record(event))
            rows.append(row)
            df.update(words)
            n_words += dl
        if not rows:
            return 0

        def write(conn: Any) -> None:
            with conn.transaction(), conn.cursor() as cur:
                cur.execute("UPDATE ragix_corpora SET n_docs = n_docs + %s, n_words = n_words + %s WHERE name = %s",
                            (len(rows), n_words, self.corpus))
                if len(rows) >= _COPY_ROWS:
                    with cur.copy(f"COPY ragix_corpus_events ({_COLUMNS}) FROM STDIN") as copy:
                        for row in rows:
                            copy.write_row(row)
                else:
                    cur.executemany(f"INSERT INTO ragix_corpus_events ({_COLUMNS}) "
                                    "VALUES (%s, %s, %s, %s, %s, %s, %s::jsonb, %s, %s::tsvector)", rows)
                self._add_terms(cur, df)

        self._run(True, write)
        return len(rows)

    def load(self, records: Iterable[Dict[str, Any]]) -> int:
        """Fill an empty corpus from a stream in ONE transaction (COPY): all of it or, on any failure, none."""

        def go(conn: Any) -> int:
            count = n_words = 0
            df: Counter = Counter()
            with conn.transaction(), conn.cursor() as cur:
                cur.execute("SELECT 1 FROM ragix_corpora WHERE name = %s FOR UPDATE", (self.corpus,))
                held = cur.execute("SELECT count(*) FROM ragix_corpus_events WHERE corpus = %s",
                                   (self.corpus,)).fetchone()[0]
                if held:
                    raise CorpusWriteError(self.location, f"it already holds {held} events; a load only fills "
                                                          "an empty corpus")
                with cur.copy(f"COPY ragix_corpus_events ({_COLUMNS}) FROM STDIN") as copy:
                    for record in records:
                        row, words, dl = self._row(as_record(record))
                        copy.write_row(row)
                        df.update(words)
                        count += 1
                        n_words += dl
                self._add_terms(cur, df)
                cur.execute("UPDATE ragix_corpora SET n_docs = %s, n_words = %s WHERE name = %s",
                            (count, n_words, self.corpus))
            # Now, not when autovacuum gets to it: fresh planner statistics (else the planner guesses how
            # many rows a word matches from an empty table), and the GIN index's pending list merged into
            # the index (else every search scans the up to 4 MB of entries the COPY left there).
            conn.execute("ANALYZE ragix_corpus_events")
            conn.execute("SELECT gin_clean_pending_list('ragix_corpus_events_tsv'::regclass)")
            return count

        return self._run(True, go)

    def _add_terms(self, cur: Any, df: Counter) -> None:
        terms = sorted(df)
        cur.execute("INSERT INTO ragix_corpus_terms (corpus, term, df) "
                    "SELECT %s, t, d FROM unnest(%s::text[], %s::bigint[]) AS u(t, d) ORDER BY t "
                    "ON CONFLICT (corpus, term) DO UPDATE SET df = ragix_corpus_terms.df + excluded.df",
                    (self.corpus, terms, [df[t] for t in terms]))

    # --- searching ------------------------------------------------------------

    def search_events(self, query: str, top_k: int = 5, now: Now = None) -> List[ScoredEvent]:
        """Best ``top_k`` live events for ``query``: BM25 × recency × outcome (spec 001 Phase 4)."""
        from ragix_core.memory.fts_query import query_terms

        terms = query_terms(query)
        if top_k <= 0 or not terms:
            return []
        now_ts = epoch(now)
        cutoff = now_ts - self.max_age_days * DAY
        pool, df, n_docs = self._run(False, lambda conn: self._candidates(conn, terms, cutoff, max(64, top_k * 8)))
        return rank_pool(pool, terms, df, n_docs, now_ts, self.max_age_days, self.name, top_k)

    def _candidates(self, conn: Any, terms: List[str], cutoff: float,
                    size: int) -> Tuple[List[Tuple[Candidate, Dict[str, Any]]], Dict[str, int], int]:
        from ragix_core.memory.index import affordable_terms, needs_top_up, top_up

        folded = list(dict.fromkeys(fold(t) for t in terms))
        df = dict(conn.execute("SELECT term, df FROM ragix_corpus_terms WHERE corpus = %s AND term = ANY(%s)",
                               (self.corpus, folded)).fetchall())
        row = conn.execute("SELECT n_docs, n_words FROM ragix_corpora WHERE name = %s", (self.corpus,)).fetchone()
        n_docs, n_words = (int(row[0]), int(row[1])) if row else (0, 0)
        # Stage 1: the matches of the rarest words, as many words as the budget allows, in FTS5's bm25() order.
        affordable = [t for t in affordable_terms(folded, df) if df.get(t, 0)]
        ids: List[int] = []
        if affordable:
            params: Dict[str, Any] = {"corpus": self.corpus, "q": tsquery_literal(affordable), "cutoff": cutoff,
                                      "size": size, "avgdl": max(n_words / max(n_docs, 1), 1e-9)}
            for i, t in enumerate(affordable):
                params[f"t{i}"], params[f"idf{i}"] = t, fts5_idf(df[t], n_docs)
            ids = [r[0] for r in conn.execute(stage1_sql(len(affordable)), params)]
        # Stage 2: top up with the newest matches of all the words.
        if needs_top_up(ids, size, folded, affordable, df):
            top_up(ids, (r[0] for r in conn.execute(
                "SELECT id FROM ragix_corpus_events WHERE corpus = %s AND tsv @@ %s::tsquery AND ts >= %s "
                "ORDER BY id DESC LIMIT %s", (self.corpus, tsquery_literal(folded), cutoff, size * 2))), size)
        if not ids:
            return [], df, n_docs
        # In id order, as the local index returns its pool: equal scores then tie the same way.
        rows = conn.execute("SELECT id, ts, outcome, recovery, record FROM ragix_corpus_events "
                            "WHERE id = ANY(%s) ORDER BY id", (ids,)).fetchall()
        pool = [((rid, rid, ts, outcome, bool(recovery)), json.loads(record))
                for rid, ts, outcome, recovery, record in rows]
        return pool, df, n_docs

    # --- maintenance ----------------------------------------------------------

    def prune(self, now: Now = None) -> int:
        """Delete events older than ``max_age_days`` (undated ones are kept); returns how many."""
        cutoff = epoch(now) - self.max_age_days * DAY

        def go(conn: Any) -> int:
            with conn.transaction():
                conn.execute("SELECT 1 FROM ragix_corpora WHERE name = %s FOR UPDATE", (self.corpus,))
                removed, words = conn.execute(
                    """WITH gone AS (DELETE FROM ragix_corpus_events WHERE corpus = %(c)s AND ts < %(cut)s
                                     RETURNING tsv, dl),
                            lex AS (SELECT u.lexeme AS term, count(*) AS n FROM gone, unnest(gone.tsv) AS u
                                    GROUP BY u.lexeme),
                            upd AS (UPDATE ragix_corpus_terms t SET df = t.df - lex.n FROM lex
                                    WHERE t.corpus = %(c)s AND t.term = lex.term RETURNING 1)
                       SELECT (SELECT count(*) FROM gone), (SELECT coalesce(sum(dl), 0) FROM gone),
                              (SELECT count(*) FROM upd)""",
                    {"c": self.corpus, "cut": cutoff}).fetchone()[:2]
                conn.execute("DELETE FROM ragix_corpus_terms WHERE corpus = %s AND df <= 0", (self.corpus,))
                conn.execute("UPDATE ragix_corpora SET n_docs = n_docs - %s, n_words = n_words - %s WHERE name = %s",
                             (removed, words, self.corpus))
                return int(removed)

        return self._run(True, go)

    def count_expired(self, now: Now = None) -> int:
        cutoff = epoch(now) - self.max_age_days * DAY
        return self._run(False, lambda conn: conn.execute(
            "SELECT count(*) FROM ragix_corpus_events WHERE corpus = %s AND ts < %s",
            (self.corpus, cutoff)).fetchone()[0])

    def rebuild(self) -> int:
        """Recompute every event's searched data, the term frequencies and the count from the stored records."""

        def go(conn: Any) -> int:
            with conn.transaction(), conn.cursor() as cur:
                cur.execute("SELECT 1 FROM ragix_corpora WHERE name = %s FOR UPDATE", (self.corpus,))
                last = 0
                while True:
                    page = cur.execute("SELECT id, record FROM ragix_corpus_events WHERE corpus = %s AND id > %s "
                                       "ORDER BY id LIMIT %s", (self.corpus, last, _PAGE)).fetchall()
                    if not page:
                        break
                    updates = []
                    for rid, text in page:
                        stored = json.loads(text)
                        ts, outcome, event_type, recovery = record_facts(stored)
                        tsv, counts, dl = tsvector_literal(indexed_fields(stored))
                        updates.append((ts, outcome, event_type, recovery, dl, json.dumps(counts, ensure_ascii=False),
                                        tsv, rid))
                    cur.executemany("UPDATE ragix_corpus_events SET ts = %s, outcome = %s, event_type = %s, "
                                    "recovery = %s, dl = %s, tf = %s::jsonb, tsv = %s::tsvector WHERE id = %s",
                                    updates)
                    last = page[-1][0]
                cur.execute("DELETE FROM ragix_corpus_terms WHERE corpus = %s", (self.corpus,))
                cur.execute("INSERT INTO ragix_corpus_terms (corpus, term, df) SELECT %s, word, ndoc FROM "
                            "ts_stat(format('SELECT tsv FROM ragix_corpus_events WHERE corpus = %%L', %s::text))",
                            (self.corpus, self.corpus))
                count, words = cur.execute("SELECT count(*), coalesce(sum(dl), 0) FROM ragix_corpus_events "
                                           "WHERE corpus = %s", (self.corpus,)).fetchone()
                cur.execute("UPDATE ragix_corpora SET n_docs = %s, n_words = %s WHERE name = %s",
                            (count, words, self.corpus))
                return int(count)

        return self._run(True, go)

    def stats(self, now: Now = None) -> Dict[str, Any]:
        from ragix_core.memory.records import format_timestamp

        cutoff = epoch(now) - self.max_age_days * DAY

        def go(conn: Any) -> Tuple[Any, ...]:
            return conn.execute(
                "SELECT count(*), min(ts), max(ts), count(*) FILTER (WHERE ts IS NULL), "
                "count(*) FILTER (WHERE ts < %s), pg_total_relation_size('ragix_corpus_events') "
                "FROM ragix_corpus_events WHERE corpus = %s", (cutoff, self.corpus)).fetchone()

        events, oldest, newest, undated, expired, table_bytes = self._run(False, go)
        return {"name": self.name, "backend": self.backend, "location": self.location, "events": int(events),
                "undated": int(undated), "oldest": format_timestamp(oldest), "newest": format_timestamp(newest),
                "max_age_days": self.max_age_days, "expired": int(expired), "table_bytes": int(table_bytes)}

    def records(self) -> Iterator[Dict[str, Any]]:
        """Every stored event in append (id) order, one page per round trip."""
        last = 0
        while True:
            after = last
            page = self._run(False, lambda conn: conn.execute(
                "SELECT id, record FROM ragix_corpus_events WHERE corpus = %s AND id > %s ORDER BY id LIMIT %s",
                (self.corpus, after, _PAGE)).fetchall())
            if not page:
                return
            for _rid, text in page:
                yield json.loads(text)
            last = page[-1][0]
