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
import time
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import TYPE_CHECKING, Any, Dict, Iterable, List, Optional, Union

from ragix_core.core.text import bounded
from ragix_core.memory.errors import CorpusError, CorpusWriteError
from ragix_core.memory.jsonl_log import JsonlLog
from ragix_core.memory.records import parse_timestamp

from ragix_core.core.types import ReasoningEvent

from ragix_core.memory.past_runs import Experience, Pattern, experiences, patterns, run_events

if TYPE_CHECKING:  # pragma: no cover
    from ragix_core.core.types import ReasoningState
    from ragix_core.memory.index import ExperienceIndex

__all__ = ["ExperienceCorpus", "HybridExperienceCorpus", "ScoredEvent", "CorpusWriteError", "Experience", "Pattern"]

_DAY = 86400.0
_MAX_SHOWN_CHARS = 2000  # per error/critique line in the LLM context block
Now = Union[None, float, datetime]


def _epoch(now: Now) -> float:
    if now is None:
        return time.time()
    if isinstance(now, datetime):
        return (now if now.tzinfo else now.replace(tzinfo=timezone.utc)).timestamp()
    return float(now)


def _as_record(event: Union[ReasoningEvent, Dict[str, Any]]) -> Dict[str, Any]:
    if isinstance(event, dict):
        return event
    to_dict = getattr(event, "to_dict", None)
    if callable(to_dict):
        return to_dict()
    raise TypeError(f"expected a ReasoningEvent or a dict, got {type(event).__name__}")


def _shown(text: Any) -> str:
    return bounded(text, _MAX_SHOWN_CHARS, marker=False)


@dataclass
class ScoredEvent:
    """One search hit: the stored record, its final score and where it came from."""

    score: float
    event: Dict[str, Any]
    source: str
    offset: int = 0
    bm25: float = 0.0
    recency: float = 0.0
    coverage: float = 0.0  # share of the query's terms in the event (reasoning.experience.similarity_threshold)
    extra: Dict[str, Any] = field(default_factory=dict)

    def reasoning_event(self) -> ReasoningEvent:
        """The hit as a ``ReasoningEvent`` (raises ``TypeDecodeError`` for foreign records)."""
        return ReasoningEvent.from_dict(self.event)

    def to_dict(self) -> Dict[str, Any]:
        return {"score": self.score, "source": self.source, "offset": self.offset,
                "bm25": self.bm25, "recency": self.recency, "coverage": self.coverage, "event": self.event}


def format_block(events: Iterable[Dict[str, Any]]) -> str:
    """Spec 000 §5.2's context block: ``[i] ts — goal=…`` with indented error / critique."""
    lines: List[str] = []
    for i, ev in enumerate(events, 1):
        lines.append(f"[{i}] {ev.get('timestamp')} — goal={ev.get('goal')}")
        if ev.get("error"):
            lines.append(f"    error: {_shown(ev['error'])}")
        if ev.get("llm_critique"):
            lines.append(f"    critique: {_shown(ev['llm_critique'])}")
    return "\n".join(lines)


