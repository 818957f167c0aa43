"""Experience corpus (spec 000 §5): what past runs learned, searchable by the graph.

The API is spec 000 §5.2 as written (``ExperienceCorpus``, ``HybridExperienceCorpus``,
``events_path``, ``append``, ``search`` returning the same text block), and spec 002 §4.5's
(``HybridExperienceCorpus("experiences/")``, one corpus at one path; ``add_experience``,
``find_similar``, ``get_patterns``: views over the same events, memory/past_runs.py).
``ExperienceCorpus`` is the local store (memory/local_store.py); a hybrid holds a project store
and a global store of any kind (``store.CorpusStore``: local or PostgreSQL, memory/backends.py).

This module is imported with ``ragix_core.reasoning_v30``; it must stay light, so
sqlite3 and the config layer are imported only when used.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any, Dict, Iterable, List, Optional

from ragix_core.core.types import ReasoningEvent
from ragix_core.memory.errors import CorpusError, CorpusWriteError
from ragix_core.memory.hits import ScoredEvent, format_block
from ragix_core.memory.local_store import ExperienceCorpus
from ragix_core.memory.past_runs import Experience, Pattern, experiences, patterns, run_events
from ragix_core.memory.records import parse_timestamp
from ragix_core.memory.store import DAY, CorpusStore, Now, epoch

if TYPE_CHECKING:  # pragma: no cover
    from ragix_core.core.types import ReasoningState

__all__ = ["ExperienceCorpus", "HybridExperienceCorpus", "ScoredEvent", "CorpusWriteError", "format_block",
           "Experience", "Pattern"]


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
