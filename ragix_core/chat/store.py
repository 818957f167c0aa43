"""Sessions, threads and messages in SQLite, so a conversation continues across processes.

    sessions  id, created, updated, docs (the session's document directory)
    threads   id, session_id, seq, question, final_answer, stop_reason, created, finished, usage
    messages  thread_id, seq, id, kind, content, meta (JSON)

Crash-safe: WAL journal with ``synchronous=FULL``, one short transaction per
write; messages are written as each node produces them, so a killed process
leaves its thread readable (unfinished). Concurrent processes on one session
are serialised by ``lock(session_id)``: an exclusive ``flock`` held for a whole
turn, so the second process reads the first one's answer as history. A thread
found unfinished by the next lock holder was left by a process that died: it is
closed as ``interrupted`` and kept out of the history.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import hashlib
import json
import os
import sqlite3
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Dict, Iterator, List, Optional, Sequence, Tuple

from ragix_core.core.home import ragix_home

from .messages import ChatMessage

__all__ = ["ChatStore", "StoreError", "SessionBusy", "UnknownSession", "ThreadRecord", "SessionRecord",
           "default_store_path", "INTERRUPTED"]

INTERRUPTED = "interrupted"
HISTORY_LIMIT = 50  # earlier threads read back as history (the prompts show fewer: chat.history_turns)
_SCHEMA = """
CREATE TABLE IF NOT EXISTS sessions(
  id TEXT PRIMARY KEY, created REAL NOT NULL, updated REAL NOT NULL, docs TEXT);
CREATE TABLE IF NOT EXISTS threads(
  id TEXT PRIMARY KEY, session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
  seq INTEGER NOT NULL, question TEXT NOT NULL, final_answer TEXT, stop_reason TEXT,
  created REAL NOT NULL, finished REAL, usage TEXT, UNIQUE(session_id, seq));
CREATE TABLE IF NOT EXISTS messages(
  thread_id TEXT NOT NULL REFERENCES threads(id) ON DELETE CASCADE, seq INTEGER NOT NULL,
  id TEXT NOT NULL, kind TEXT NOT NULL, content TEXT NOT NULL, meta TEXT NOT NULL,
  PRIMARY KEY(thread_id, seq));
"""


class StoreError(ValueError):
    """The store cannot be opened or written; the message names the file and the cause."""


class UnknownSession(StoreError):
    """No session with that id."""


class SessionBusy(StoreError):
    """Another process kept the session's lock longer than we were willing to wait."""


@dataclass(frozen=True)
class SessionRecord:
    id: str
    created: float
    updated: float
    docs: Optional[str]
    threads: int = 0
    first_question: str = ""


@dataclass(frozen=True)
class ThreadRecord:
    id: str
    session_id: str
    seq: int
    question: str
    final_answer: Optional[str]
    stop_reason: Optional[str]
    created: float
    finished: Optional[float]
    usage: Dict[str, Any]


def default_store_path() -> Path:
    return ragix_home() / "chat" / "sessions.sqlite"


