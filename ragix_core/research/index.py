"""A directory's documents in SQLite FTS5 (BM25), updated incrementally by content hash.

The small API other engines use (spec 003's chat search reuses it)::

    index = DocumentIndex.open("docs/")            # <docs>/.ragix/, else a per-user cache
    stats = index.update()                         # build or catch up; unreadable files counted
    for hit in index.search("how to rotate keys", k=5):
        hit.path, hit.chunk, hit.text, hit.score   # path relative to docs/, chunk id "path#ord"
    index.get("guide/keys.md#3")                   # one chunk back by id (None if gone)
    index.chunks_of("guide/keys.md")               # a document's chunks, in order

``update`` re-reads a file only when its size or mtime changed, and re-indexes it only
when its sha256 changed; files that disappeared are dropped. A file that cannot be
read is recorded with its reason (so it is not re-read until it changes) and counted.
Search words are quoted one by one (``memory.fts_query``), so no user text reaches the
FTS5 query language; ranking is FTS5's BM25 with the title and headings weighted up.
"""

from __future__ import annotations

import datetime as _dt
import hashlib
import os
import sqlite3
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Dict, List, Optional, Tuple

from ragix_core.memory.fts_query import match_expression, query_terms

from .chunking import chunk_blocks
from .documents import MissingParser, Unreadable, kind_of, read_document

__all__ = ["DocumentIndex", "Hit", "IndexStats", "IndexError_", "index_location", "INDEX_FILE"]

INDEX_FILE = "research_index.sqlite"
SCHEMA_VERSION = "3"  # 3: a paragraph of one bold phrase is a heading (documents.py)
_BATCH = 100  # files per transaction
_WEIGHTS = (3.0, 2.0, 1.0)  # bm25 weights of title, heading, text

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta(key TEXT PRIMARY KEY, value TEXT);
CREATE TABLE IF NOT EXISTS docs(path TEXT PRIMARY KEY, sha256 TEXT NOT NULL, size INTEGER, mtime_ns INTEGER,
  kind TEXT, title TEXT, date TEXT, n_chunks INTEGER);
CREATE TABLE IF NOT EXISTS skipped(path TEXT PRIMARY KEY, size INTEGER, mtime_ns INTEGER, reason TEXT);
CREATE TABLE IF NOT EXISTS chunks(id INTEGER PRIMARY KEY, path TEXT NOT NULL, ord INTEGER NOT NULL,
  title TEXT, heading TEXT, text TEXT);
CREATE INDEX IF NOT EXISTS chunks_path ON chunks(path, ord);
CREATE VIRTUAL TABLE IF NOT EXISTS chunks_fts USING fts5(title, heading, text, content='chunks',
  content_rowid='id', tokenize='porter unicode61 remove_diacritics 2');
DROP TRIGGER IF EXISTS chunks_ai;
CREATE TRIGGER IF NOT EXISTS chunks_ad AFTER DELETE ON chunks BEGIN
  INSERT INTO chunks_fts(chunks_fts, rowid, title, heading, text)
  VALUES ('delete', old.id, old.title, old.heading, old.text); END;
