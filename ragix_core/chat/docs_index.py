"""A local document collection, searchable: SQLite FTS5 (BM25) over the text files of one directory.

The index is a cache under ``$RAGIX_HOME/chat/docs/`` (one database per directory,
named by a hash of its real path); the files are the truth. Every search first
catches up with the directory: files whose size or mtime changed are re-read,
deleted ones dropped, so an edit is found by the next question. Each file is
split into passages at blank lines (about ``PASSAGE_CHARS`` each), so a hit
quotes the paragraph that matched, not a whole file.

Bounded: at most ``MAX_FILES`` files of at most ``MAX_FILE_BYTES`` each; binary
files (a NUL byte, or not UTF-8) and hidden directories are skipped. Queries go
through ``memory.fts_query`` (every word quoted: no FTS5 syntax can leak in).
"""

from __future__ import annotations

import hashlib
import os
import sqlite3
from dataclasses import dataclass
from pathlib import Path
from typing import Dict, Iterator, List, Optional, Tuple

from ragix_core.core.home import ragix_home
from ragix_core.memory.fts_query import match_expression, query_terms

__all__ = ["DocsIndex", "DocHit", "DocsIndexError", "MAX_FILES", "MAX_FILE_BYTES", "PASSAGE_CHARS"]

MAX_FILES = 5000
MAX_FILE_BYTES = 2 << 20
PASSAGE_CHARS = 1200
_SCHEMA = """
CREATE TABLE IF NOT EXISTS files(path TEXT PRIMARY KEY, size INTEGER, mtime_ns INTEGER);
CREATE VIRTUAL TABLE IF NOT EXISTS passages USING fts5(
  path UNINDEXED, title, body, tokenize='unicode61 remove_diacritics 2');
"""


class DocsIndexError(ValueError):
    """The document directory cannot be indexed (missing, not a directory, index unwritable)."""


@dataclass(frozen=True)
class DocHit:
    path: str  # relative to the collection's directory
    title: str
    text: str
    score: float  # BM25, higher is better


def _title(rel: str, text: str) -> str:
    for line in text.splitlines()[:20]:
        stripped = line.strip()
        if stripped.startswith("#"):
            return stripped.lstrip("#").strip()[:120] or rel
    return rel


def passages(text: str, limit: int = PASSAGE_CHARS) -> List[str]:
    """Paragraphs joined up to ``limit`` characters; a longer paragraph is cut at ``limit``."""
    out: List[str] = []
    current = ""
    for para in (p.strip() for p in text.replace("\r\n", "\n").split("\n\n")):
        if not para:
            continue
        while len(para) > limit:
            if current:
                out.append(current)
                current = ""
            out.append(para[:limit])
            para = para[limit:]
        if current and len(current) + 2 + len(para) > limit:
            out.append(current)
            current = ""
        current = f"{current}\n\n{para}" if current else para
    if current:
        out.append(current)
    return out


def _read_text(path: str) -> Optional[str]:
    try:
        with open(path, "rb") as fh:
            data = fh.read(MAX_FILE_BYTES + 1)
    except OSError:
        return None
    if len(data) > MAX_FILE_BYTES or b"\0" in data[:4096]:
        return None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return None


class DocsIndex:
    def __init__(self, directory: "os.PathLike[str] | str", db_path: "os.PathLike[str] | str | None" = None) -> None:
        root = Path(directory).expanduser()
        if not root.is_dir():
            raise DocsIndexError(f"document directory not found or not a directory: {root}")
        self.root = root.resolve()
        if db_path is None:
            digest = hashlib.sha256(str(self.root).encode()).hexdigest()[:16]
            db_path = ragix_home() / "chat" / "docs" / f"{digest}.sqlite"
        self.db_path = Path(db_path)

    def _connect(self) -> sqlite3.Connection:
        try:
            self.db_path.parent.mkdir(parents=True, exist_ok=True)
            db = sqlite3.connect(str(self.db_path), timeout=30, isolation_level=None)
            db.execute("PRAGMA journal_mode=WAL")
            db.executescript(_SCHEMA)
            return db
        except sqlite3.DatabaseError as exc:
            raise DocsIndexError(f"cannot open the document index {self.db_path}: {exc}") from None
        except OSError as exc:
            raise DocsIndexError(f"cannot create the document index at {self.db_path}: {exc}") from None

    def _files(self) -> Iterator[Tuple[str, os.stat_result]]:
        count = 0
        for dirpath, dirnames, filenames in os.walk(self.root):
            dirnames[:] = sorted(d for d in dirnames if not d.startswith("."))
            for name in sorted(filenames):
                if name.startswith("."):
                    continue
                full = os.path.join(dirpath, name)
                try:
                    st = os.stat(full, follow_symlinks=False)
                except OSError:
                    continue
                if not os.path.isfile(full) or os.path.islink(full) or st.st_size > MAX_FILE_BYTES:
                    continue
                count += 1
                if count > MAX_FILES:
                    return
                yield os.path.relpath(full, self.root), st

    def refresh(self) -> Dict[str, int]:
        """Catch up with the directory; returns how many files were added, updated and removed."""
        db = self._connect()
        try:
            known = {row[0]: (row[1], row[2]) for row in db.execute("SELECT path, size, mtime_ns FROM files")}
            seen = set()
            counts = {"added": 0, "updated": 0, "removed": 0}
            db.execute("BEGIN IMMEDIATE")
            for rel, st in self._files():
                seen.add(rel)
                if known.get(rel) == (st.st_size, st.st_mtime_ns):
                    continue
                text = _read_text(str(self.root / rel))
                db.execute("DELETE FROM passages WHERE path = ?", (rel,))
                db.execute("INSERT OR REPLACE INTO files(path, size, mtime_ns) VALUES (?, ?, ?)",
                           (rel, st.st_size, st.st_mtime_ns))
                if text:
                    title = _title(rel, text)
                    db.executemany("INSERT INTO passages(path, title, body) VALUES (?, ?, ?)",
                                   [(rel, title, p) for p in passages(text)])
                counts["updated" if rel in known else "added"] += 1
            for rel in set(known) - seen:
                db.execute("DELETE FROM passages WHERE path = ?", (rel,))
                db.execute("DELETE FROM files WHERE path = ?", (rel,))
                counts["removed"] += 1
            db.execute("COMMIT")
            return counts
        except sqlite3.DatabaseError as exc:
            raise DocsIndexError(f"cannot update the document index {self.db_path}: {exc}") from None
        finally:
            db.close()

    def search(self, query: str, top_k: int = 4) -> List[DocHit]:
        self.refresh()
        expression = match_expression(query_terms(query))
        if expression is None:
            return []
        db = self._connect()
        try:
            rows = db.execute(
                "SELECT path, title, body, bm25(passages, 0.0, 2.0, 1.0) AS rank FROM passages "
                "WHERE passages MATCH ? ORDER BY rank LIMIT ?", (expression, int(top_k))).fetchall()
        except sqlite3.DatabaseError as exc:
            raise DocsIndexError(f"document search failed in {self.db_path}: {exc}") from None
        finally:
            db.close()
        return [DocHit(path=r[0], title=r[1], text=r[2], score=round(-float(r[3]), 4)) for r in rows]