class ChatStore:
    def __init__(self, path: "os.PathLike[str] | str | None" = None) -> None:
        self.path = Path(path).expanduser() if path else default_store_path()
        self.lock_dir = self.path.parent / "locks"
        try:
            self.lock_dir.mkdir(parents=True, exist_ok=True)
            self._db = sqlite3.connect(str(self.path), timeout=30, isolation_level=None)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=FULL")
            self._db.execute("PRAGMA foreign_keys=ON")
            self._db.executescript(_SCHEMA)
        except (sqlite3.DatabaseError, OSError) as exc:
            raise StoreError(f"cannot open the chat store {self.path}: {exc}") from None

    def close(self) -> None:
        self._db.close()

    @contextlib.contextmanager
    def _tx(self) -> Iterator[sqlite3.Connection]:
        try:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                yield self._db
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")
        except sqlite3.DatabaseError as exc:
            raise StoreError(f"chat store {self.path}: {exc}") from None

    # -- locking ----------------------------------------------------------------

    @contextlib.contextmanager
    def lock(self, session_id: str, timeout: float = 600.0, on_wait: Any = None) -> Iterator[None]:
        """Hold the session exclusively (across processes) for one turn."""
        name = hashlib.sha256(session_id.encode()).hexdigest()[:32] + ".lock"
        fd = os.open(str(self.lock_dir / name), os.O_RDWR | os.O_CREAT, 0o600)
        try:
            deadline = time.monotonic() + timeout
            waited = False
            while True:
                try:
                    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                    break
                except OSError as exc:
                    if exc.errno not in (errno.EAGAIN, errno.EACCES):
                        raise StoreError(f"cannot lock session {session_id!r}: {exc}") from None
                    if not waited and on_wait is not None:
                        on_wait()
                    waited = True
                    if time.monotonic() >= deadline:
                        raise SessionBusy(f"session {session_id!r} is busy: another ragix chat process has been "
                                          f"answering in it for more than {timeout:g}s") from None
                    time.sleep(0.1)
            yield
        finally:
            os.close(fd)  # releases the lock

    # -- sessions ---------------------------------------------------------------

    def session(self, session_id: str) -> Optional[SessionRecord]:
        row = self._db.execute("SELECT id, created, updated, docs FROM sessions WHERE id = ?", (session_id,)).fetchone()
        return SessionRecord(*row) if row else None

    def ensure_session(self, session_id: str, docs: Optional[str] = None) -> SessionRecord:
        """Create the session if it is new; a given ``docs`` directory replaces the stored one."""
        now = time.time()
        with self._tx() as db:
            db.execute("INSERT OR IGNORE INTO sessions(id, created, updated, docs) VALUES (?, ?, ?, ?)",
                       (session_id, now, now, docs))
            if docs is not None:
                db.execute("UPDATE sessions SET docs = ? WHERE id = ?", (docs, session_id))
        record = self.session(session_id)
        assert record is not None
        return record

    def sessions(self) -> List[SessionRecord]:
        rows = self._db.execute(
            "SELECT s.id, s.created, s.updated, s.docs, COUNT(t.id), "
            "(SELECT question FROM threads WHERE session_id = s.id ORDER BY seq LIMIT 1) "
            "FROM sessions s LEFT JOIN threads t ON t.session_id = s.id GROUP BY s.id ORDER BY s.updated DESC")
        return [SessionRecord(r[0], r[1], r[2], r[3], r[4], r[5] or "") for r in rows]

    def delete_session(self, session_id: str) -> None:
        with self._tx() as db:
            if db.execute("DELETE FROM sessions WHERE id = ?", (session_id,)).rowcount == 0:
                raise UnknownSession(f"no chat session {session_id!r} in {self.path}")

    # -- threads ----------------------------------------------------------------

    def close_unfinished(self, session_id: str) -> int:
        """Mark threads left unfinished by a process that died (call while holding the lock)."""
        with self._tx() as db:
            return db.execute("UPDATE threads SET stop_reason = ?, finished = ? WHERE session_id = ? "
                              "AND finished IS NULL", (INTERRUPTED, time.time(), session_id)).rowcount

    def begin_thread(self, session_id: str, thread_id: str, question: str) -> int:
        now = time.time()
        with self._tx() as db:
            if db.execute("SELECT 1 FROM sessions WHERE id = ?", (session_id,)).fetchone() is None:
                raise UnknownSession(f"no chat session {session_id!r} in {self.path}")
            seq = db.execute("SELECT COALESCE(MAX(seq), 0) + 1 FROM threads WHERE session_id = ?",
                             (session_id,)).fetchone()[0]
            db.execute("INSERT INTO threads(id, session_id, seq, question, created) VALUES (?, ?, ?, ?, ?)",
                       (thread_id, session_id, seq, question, now))
            db.execute("UPDATE sessions SET updated = ? WHERE id = ?", (now, session_id))
        return int(seq)

    def add_messages(self, thread_id: str, messages: Sequence[ChatMessage]) -> None:
        if not messages:
            return
        with self._tx() as db:
            seq = db.execute("SELECT COALESCE(MAX(seq), -1) + 1 FROM messages WHERE thread_id = ?",
                             (thread_id,)).fetchone()[0]
            known = {r[0] for r in db.execute("SELECT id FROM messages WHERE thread_id = ?", (thread_id,))}
            for m in messages:
                if m.id in known:
                    continue
                db.execute("INSERT INTO messages(thread_id, seq, id, kind, content, meta) VALUES (?, ?, ?, ?, ?, ?)",
                           (thread_id, seq, m.id, m.kind, m.content, json.dumps(m.to_dict()["meta"])))
                seq += 1

    def finish_thread(self, thread_id: str, final_answer: Optional[str], stop_reason: str,
                      usage: Optional[Dict[str, Any]] = None) -> None:
        now = time.time()
        with self._tx() as db:
            db.execute("UPDATE threads SET final_answer = ?, stop_reason = ?, finished = ?, usage = ? WHERE id = ?",
                       (final_answer, stop_reason, now, json.dumps(usage or {}), thread_id))
            db.execute("UPDATE sessions SET updated = ? WHERE id = (SELECT session_id FROM threads WHERE id = ?)",
                       (now, thread_id))

    def threads(self, session_id: str) -> List[ThreadRecord]:
        rows = self._db.execute(
            "SELECT id, session_id, seq, question, final_answer, stop_reason, created, finished, usage "
            "FROM threads WHERE session_id = ? ORDER BY seq", (session_id,))
        return [ThreadRecord(*r[:8], json.loads(r[8]) if r[8] else {}) for r in rows]

    def history(self, session_id: str, limit: int = HISTORY_LIMIT) -> List[Tuple[str, str]]:
        """The session's earlier (question, answer) pairs, oldest first: answered threads only."""
        rows = self._db.execute(
            "SELECT question, final_answer FROM threads WHERE session_id = ? AND finished IS NOT NULL "
            "AND final_answer IS NOT NULL AND stop_reason NOT IN (?, 'user_abort') ORDER BY seq DESC LIMIT ?",
            (session_id, INTERRUPTED, int(limit))).fetchall()
        return [(q, a) for q, a in reversed(rows)]

    def messages(self, thread_id: str) -> List[ChatMessage]:
        rows = self._db.execute("SELECT id, kind, content, meta FROM messages WHERE thread_id = ? ORDER BY seq",
                                (thread_id,))
        return [ChatMessage(kind=r[1], content=r[2], id=r[0], meta=json.loads(r[3])) for r in rows]