class ExperienceCorpus:
    def __init__(self, root: Path, max_age_days: int = 90, name: Optional[str] = None, *, create: bool = True):
        if isinstance(max_age_days, bool) or not isinstance(max_age_days, int) or max_age_days < 1:
            raise ValueError(f"max_age_days must be a whole number of days >= 1, got {max_age_days!r}")
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
        self._log.append(_as_record(event))

    def append_many(self, events: Iterable[Union[ReasoningEvent, Dict[str, Any]]]) -> int:
        """Bulk append under one lock, all-or-nothing; returns how many events were written."""
        records = [_as_record(e) for e in events]
        self._log.append_many(records)
        return len(records)

    # --- searching ----------------------------------------------------------

    def search_events(self, query: str, top_k: int = 5, now: Now = None) -> List[ScoredEvent]:
        """Best ``top_k`` live events for ``query``: BM25 × recency × outcome (spec 001 Phase 4)."""
        from ragix_core.memory.fts_query import query_terms
        from ragix_core.memory.rerank import bm25_pool, coverage
        from ragix_core.memory.scoring import combined_score, recency

        if top_k <= 0 or not self.events_path.exists():
            return []  # nothing written yet: do not create an index for an empty corpus
        terms = query_terms(query)
        now_ts = _epoch(now)
        cutoff = now_ts - self.max_age_days * _DAY
        for attempt in range(2):
            cands, df, n_docs = self.index.candidates(terms, cutoff, max(64, top_k * 8))
            records = self._log.read_many([c[1] for c in cands])
            if any(r is None for r in records) and attempt == 0:
                self.index.rebuild()  # the file changed under the index: rebuild once and retry
                continue
            break
        pool = [(c, r) for c, r in zip(cands, records) if r is not None]
        if not pool:
            return []
        bm25 = bm25_pool([r for _, r in pool], terms, df, n_docs)
        best = max(bm25)
        hits: List[ScoredEvent] = []
        for (cid, offset, ts, outcome, recovery), record, raw in zip([c for c, _ in pool], [r for _, r in pool], bm25):
            if raw <= 0:
                continue  # matched a word the query's tokenizer would not (diacritics edge cases)
            score = combined_score(raw / best, len(terms), ts, now_ts, self.max_age_days, outcome, recovery)
            hits.append(ScoredEvent(score, record, self.name, offset, raw, recency(ts, now_ts, self.max_age_days),
                                    coverage(record, terms)))
        hits.sort(key=lambda h: (h.score, h.event.get("timestamp") or ""), reverse=True)
        return hits[:top_k]

    def search(self, query: str, top_k: int = 5, now: Now = None) -> str:
        """Text block for LLM context (spec 000 §5.2 format); empty string when nothing matches."""
        return format_block(h.event for h in self.search_events(query, top_k=top_k, now=now))

    # --- maintenance --------------------------------------------------------

    def prune(self, now: Now = None) -> int:
        """Remove events older than ``max_age_days`` from disk (atomic rewrite); returns how many.

        Events without a readable timestamp are kept: they are never searched,
        but deleting them would be silent data loss. Corrupt lines go to the
        quarantine file next to the log.
        """
        cutoff = _epoch(now) - self.max_age_days * _DAY

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
        return self.index.count_older_than(_epoch(now) - self.max_age_days * _DAY)

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

    def close(self) -> None:
        if self._index is not None:
            self._index.close()


class HybridExperienceCorpus:
    def __init__(self, global_root: Path, project_root: Optional[Path] = None,
                 global_max_age_days: int = 90,
                 project_max_age_days: int = 30, *, create: bool = True):
        """Spec 000: a global and a project corpus. Spec 002 §4.5 gives one path
        (``HybridExperienceCorpus("experiences/")``): then both are that one corpus."""
        if project_root is None:
            project_root = global_root
        self.global_corpus = ExperienceCorpus(global_root, global_max_age_days, "global", create=create)
        self.project_corpus = ExperienceCorpus(project_root, project_max_age_days, "project", create=create)
        # Same directory for both (e.g. run from $HOME): one file, written once.
        self._same = _same_path(self.global_corpus.events_path, self.project_corpus.events_path)
        self.errors: List[str] = []  # every failure met, in order
        self._reported: set = set()

    @classmethod
    def from_config(cls, section: Any, project_dir: Path, *, create: bool = True) -> "HybridExperienceCorpus":
        """Build from ``reasoning.experience`` (ExperienceSection); "~/.ragix" means ``ragix_home()``."""
        from ragix_core.core.home import ragix_home

        g = str(getattr(section, "global_root", "~/.ragix"))
        global_root = ragix_home() if g.rstrip("/") in ("~/.ragix", "") else Path(g).expanduser()
        p = Path(str(getattr(section, "project_root", ".ragix"))).expanduser()
        project_root = p if p.is_absolute() else Path(project_dir) / p
        return cls(global_root, project_root,
                   global_max_age_days=int(getattr(section, "global_max_age_days", 90)),
                   project_max_age_days=int(getattr(section, "project_max_age_days", 30)), create=create)

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

    def _safe_search(self, corpus: ExperienceCorpus, query: str, top_k: int, now: Now) -> List[ScoredEvent]:
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
                cutoff = _epoch(now) - corpus.max_age_days * _DAY
                try:
                    for record in corpus.log:
                        ts = parse_timestamp(record.get("timestamp"))
                        if ts is not None and ts >= cutoff:
                            yield record
                except CorpusError as exc:
                    self._report(exc)

        return patterns(live(), category)

    def corpora(self) -> List[ExperienceCorpus]:
        return [self.project_corpus] if self._same else [self.project_corpus, self.global_corpus]

    def close(self) -> None:
        for corpus in self.corpora():
            corpus.close()


def _same_path(a: Path, b: Path) -> bool:
    try:
        return a.resolve() == b.resolve()
    except OSError:
        return a.absolute() == b.absolute()
