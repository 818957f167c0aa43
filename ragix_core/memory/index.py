"""Derived SQLite FTS5 index of a JSONL event log (a sidecar ``*.index.sqlite``).

The JSONL file is the truth; the index is a cache of it that can always be
thrown away. On every use it catches up from the byte offset it reached last
time, in batches (one transaction each), so the file is never loaded whole.
It rebuilds from zero when the JSONL was replaced or shrank (inode, size and
two small fingerprints of the indexed prefix are checked) and when the
database is corrupt. If it cannot be written (read-only place) it lives in
memory; if the disk is full it answers from what it already has.

The FTS table is contentless: it holds only the inverted index. Texts shown to
the user are read back from the JSONL at the stored byte offset.

Query cost is bounded (see ``candidates``; BM25 ranking inside SQLite costs
about 1.3 µs per matched row, plain matching 0.02 µs). The pool of candidates
is the BM25 top of the rarest query words that fit ``MATCH_BUDGET`` matched
rows, topped up with the newest matches of all words; ``rerank`` then scores
the pool exactly with every word. A query made only of very common words thus
looks at their newest matches, which recency weighting favours anyway.
"""

from __future__ import annotations

import hashlib
from collections import Counter
import os
from pathlib import Path
from typing import Any, Dict, Iterable, List, Optional, Sequence, Tuple

from .errors import CorpusReadError
from .jsonl_log import LogReader
from .hits import Candidate
from .records import MAX_FIELD_CHARS, indexed_fields, record_facts
from .rerank import fold as _fold
from .rerank import tokens

__all__ = ["ExperienceIndex", "Candidate", "MATCH_BUDGET", "affordable_terms", "needs_top_up", "top_up", "MAX_FIELD_CHARS", "SCHEMA_VERSION"]

SCHEMA_VERSION = "2"
BATCH = 5000
MATCH_BUDGET = 3_000  # matched rows we accept to BM25-rank inside SQLite per query (~1.3 µs each)
_FP_HEAD = 4096
_FP_TAIL = 64
_REBUILD_CODES = {11, 26}  # SQLITE_CORRUPT, SQLITE_NOTADB
_DEGRADE_CODES = {8, 10, 13, 14}  # READONLY, IOERR, FULL, CANTOPEN


_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta(key TEXT PRIMARY KEY, value TEXT);
CREATE TABLE IF NOT EXISTS docs(
  id INTEGER PRIMARY KEY, ts REAL, outcome TEXT, event_type TEXT,
  recovery INTEGER NOT NULL DEFAULT 0, offset INTEGER NOT NULL);
CREATE VIRTUAL TABLE IF NOT EXISTS fts USING fts5(
  goal, step_description, error, llm_critique,
  content='', tokenize='unicode61 remove_diacritics 2');
