"""The local experience store (``store.CorpusStore``): a JSONL log and its derived SQLite FTS5 index.

- appends go through ``ragix_core.memory.JsonlLog`` (one write under flock, crash repair,
  all-or-nothing on a full disk) instead of ``open("a").write``;
- search uses the derived SQLite FTS5 index (BM25) re-ranked with spec 001 Phase 4's recency and
  success weighting (memory/hits.py), instead of loading every event into a list;
- TTL: events older than ``max_age_days`` are never returned, and ``prune`` removes them from disk.

Spec 000 §5.2 names it ``ExperienceCorpus`` in ``ragix_core.memory.experience``, which re-exports it.
sqlite3 and the config layer are imported only when used: this module is imported with the engines.
"""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Any, Dict, Iterable, Iterator, List, Optional, Union

from ragix_core.core.types import ReasoningEvent
from ragix_core.memory.errors import CorpusWriteError
from ragix_core.memory.hits import ScoredEvent, rank_pool
from ragix_core.memory.jsonl_log import JsonlLog
from ragix_core.memory.records import parse_timestamp
from ragix_core.memory.store import DAY, CorpusStore, Now, TextSearch, as_record, check_max_age, epoch

if TYPE_CHECKING:  # pragma: no cover
    from ragix_core.memory.index import ExperienceIndex

__all__ = ["ExperienceCorpus"]