"""


class IndexError_(RuntimeError):
    """The index cannot be opened or written; the message names the path and the reason."""


@dataclass
class Hit:
    path: str  # relative to the indexed directory, "/" separated
    chunk: str  # "path#ord"
    text: str
    score: float  # BM25, higher is better (0 for a chunk fetched by id)
    title: str = ""
    heading: str = ""
    date: Optional[str] = None

    def to_dict(self) -> Dict[str, object]:
        return {"path": self.path, "chunk": self.chunk, "text": self.text, "score": self.score,
                "title": self.title, "heading": self.heading, "date": self.date}


@dataclass
class IndexStats:
    files: int = 0  # supported files seen
    indexed: int = 0  # new or changed, (re)indexed now
    unchanged: int = 0
    removed: int = 0
    skipped: Counter = field(default_factory=Counter)  # reason kind -> count (unreadable, unsupported...)
    skipped_examples: List[str] = field(default_factory=list)  # "path: reason", bounded
    documents: int = 0  # in the index after the update
    chunks: int = 0
    seconds: float = 0.0

    @property
    def skipped_total(self) -> int:
        return sum(self.skipped.values())

    def to_dict(self) -> Dict[str, object]:
        return {"files": self.files, "indexed": self.indexed, "unchanged": self.unchanged, "removed": self.removed,
                "skipped": dict(self.skipped), "skipped_examples": self.skipped_examples,
                "documents": self.documents, "chunks": self.chunks, "seconds": round(self.seconds, 3)}


def _cache_root() -> Path:
    import platformdirs

    return Path(platformdirs.user_cache_dir("ragix")) / "research"


def _usable(directory: Path) -> bool:
    try:
        directory.mkdir(parents=True, exist_ok=True)
        probe = directory / f".probe-{os.getpid()}"
        probe.write_bytes(b"")
        probe.unlink()
        return True
    except OSError:
        return False


def _system_tree(path: Path) -> bool:
    from ragix_core.tools.paths import SYSTEM_TREES

    real = os.path.realpath(path)
    return any(real == t or real.startswith(t.rstrip("/") + "/") for t in SYSTEM_TREES)


def index_location(docs_dir: Path, explicit: Optional[Path] = None) -> Path:
    """The folder holding the index and the research logs: ``explicit``, else ``<docs>/.ragix``,
    else (a read-only collection, or one in a system tree such as /usr/share/doc, which ragix does
    not write into even as root) ``<user cache>/ragix/research/<hash of the docs path>``."""
    if explicit is not None:
        explicit = Path(explicit).expanduser()
        if not _usable(explicit):
            raise IndexError_(f"--index {explicit}: cannot create or write this directory")
        return explicit
    local = docs_dir / ".ragix"
    if not _system_tree(docs_dir) and _usable(local):
        return local
    cached = _cache_root() / hashlib.sha1(str(docs_dir).encode()).hexdigest()[:16]
    if not _usable(cached):
        raise IndexError_(f"neither {local} nor {cached} can be written; pass --index DIR")
    return cached


def _iso_mtime(mtime_ns: int) -> str:
    return _dt.datetime.fromtimestamp(mtime_ns / 1e9, _dt.timezone.utc).date().isoformat()


class DocumentIndex:
    """The index of one directory's documents. Open with ``DocumentIndex.open``."""

    def __init__(self, docs_dir: Path, location: Path) -> None:
        self.docs_dir = Path(docs_dir).resolve()
        self.location = Path(location)
        self.db_path = self.location / INDEX_FILE
        try:
            self.db = sqlite3.connect(str(self.db_path), timeout=30, isolation_level=None, check_same_thread=False)
            self.db.execute("PRAGMA journal_mode=WAL")
            self.db.execute("PRAGMA synchronous=NORMAL")
            self.db.executescript(_SCHEMA)
            meta = dict(self.db.execute("SELECT key, value FROM meta").fetchall())
        except sqlite3.DatabaseError as exc:
            raise IndexError_(f"index {self.db_path} cannot be opened: {exc}") from None
        if meta.get("schema") != SCHEMA_VERSION or meta.get("root") != str(self.docs_dir):
            self._reset()

    @classmethod
    def open(cls, docs_dir: "os.PathLike[str] | str", index_dir: "os.PathLike[str] | str | None" = None) -> "DocumentIndex":
        docs = Path(docs_dir).expanduser()
        if not docs.is_dir():
            raise IndexError_(f"documents directory not found or not a directory: {docs}")
        docs = docs.resolve()
        return cls(docs, index_location(docs, Path(index_dir) if index_dir else None))

    def close(self) -> None:
        self.db.close()

    def _reset(self) -> None:
        with self._tx():
            for table in ("docs", "skipped", "chunks", "meta"):
                self.db.execute(f"DELETE FROM {table}")
            self.db.execute("INSERT INTO chunks_fts(chunks_fts) VALUES('delete-all')")
            self.db.executemany("INSERT INTO meta(key, value) VALUES(?, ?)",
                                [("schema", SCHEMA_VERSION), ("root", str(self.docs_dir))])

    def _tx(self):
        db = self.db

        class _Tx:
            def __enter__(self_inner):
                db.execute("BEGIN IMMEDIATE")

            def __exit__(self_inner, exc_type, exc, tb):
                db.execute("COMMIT" if exc_type is None else "ROLLBACK")
                return False

        return _Tx()

    # -- building ------------------------------------------------------------------------

    def _walk(self, stats: IndexStats) -> List[Tuple[str, Path, os.stat_result]]:
        """Supported regular files under the directory (hidden folders such as .ragix and .git
        skipped; a symlink leading outside the directory is skipped and counted)."""
        out = []
        for dirpath, dirnames, filenames in os.walk(self.docs_dir):
            dirnames[:] = sorted(d for d in dirnames if not d.startswith("."))
            for name in sorted(filenames):
                if name.startswith("."):
                    continue
                path = Path(dirpath) / name
                rel = path.relative_to(self.docs_dir).as_posix()
                if kind_of(path) is None:
                    stats.skipped["unsupported type"] += 1
                    continue
                try:
                    if path.is_symlink():
                        target = path.resolve()
                        if self.docs_dir not in target.parents:
                            self._note_skip(stats, "outside the directory", rel, "symlink leads outside")
                            continue
                    st = path.stat()
                except OSError as exc:
                    self._note_skip(stats, "unreadable", rel, exc.strerror or str(exc))
                    continue
                if not path.is_file():
                    continue
                out.append((rel, path, st))
        return out

    @staticmethod
    def _note_skip(stats: IndexStats, kind: str, rel: str, reason: str) -> None:
        stats.skipped[kind] += 1
        if len(stats.skipped_examples) < 20:
            stats.skipped_examples.append(f"{rel}: {reason}")

    def update(self, progress: Optional[Callable[[int, int, str], None]] = None) -> IndexStats:
        """Bring the index up to date with the directory; never raises for one bad file."""
        start = time.perf_counter()
        stats = IndexStats()
        files = self._walk(stats)
        stats.files = len(files)
        known = {row[0]: row[1:] for row in self.db.execute("SELECT path, size, mtime_ns, sha256 FROM docs")}
        skipped_known = {row[0]: row[1:] for row in self.db.execute("SELECT path, size, mtime_ns, reason FROM skipped")}
        seen = set()
        pending: List[Tuple[str, Path, os.stat_result, Optional[bytes], Optional[str]]] = []
        for n, (rel, path, st) in enumerate(files, start=1):
            seen.add(rel)
            if progress is not None:
                progress(n, len(files), rel)
            old = known.get(rel)
            if old is not None and old[0] == st.st_size and old[1] == st.st_mtime_ns:
                stats.unchanged += 1
                continue
            old_skip = skipped_known.get(rel)
            if old_skip is not None and old_skip[0] == st.st_size and old_skip[1] == st.st_mtime_ns:
                self._note_skip(stats, "unreadable", rel, old_skip[2])
                continue
            try:
                data = path.read_bytes()
            except OSError as exc:
                self._record_skip(rel, st, exc.strerror or str(exc), stats)
                continue
            digest = hashlib.sha256(data).hexdigest()
            if old is not None and old[2] == digest:  # touched, not changed
                self.db.execute("UPDATE docs SET size = ?, mtime_ns = ? WHERE path = ?",
                                (st.st_size, st.st_mtime_ns, rel))
                stats.unchanged += 1
                continue
            pending.append((rel, path, st, data, digest))
            if len(pending) >= _BATCH:
                self._index_batch(pending, stats)
                pending = []
        self._index_batch(pending, stats)
        gone = [p for p in known if p not in seen]
        with self._tx():
            for rel in gone:
                self.db.execute("DELETE FROM chunks WHERE path = ?", (rel,))
                self.db.execute("DELETE FROM docs WHERE path = ?", (rel,))
            self.db.execute("DELETE FROM skipped WHERE path NOT IN (SELECT value FROM json_each(?))",
                            (_json_list(seen),))
        stats.removed = len(gone)
        stats.documents, stats.chunks = self.counts()
        stats.seconds = time.perf_counter() - start
        return stats

    def _record_skip(self, rel: str, st: os.stat_result, reason: str, stats: IndexStats) -> None:
        self._note_skip(stats, "unreadable", rel, reason)
        with self._tx():
            self.db.execute("DELETE FROM chunks WHERE path = ?", (rel,))
            self.db.execute("DELETE FROM docs WHERE path = ?", (rel,))
            self.db.execute("INSERT OR REPLACE INTO skipped(path, size, mtime_ns, reason) VALUES(?,?,?,?)",
                            (rel, st.st_size, st.st_mtime_ns, reason))

    def _index_batch(self, batch, stats: IndexStats) -> None:
        parsed = []
        for rel, path, st, data, digest in batch:
            try:
                doc = read_document(path, data)
            except MissingParser as exc:
                raise IndexError_(f"{rel}: {exc}") from None
            except Unreadable as exc:
                self._record_skip(rel, st, str(exc), stats)
                continue
            except (RecursionError, MemoryError, ValueError) as exc:  # a pathological file: this file only
                self._record_skip(rel, st, f"{type(exc).__name__}: {exc}", stats)
                continue
            chunks = chunk_blocks(doc.blocks)
            if not chunks:
                self._record_skip(rel, st, "no text", stats)
                continue
            parsed.append((rel, st, digest, doc, chunks, kind_of(path)))
        if not parsed:
            return
        with self._tx():
            for rel, *_ in parsed:
                self.db.execute("DELETE FROM chunks WHERE path = ?", (rel,))
                self.db.execute("DELETE FROM skipped WHERE path = ?", (rel,))
            # New chunks reach the FTS table in one INSERT ... SELECT per batch, not a trigger per row;
            # every id from here on is new (the deletes above came first).
            first_new = self.db.execute("SELECT coalesce(max(id), 0) + 1 FROM chunks").fetchone()[0]
            for rel, st, digest, doc, chunks, kind in parsed:
                self.db.execute("INSERT OR REPLACE INTO docs(path, sha256, size, mtime_ns, kind, title, date, n_chunks) "
                                "VALUES(?,?,?,?,?,?,?,?)", (rel, digest, st.st_size, st.st_mtime_ns, kind, doc.title,
                                                            doc.date or _iso_mtime(st.st_mtime_ns), len(chunks)))
                self.db.executemany("INSERT INTO chunks(path, ord, title, heading, text) VALUES(?,?,?,?,?)",
                                    [(rel, c.ord, doc.title, c.heading, c.text) for c in chunks])
                stats.indexed += 1
            self.db.execute("INSERT INTO chunks_fts(rowid, title, heading, text) "
                            "SELECT id, title, heading, text FROM chunks WHERE id >= ?", (first_new,))

    # -- reading -------------------------------------------------------------------------

    def counts(self) -> Tuple[int, int]:
        docs = self.db.execute("SELECT count(*) FROM docs").fetchone()[0]
        chunks = self.db.execute("SELECT count(*) FROM chunks").fetchone()[0]
        return docs, chunks

    def search(self, query: str, k: int = 6, *, accept: Optional[Callable[[str], bool]] = None,
               since: Optional[str] = None, until: Optional[str] = None) -> List[Hit]:
        """The ``k`` best chunks for ``query`` (BM25); ``accept(path)`` filters documents (a mode's
        tier rule), ``since``/``until`` (ISO dates, inclusive) the document's date."""
        expr = match_expression(query_terms(query))
        if expr is None or k <= 0:
            return []
        where, args = ["chunks_fts MATCH ?"], [expr]
        if since:
            where.append("d.date >= ?")
            args.append(since)
        if until:
            where.append("d.date <= ?")
            args.append(until)
        sql = (f"SELECT c.path, c.ord, c.text, bm25(chunks_fts, {', '.join(map(str, _WEIGHTS))}) AS r, "
               "c.title, c.heading, d.date FROM chunks_fts JOIN chunks c ON c.id = chunks_fts.rowid "
               f"JOIN docs d ON d.path = c.path WHERE {' AND '.join(where)} ORDER BY r LIMIT ? OFFSET ?")
        hits: List[Hit] = []
        page = max(k * 4, 20)
        for offset in range(0, page * 10, page):  # a filter may reject many: look at most 10 pages
            rows = self.db.execute(sql, (*args, page, offset)).fetchall()
            for path, ord_, text, rank, title, heading, date in rows:
                if accept is None or accept(path):
                    hits.append(Hit(path, f"{path}#{ord_}", text, round(-rank, 4), title or "", heading or "", date))
                    if len(hits) >= k:
                        return hits
            if len(rows) < page:
                break
        return hits

    def get(self, chunk_id: str) -> Optional[Hit]:
        path, sep, ord_ = str(chunk_id).rpartition("#")
        if not sep or not ord_.isdigit():
            return None
        row = self.db.execute("SELECT c.text, c.title, c.heading, d.date FROM chunks c JOIN docs d ON d.path = c.path "
                              "WHERE c.path = ? AND c.ord = ?", (path, int(ord_))).fetchone()
        if row is None:
            return None
        return Hit(path, f"{path}#{ord_}", row[0], 0.0, row[1] or "", row[2] or "", row[3])

    def chunks_of(self, path: str, limit: int = 400) -> List[Hit]:
        """The chunks of one document, in order (the first ``limit``; none for a path not indexed)."""
        rows = self.db.execute("SELECT c.ord, c.text, c.title, c.heading, d.date FROM chunks c JOIN docs d "
                               "ON d.path = c.path WHERE c.path = ? ORDER BY c.ord LIMIT ?", (path, limit)).fetchall()
        return [Hit(path, f"{path}#{o}", text, 0.0, title or "", heading or "", date) for o, text, title, heading, date in rows]

    def documents(self) -> List[Dict[str, object]]:
        return [{"path": p, "title": t, "date": d, "chunks": n}
                for p, t, d, n in self.db.execute("SELECT path, title, date, n_chunks FROM docs ORDER BY path")]

    def titles_matching(self, term: str, limit: int = 20) -> List[Tuple[str, str]]:
        """(path, title) of documents whose title contains ``term`` (case-insensitive)."""
        like = "%" + term.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"
        return list(self.db.execute("SELECT path, title FROM docs WHERE title LIKE ? ESCAPE '\\' ORDER BY path LIMIT ?",
                                    (like, limit)))


def _json_list(values) -> str:
    import json

    return json.dumps(sorted(values))