CREATE TABLE IF NOT EXISTS terms(term TEXT PRIMARY KEY, df INTEGER NOT NULL) WITHOUT ROWID;
"""



def affordable_terms(folded: Sequence[str], df: Dict[str, int], budget: Optional[int] = None) -> List[str]:
    """The rarest query words whose matches together fit ``budget`` rows (default MATCH_BUDGET)."""
    budget = MATCH_BUDGET if budget is None else budget
    affordable: List[str] = []
    estimate = 0
    for term in sorted(folded, key=lambda t: df.get(t, 0)):
        if estimate + df.get(term, 0) > budget:
            break
        affordable.append(term)
        estimate += df.get(term, 0)
    return affordable


def needs_top_up(ids: Sequence[int], pool: int, folded: Sequence[str], affordable: Sequence[str],
                 df: Dict[str, int]) -> bool:
    """Stage 2 is needed: the pool is not full and some word left out of stage 1 matches something."""
    return len(ids) < pool and any(df.get(t, 0) for t in folded if t not in affordable)


def top_up(ids: List[int], newest: Iterable[int], pool: int) -> None:
    """Append to ``ids`` the ``newest`` matches it lacks, until it holds ``pool``."""
    seen = set(ids)
    for rid in newest:
        if rid not in seen:
            ids.append(rid)
            seen.add(rid)
            if len(ids) >= pool:
                break


def _code(exc: BaseException) -> Optional[int]:
    code = getattr(exc, "sqlite_errorcode", None)
    return code & 0xFF if isinstance(code, int) else None


class ExperienceIndex:
    def __init__(self, jsonl_path: "os.PathLike[str] | str", db_path: "os.PathLike[str] | str | None" = None) -> None:
        self.jsonl_path = Path(jsonl_path)
        stem = self.jsonl_path.name[: -len(".jsonl")] if self.jsonl_path.name.endswith(".jsonl") else self.jsonl_path.name
        self.db_path = Path(db_path) if db_path else self.jsonl_path.with_name(stem + ".index.sqlite")
        self._db: Any = None
        self.in_memory = False
        self.stale = False  # last catch-up could not write (disk full): answers may miss new events
        self.rebuilds = 0
        # Cached (generation, cutoff, first live id); generation changes when any process resets ids.
        self._ttl: Tuple[str, float, int] = ("", float("-inf"), 0)

    # --- connection ---------------------------------------------------------

    def _connect(self) -> Any:
        if self._db is not None:
            return self._db
        import sqlite3  # lazy: keeps `import ragix_core.reasoning_v30` light

        db = None
        try:
            db = sqlite3.connect(str(self.db_path), timeout=30, isolation_level=None)
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=NORMAL")
            db.executescript(_SCHEMA)
        except sqlite3.DatabaseError as exc:
            if db is not None:
                db.close()
            if _code(exc) in _REBUILD_CODES or not isinstance(exc, sqlite3.OperationalError):
                raise  # handled by _guard: delete and rebuild
            # Cannot create or write the sidecar (read-only dir...): index in memory instead.
            db = sqlite3.connect(":memory:", isolation_level=None)
            db.executescript(_SCHEMA)
            self.in_memory = True
        if self._meta(db).get("schema") != SCHEMA_VERSION:
            self._reset(db)
        self._db = db
        return db

    def close(self) -> None:
        if self._db is not None:
            self._db.close()
            self._db = None

    def _delete_files(self) -> None:
        self.close()
        for suffix in ("", "-wal", "-shm", "-journal"):
            try:
                os.unlink(str(self.db_path) + suffix)
            except FileNotFoundError:
                pass
            except OSError as exc:
                raise CorpusReadError(self.db_path, exc) from None

    def _guard(self, fn: Any, *args: Any) -> Any:
        """Run ``fn``; on a corrupt database delete it and run again on a fresh one."""
        import sqlite3

        try:
            return fn(*args)
        except sqlite3.DatabaseError as exc:
            if isinstance(exc, sqlite3.OperationalError) and _code(exc) not in _REBUILD_CODES:
                if "no such" not in str(exc):  # locked/busy/full are not corruption
                    raise CorpusReadError(self.db_path, exc) from None
            self._delete_files()
            self.rebuilds += 1
            return fn(*args)

    # --- metadata -----------------------------------------------------------

    @staticmethod
    def _meta(db: Any) -> Dict[str, str]:
        return dict(db.execute("SELECT key, value FROM meta").fetchall())

    @staticmethod
    def _set_meta(db: Any, values: Dict[str, Any]) -> None:
        db.executemany("INSERT OR REPLACE INTO meta(key, value) VALUES(?, ?)",
                       [(k, str(v)) for k, v in values.items()])

    def _reset(self, db: Any) -> None:
        db.execute("BEGIN IMMEDIATE")
        try:
            generation = int(self._meta(db).get("generation", 0)) + 1
            db.execute("DELETE FROM docs")
            db.execute("DELETE FROM terms")
            db.execute("DELETE FROM meta")
            db.execute("INSERT INTO fts(fts) VALUES('delete-all')")
            self._set_meta(db, {"schema": SCHEMA_VERSION, "offset": 0, "skipped": 0, "partial_tail": 0,
                                "generation": generation})
            db.execute("COMMIT")
        except BaseException:
            if db.in_transaction:
                db.execute("ROLLBACK")
            raise
        self._ttl = ("", float("-inf"), 0)

    def _fingerprint(self, upto: int) -> Dict[str, str]:
        with open(self.jsonl_path, "rb") as f:
            head = f.read(min(upto, _FP_HEAD))
            f.seek(max(0, upto - _FP_TAIL))
            tail = f.read(min(upto, _FP_TAIL))
        return {"head": hashlib.sha1(head).hexdigest(), "tail": tail.hex()}

    def _same_file(self, meta: Dict[str, str], st: os.stat_result) -> bool:
        offset = int(meta.get("offset", 0))
        if offset == 0:
            return True
        if meta.get("ino") != str(st.st_ino) or meta.get("dev") != str(st.st_dev) or st.st_size < offset:
            return False
        fp = self._fingerprint(offset)
        return fp["head"] == meta.get("head") and fp["tail"] == meta.get("tail")

    # --- catching up --------------------------------------------------------

    def sync(self) -> int:
        """Index what was appended since last time (rebuilding if needed); returns new events."""
        return self._guard(self._sync)

    def _sync(self) -> int:
        import sqlite3

        db = self._connect()
        try:
            return self._catch_up(db)
        except sqlite3.OperationalError as exc:
            if _code(exc) in _DEGRADE_CODES:
                self.stale = True  # serve what we have; the JSONL is intact
                return 0
            raise

    def _catch_up(self, db: Any) -> int:
        added = 0
        for _attempt in range(100):  # another process may be indexing too: follow its progress
            try:
                st = os.stat(self.jsonl_path)
            except FileNotFoundError:
                if int(self._meta(db).get("offset", 0)):
                    self._reset(db)
                return added
            except OSError as exc:
                raise CorpusReadError(self.jsonl_path, exc) from None
            meta = self._meta(db)
            if not self._same_file(meta, st):
                self._reset(db)
                meta = self._meta(db)
            start = int(meta.get("offset", 0))
            if st.st_size <= start:
                self.stale = False
                return added
            reader = LogReader(self.jsonl_path, start=start, stop=None)
            base_skipped = int(meta.get("skipped", 0))
            batch: List[Tuple[int, Dict[str, Any]]] = []
            pos = start
            raced = False
            for offset, record in reader:
                batch.append((offset, record))
                if len(batch) >= BATCH:
                    if not self._flush(db, batch, pos, reader.end_offset, base_skipped + reader.skipped, False, st):
                        raced = True
                        break
                    added += len(batch)
                    pos, batch = reader.end_offset, []
            if not raced:
                if self._flush(db, batch, pos, reader.end_offset, base_skipped + reader.skipped,
                               reader.partial_tail, st):
                    added += len(batch)
                    self.stale = False
                    return added
        return added

    def _flush(self, db: Any, batch: Sequence[Tuple[int, Dict[str, Any]]], expected: int, end: int,
               skipped: int, partial_tail: bool, st: os.stat_result) -> bool:
        """Insert one batch in one transaction; False if another process moved the offset first."""
        db.execute("BEGIN IMMEDIATE")
        try:
            if int(self._meta(db).get("offset", 0)) != expected:
                db.execute("ROLLBACK")
                return False
            next_id = db.execute("SELECT coalesce(max(id), 0) + 1 FROM docs").fetchone()[0]
            docs, texts = [], []
            df: Counter = Counter()
            for i, (offset, rec) in enumerate(batch):
                ts, outcome, event_type, recovery = record_facts(rec)
                docs.append((next_id + i, ts, outcome, event_type, int(recovery), offset))
                fields = indexed_fields(rec)
                texts.append((next_id + i, *fields))
                df.update(set(tokens(" ".join(fields))))
            db.executemany("INSERT INTO docs(id, ts, outcome, event_type, recovery, offset) VALUES(?,?,?,?,?,?)", docs)
            db.executemany("INSERT INTO fts(rowid, goal, step_description, error, llm_critique) VALUES(?,?,?,?,?)", texts)
            # Our own document frequencies: fts5vocab computes them by walking whole doclists
            # (measured 15-45 ms per query at 1M events); this table answers in microseconds.
            db.executemany("INSERT INTO terms(term, df) VALUES(?, ?) "
                           "ON CONFLICT(term) DO UPDATE SET df = df + excluded.df", df.items())
            meta = {"offset": end, "skipped": skipped, "partial_tail": int(partial_tail),
                    "ino": st.st_ino, "dev": st.st_dev}
            meta.update(self._fingerprint(end))
            self._set_meta(db, meta)
            db.execute("COMMIT")
            return True
        except BaseException:
            if db.in_transaction:
                db.execute("ROLLBACK")
            raise

    def rebuild(self) -> int:
        """Index the whole JSONL again from zero; returns the number of new events indexed.

        The tables are emptied in a transaction rather than the file deleted:
        other processes may have the database open, and must keep sharing it.
        """
        self.rebuilds += 1

        def reset_and_sync() -> int:
            self._reset(self._connect())
            return self._sync()

        return self._guard(reset_and_sync)

    # --- querying -----------------------------------------------------------

    def candidates(self, terms: Sequence[str], cutoff: float, pool: int) -> Tuple[List[Candidate], Dict[str, int], int]:
        """Up to ``pool`` candidate events newer than ``cutoff`` for ``terms``.

        Returns ``(candidates, df, n_docs)``: document frequencies of the (folded)
        terms and the number of indexed events, for exact re-scoring of the pool.
        """
        self.sync()
        return self._guard(self._candidates, list(terms), cutoff, pool)

    def _first_live_id(self, db: Any, cutoff: float) -> Optional[int]:
        # Ids follow append order, so the first event newer than the cutoff bounds every live id.
        # The answer only moves forward as the cutoff does: resume from the cached one, unless
        # the ids were renumbered since (a rebuild here or in another process).
        generation = self._meta(db).get("generation", "")
        cached_gen, cached_cutoff, cached_id = self._ttl
        start = cached_id if (generation == cached_gen and cutoff >= cached_cutoff) else 0
        row = db.execute("SELECT id FROM docs WHERE id >= ? AND ts >= ? ORDER BY id LIMIT 1",
                         (start, cutoff)).fetchone()
        if row is None:
            return None
        self._ttl = (generation, cutoff, row[0])
        return row[0]

    def _candidates(self, terms: List[str], cutoff: float, pool: int) -> Tuple[List[Candidate], Dict[str, int], int]:
        from .fts_query import match_expression

        db = self._connect()
        if not terms or pool <= 0:
            return [], {}, 0
        lo = self._first_live_id(db, cutoff)
        if lo is None:
            return [], {}, 0
        folded = list(dict.fromkeys(_fold(t) for t in terms))
        marks = ",".join("?" * len(folded))
        df = dict(db.execute(f"SELECT term, df FROM terms WHERE term IN ({marks})", folded).fetchall())
        # Ids are dense from 1 (rows are only ever appended, or all reset): max(id) is the count.
        n_docs = db.execute("SELECT coalesce(max(id), 0) FROM docs").fetchone()[0]
        # Stage 1: BM25-rank the matches of the rarest words, as many words as the budget allows.
        affordable = affordable_terms(folded, df)
        ids: List[int] = []
        if sum(df.get(t, 0) for t in affordable):
            ids = [r[0] for r in db.execute(
                "SELECT rowid FROM fts WHERE fts MATCH ? AND rowid >= ? ORDER BY rank LIMIT ?",
                (match_expression(affordable), lo, pool))]
        # Stage 2: top up with the newest matches of all the words (cheap: no ranking, rowid order).
        if needs_top_up(ids, pool, folded, affordable, df):
            top_up(ids, (r[0] for r in db.execute(
                "SELECT rowid FROM fts WHERE fts MATCH ? AND rowid >= ? ORDER BY rowid DESC LIMIT ?",
                (match_expression(folded), lo, pool * 2))), pool)
        if not ids:
            return [], df, n_docs
        rows = db.execute(
            f"SELECT id, offset, ts, outcome, recovery FROM docs WHERE id IN ({','.join('?' * len(ids))})", ids
        ).fetchall()
        # Ids bound the TTL only approximately (out-of-order timestamps): filter exactly here.
        out = [(r[0], r[1], r[2], r[3], bool(r[4])) for r in rows if r[2] is not None and r[2] >= cutoff]
        return out, df, n_docs

    # --- facts --------------------------------------------------------------

    def stats(self) -> Dict[str, Any]:
        self.sync()
        return self._guard(self._stats)

    def _stats(self) -> Dict[str, Any]:
        db = self._connect()
        meta = self._meta(db)
        count, oldest, newest, undated = db.execute(
            "SELECT count(*), min(ts), max(ts), sum(ts IS NULL) FROM docs").fetchone()
        try:
            db_bytes = sum(os.path.getsize(str(self.db_path) + s) for s in ("", "-wal") if os.path.exists(str(self.db_path) + s))
        except OSError:
            db_bytes = 0
        return {"events": count, "oldest": oldest, "newest": newest, "undated": undated or 0,
                "skipped_lines": int(meta.get("skipped", 0)), "partial_tail": meta.get("partial_tail") == "1",
                "indexed_bytes": int(meta.get("offset", 0)), "path": ":memory:" if self.in_memory else str(self.db_path),
                "db_bytes": db_bytes, "stale": self.stale, "rebuilds": self.rebuilds}

    def count_older_than(self, cutoff: float) -> int:
        self.sync()
        return self._guard(lambda: self._connect().execute(
            "SELECT count(*) FROM docs WHERE ts < ?", (cutoff,)).fetchone()[0])