class ExperienceCorpus(TextSearch):
    """The local store (``store.CorpusStore``): a JSONL log and its derived SQLite FTS5 index."""

    backend = "local"

    def __init__(self, root: Path, max_age_days: int = 90, name: Optional[str] = None, *, create: bool = True):
        check_max_age(max_age_days)
        self.root = Path(root).expanduser()
        self.events_path = self.root / "experience" / "events.jsonl"
        self.max_age = timedelta(days=max_age_days)
        self.max_age_days = max_age_days
        self.name = name or str(self.root)
        if create:  # as the spec does; read-only users (CLI search/stats) pass create=False
            try:
                self.events_path.parent.mkdir(parents=True, exist_ok=True)
            except OSError:
                pass  # read-only place: searching still works, append reports the cause
        self._log = JsonlLog(self.events_path)
        self._index: Optional["ExperienceIndex"] = None

    @property
    def location(self) -> str:
        return str(self.events_path)

    @property
    def log(self) -> JsonlLog:
        return self._log

    @property
    def index(self) -> "ExperienceIndex":
        if self._index is None:
            from ragix_core.memory.index import ExperienceIndex

            self._index = ExperienceIndex(self.events_path)
        return self._index

    # --- writing ------------------------------------------------------------

    def append(self, event: ReasoningEvent) -> None:
        """Append one event (raises ``CorpusWriteError`` with the path and cause on failure)."""
        self._log.append(as_record(event))

    def append_many(self, events: Iterable[Union[ReasoningEvent, Dict[str, Any]]]) -> int:
        """Bulk append under one lock, all-or-nothing; returns how many events were written."""
        records = [as_record(e) for e in events]
        self._log.append_many(records)
        return len(records)

    # --- searching ----------------------------------------------------------

    def search_events(self, query: str, top_k: int = 5, now: Now = None) -> List[ScoredEvent]:
        """Best ``top_k`` live events for ``query``: BM25 × recency × outcome (spec 001 Phase 4)."""
        from ragix_core.memory.fts_query import query_terms

        if top_k <= 0 or not self.events_path.exists():
            return []  # nothing written yet: do not create an index for an empty corpus
        terms = query_terms(query)
        now_ts = epoch(now)
        cutoff = now_ts - self.max_age_days * DAY
        for attempt in range(2):
            cands, df, n_docs = self.index.candidates(terms, cutoff, max(64, top_k * 8))
            records = self._log.read_many([c[1] for c in cands])
            if any(r is None for r in records) and attempt == 0:
                self.index.rebuild()  # the file changed under the index: rebuild once and retry
                continue
            break
        pool = [(c, r) for c, r in zip(cands, records) if r is not None]
        return rank_pool(pool, terms, df, n_docs, now_ts, self.max_age_days, self.name, top_k)

    # --- maintenance --------------------------------------------------------

    def prune(self, now: Now = None) -> int:
        """Remove events older than ``max_age_days`` from disk (atomic rewrite); returns how many.

        Events without a readable timestamp are kept: they are never searched,
        but deleting them would be silent data loss. Corrupt lines go to the
        quarantine file next to the log.
        """
        cutoff = epoch(now) - self.max_age_days * DAY

        def keep(record: Dict[str, Any]) -> bool:
            ts = parse_timestamp(record.get("timestamp"))
            return ts is None or ts >= cutoff

        if not self.events_path.exists():
            return 0
        result = self._log.rewrite(keep)
        self.index.rebuild()
        return result.removed

    def count_expired(self, now: Now = None) -> int:
        """How many events ``prune`` would remove now (dry run)."""
        if not self.events_path.exists():
            return 0
        return self.index.count_older_than(epoch(now) - self.max_age_days * DAY)

    def rebuild(self) -> int:
        """Rebuild the search index from the JSONL; returns the number of indexed events."""
        if not self.events_path.exists() and not self.index.db_path.exists():
            return 0
        self.index.rebuild()
        return int(self.index.stats()["events"])

    def stats(self, now: Now = None) -> Dict[str, Any]:
        from ragix_core.memory.records import format_timestamp

        if self.events_path.exists():
            idx = self.index.stats()
        else:
            idx = {"events": 0, "skipped_lines": 0, "partial_tail": False, "undated": 0, "oldest": None,
                   "newest": None, "path": str(self.index.db_path), "db_bytes": 0, "indexed_bytes": 0,
                   "stale": False, "rebuilds": 0}
        return {
            "name": self.name,
            "backend": self.backend,
            "location": self.location,
            "path": str(self.events_path),
            "events": idx["events"],
            "bytes": self._log.size(),
            "skipped_lines": idx["skipped_lines"],
            "partial_tail": idx["partial_tail"],
            "undated": idx["undated"],
            "oldest": format_timestamp(idx["oldest"]),
            "newest": format_timestamp(idx["newest"]),
            "max_age_days": self.max_age_days,
            "expired": self.count_expired(now),
            "quarantine_bytes": self._log.quarantine_path.stat().st_size if self._log.quarantine_path.exists() else 0,
            "index": {k: idx[k] for k in ("path", "db_bytes", "indexed_bytes", "stale", "rebuilds")},
        }

    def load(self, records: Iterable[Dict[str, Any]]) -> int:
        """Fill an empty corpus from a stream: written beside the log, renamed into place under its lock."""
        import os

        from ragix_core.memory.encoding import encode_record
        from ragix_core.memory.jsonl_log import CHUNK_BYTES

        if self._log.size():
            raise CorpusWriteError(self.events_path, "it already holds events; a load only fills an empty corpus")
        tmp = self.events_path.with_name(f".{self.events_path.name}.load-{os.getpid()}")
        count = 0
        try:
            self.events_path.parent.mkdir(parents=True, exist_ok=True)
            with open(tmp, "wb") as out:
                chunk: List[bytes] = []
                size = 0
                for record in records:
                    line = encode_record(as_record(record))
                    chunk.append(line)
                    size += len(line)
                    count += 1
                    if size >= CHUNK_BYTES:
                        out.write(b"".join(chunk))
                        chunk, size = [], 0
                out.write(b"".join(chunk))
                out.flush()
                os.fsync(out.fileno())
            with self._log.locked() as fd:
                if os.fstat(fd).st_size:
                    raise CorpusWriteError(self.events_path, "events were appended while loading; nothing loaded")
                os.replace(tmp, self.events_path)
        except OSError as exc:
            raise CorpusWriteError(self.events_path, exc) from None
        finally:
            if tmp.exists():
                tmp.unlink()
        self.index.rebuild()
        return count

    def records(self) -> Iterator[Dict[str, Any]]:
        """Every valid record of the log in append order (corrupt lines are skipped, as searching does)."""
        return iter(self._log)

    def close(self) -> None:
        if self._index is not None:
            self._index.close()
