"""Experience corpus (spec 000 §5): what past runs learned, searchable by the graph.

The API is spec 000 §5.2 as written (``ExperienceCorpus``, ``HybridExperienceCorpus``,
``events_path``, ``append``, ``search`` returning the same text block), and spec 002 §4.5's
(``HybridExperienceCorpus("experiences/")``, one corpus at one path; ``add_experience``,
``find_similar``, ``get_patterns``: views over the same events, memory/past_runs.py). Beneath it:
- appends go through ``ragix_core.memory.JsonlLog`` (one write under flock, crash
  repair, all-or-nothing on a full disk) instead of ``open("a").write``;
- search uses a derived SQLite FTS5 index (BM25) re-ranked with spec 001 Phase 4's
  recency and success weighting, instead of loading every event into a list;
- TTL: events older than ``max_age_days`` are never returned, and ``prune``
  removes them from disk.

This module is imported with ``ragix_core.reasoning_v30``; it must stay light, so
sqlite3 and the config layer are imported only when used.
"""

from __future__ import annotations

import sys
from datetime import timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Any, Dict, Iterable, Iterator, List, Optional, Union

from ragix_core.memory.errors import CorpusError, CorpusWriteError
from ragix_core.memory.hits import ScoredEvent, format_block, rank_pool
from ragix_core.memory.jsonl_log import JsonlLog
from ragix_core.memory.records import parse_timestamp
from ragix_core.memory.store import DAY, CorpusStore, Now, TextSearch, as_record, check_max_age, epoch

from ragix_core.core.types import ReasoningEvent

from ragix_core.memory.past_runs import Experience, Pattern, experiences, patterns, run_events

if TYPE_CHECKING:  # pragma: no cover
    from ragix_core.core.types import ReasoningState
    from ragix_core.memory.index import ExperienceIndex

__all__ = ["ExperienceCorpus", "HybridExperienceCorpus", "ScoredEvent", "CorpusWriteError", "format_block",
           "Experience", "Pattern"]


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


class HybridExperienceCorpus:
    """A project store and a global store (any ``store.CorpusStore``), searched and written together."""

    def __init__(self, global_root: Path, project_root: Optional[Path] = None,
                 global_max_age_days: int = 90,
                 project_max_age_days: int = 30, *, create: bool = True):
        """Spec 000: a global and a project corpus. Spec 002 §4.5 gives one path
        (``HybridExperienceCorpus("experiences/")``): then both are that one corpus."""
        if project_root is None:
            project_root = global_root
        self._attach(ExperienceCorpus(project_root, project_max_age_days, "project", create=create),
                     ExperienceCorpus(global_root, global_max_age_days, "global", create=create))

    def _attach(self, project: CorpusStore, global_: CorpusStore) -> None:
        self.project_corpus = project
        self.global_corpus = global_
        # Same place for both (e.g. run from $HOME): one store, written once.
        self._same = _same_store(project, global_)
        self.errors: List[str] = []  # every failure met, in order
        self._reported: set = set()

    @classmethod
    def of(cls, project: CorpusStore, global_: CorpusStore) -> "HybridExperienceCorpus":
        """Over stores already opened (local, PostgreSQL or one of each)."""
        hybrid = cls.__new__(cls)
        hybrid._attach(project, global_)
        return hybrid

    @classmethod
    def from_config(cls, section: Any, project_dir: Path, *, create: bool = True,
                    memory: Any = None) -> "HybridExperienceCorpus":
        """Build from ``reasoning.experience`` and the user's ``memory`` section (None: both stores local)."""
        from ragix_core.memory.backends import open_stores

        return cls.of(*open_stores(section, memory, Path(project_dir), create=create))

    def _report(self, exc: CorpusError) -> None:
        # A broken corpus must not stop a run: say it once per file, keep going.
        self.errors.append(str(exc))
        key = getattr(exc, "path", str(exc))
        if key not in self._reported:
            self._reported.add(key)
            print(f"ragix: experience corpus disabled for this write: {exc}", file=sys.stderr)

    def append(self, event: ReasoningEvent, project: bool = True, global_: bool = True) -> bool:
        """Append to the chosen corpora; returns False (after reporting) if a write failed."""
        ok = True
        targets = []
        if project:
            targets.append(self.project_corpus)
        if global_ and not (self._same and project):
            targets.append(self.global_corpus)
        for corpus in targets:
            try:
                corpus.append(event)
            except CorpusWriteError as exc:
                self._report(exc)
                ok = False
        return ok

    def _safe_search(self, corpus: CorpusStore, query: str, top_k: int, now: Now) -> List[ScoredEvent]:
        try:
            return corpus.search_events(query, top_k=top_k, now=now)
        except CorpusError as exc:
            self._report(exc)
            return []

    def search_events(self, query: str, top_k: int = 5, now: Now = None) -> List[ScoredEvent]:
        """Project hits (best first) then global hits; ``source`` says which."""
        project = self._safe_search(self.project_corpus, query, top_k, now)
        if self._same:
            return project
        return project + self._safe_search(self.global_corpus, query, top_k, now)

    def search(self, query: str, top_k: int = 5, now: Now = None) -> str:
        hits = self.search_events(query, top_k=top_k, now=now)
        p = format_block(h.event for h in hits if h.source == "project")
        g = format_block(h.event for h in hits if h.source == "global")
        out = []
        if p:
            out.append("### Project experience\n" + p)
        if g:
            out.append("### Global experience\n" + g)
        return "\n\n".join(out)

    # --- spec 002 §4.5 ----------------------------------------------------------

    def add_experience(self, state: "ReasoningState", success: bool) -> bool:
        """Record a finished run: its steps and a closing event with ``success`` as its outcome,
        all-or-nothing per corpus. Returns False (after reporting) if a write failed."""
        events = [e.to_dict() for e in run_events(state, bool(success))]
        ok = True
        for corpus in self.corpora():
            try:
                corpus.append_many(events)
            except CorpusWriteError as exc:
                self._report(exc)
                ok = False
        return ok

    def find_similar(self, query: str, k: int = 5, now: Now = None) -> List[Experience]:
        """The ``k`` past runs whose events best match ``query`` (project runs first, then global)."""
        if k <= 0:
            return []
        return experiences(self.search_events(query, top_k=max(16, k * 8), now=now), k)

    def get_patterns(self, category: str, now: Now = None) -> List[Pattern]:
        """For the runs of one task complexity (``"moderate"``, ...), the command shapes they used
        and how often each succeeded, most successful first (reads the live events of both corpora)."""
        def live() -> Iterable[Dict[str, Any]]:
            for corpus in self.corpora():
                cutoff = epoch(now) - corpus.max_age_days * DAY
                try:
                    for record in corpus.records():
                        ts = parse_timestamp(record.get("timestamp"))
                        if ts is not None and ts >= cutoff:
                            yield record
                except CorpusError as exc:
                    self._report(exc)

        return patterns(live(), category)

    def corpora(self) -> List[CorpusStore]:
        return [self.project_corpus] if self._same else [self.project_corpus, self.global_corpus]

    def close(self) -> None:
        for corpus in self.corpora():
            corpus.close()


def _same_store(a: CorpusStore, b: CorpusStore) -> bool:
    if isinstance(a, ExperienceCorpus) and isinstance(b, ExperienceCorpus):
        return _same_path(a.events_path, b.events_path)
    return a.backend == b.backend and a.location == b.location


def _same_path(a: Path, b: Path) -> bool:
    try:
        return a.resolve() == b.resolve()
    except OSError:
        return a.absolute() == b.absolute()
