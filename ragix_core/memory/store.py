"""The one protocol every experience-corpus store satisfies, and what they share.

Extracted from what ``ExperienceCorpus`` (JSONL log + SQLite FTS5 index) already
offered its users (the engines through ``HybridExperienceCorpus``, ``ragix
corpus``, ``ragix serve``, the MCP server): append, search, prune, rebuild,
stats, plus ``records`` (every stored event in append order, for migration).
``PostgresCorpus`` (postgres_store.py) is the second implementation; the
conformance suite in tests/memory/conformance runs the same tests on both.

Failures raise ``CorpusError`` subclasses whose message names the store's
``location`` and the cause (never a driver traceback), so a run can report a
broken corpus once and keep going.
"""

from __future__ import annotations

from datetime import datetime, timezone
import time
from typing import Any, Dict, Iterable, Iterator, List, Protocol, Union, runtime_checkable

from ragix_core.core.types import ReasoningEvent
from ragix_core.memory.hits import ScoredEvent, format_block

__all__ = ["CorpusStore", "TextSearch", "Now", "epoch", "as_record", "STATS_KEYS", "DAY"]

DAY = 86400.0
Now = Union[None, float, datetime]

# Keys every store's ``stats()`` has (stores add their own: file sizes, index state, table sizes).
STATS_KEYS = ("name", "backend", "location", "events", "undated", "oldest", "newest", "max_age_days", "expired")


@runtime_checkable
class CorpusStore(Protocol):
    name: str  # "project" or "global": the ``source`` of its hits
    max_age_days: int  # older events are never returned and ``prune`` removes them
    backend: str  # "local" or "postgres"

    @property
    def location(self) -> str:
        """Where the events live, printable (a path, or a database address without its password)."""

    def append(self, event: Union[ReasoningEvent, Dict[str, Any]]) -> None:
        """Store one event durably; ``CorpusWriteError`` (location and cause) on failure."""

    def append_many(self, events: Iterable[Union[ReasoningEvent, Dict[str, Any]]]) -> int:
        """Store events all-or-nothing; returns how many."""

    def search_events(self, query: str, top_k: int = 5, now: Now = None) -> List[ScoredEvent]:
        """Best ``top_k`` live events for any text ``query``, ranked by ``hits.rank_pool``."""

    def search(self, query: str, top_k: int = 5, now: Now = None) -> str:
        """Spec 000 §5.2's text block of ``search_events``; empty when nothing matches."""

    def prune(self, now: Now = None) -> int:
        """Remove events older than ``max_age_days``; returns how many (undated events are kept)."""

    def count_expired(self, now: Now = None) -> int:
        """How many events ``prune`` would remove now."""

    def rebuild(self) -> int:
        """Recompute the derived search data from the stored events; returns the number of events."""

    def stats(self, now: Now = None) -> Dict[str, Any]:
        """At least ``STATS_KEYS``."""

    def records(self) -> Iterator[Dict[str, Any]]:
        """Every stored event (expired ones too), in append order, streamed."""

    def load(self, records: Iterable[Dict[str, Any]]) -> int:
        """Fill an EMPTY store from a stream, all-or-nothing (migration, bulk import); returns how many.
        Refused with ``CorpusWriteError`` when the store already holds events."""

    def close(self) -> None:
        """Release files, connections and pools (the store may be used again: they reopen)."""


class TextSearch:
    """``search`` in terms of ``search_events``: the same block for every store."""

    def search_events(self, query: str, top_k: int = 5, now: Now = None) -> List[ScoredEvent]:
        raise NotImplementedError

    def search(self, query: str, top_k: int = 5, now: Now = None) -> str:
        """Text block for LLM context (spec 000 §5.2 format); empty string when nothing matches."""
        return format_block(h.event for h in self.search_events(query, top_k=top_k, now=now))


def epoch(now: Now) -> float:
    if now is None:
        return time.time()
    if isinstance(now, datetime):
        return (now if now.tzinfo else now.replace(tzinfo=timezone.utc)).timestamp()
    return float(now)


def as_record(event: Union[ReasoningEvent, Dict[str, Any]]) -> Dict[str, Any]:
    if isinstance(event, dict):
        return event
    to_dict = getattr(event, "to_dict", None)
    if callable(to_dict):
        return to_dict()
    raise TypeError(f"expected a ReasoningEvent or a dict, got {type(event).__name__}")


def check_max_age(max_age_days: Any) -> int:
    if isinstance(max_age_days, bool) or not isinstance(max_age_days, int) or max_age_days < 1:
        raise ValueError(f"max_age_days must be a whole number of days >= 1, got {max_age_days!r}")
    return max_age_days
