"""Copying a corpus from one store to another (``ragix corpus migrate``), then checking the copy.

The source is only read. The target must be empty and is filled with
``CorpusStore.load`` (all-or-nothing: a failure half-way leaves it empty), so
a failed migration loses nothing and can simply be run again. Afterwards the
two stores are compared: the same number of events, and the same hits for
queries made of words of the migrated events themselves (spread over the
corpus).
"""

from __future__ import annotations

import time
from dataclasses import asdict, dataclass, field
from typing import Any, Callable, Dict, Iterable, Iterator, List, Optional

from ragix_core.memory.errors import CorpusError
from ragix_core.memory.store import CorpusStore

__all__ = ["MigrationReport", "MigrationError", "migrate", "PROGRESS_EVERY", "SAMPLE_QUERIES"]

PROGRESS_EVERY = 10_000
SAMPLE_QUERIES = 20
_TOP_K = 5

Progress = Callable[[int, int], None]  # (events copied so far, events in the source)


class MigrationError(CorpusError):
    """The copy is not equal to its source; the message says how."""


@dataclass
class MigrationReport:
    name: str
    source: str
    target: str
    events: int
    source_events: int
    queries: int = 0
    identical_queries: int = 0
    seconds: float = 0.0
    differing: List[str] = field(default_factory=list)  # queries whose hits differ (at most 5 shown)

    def as_dict(self) -> Dict[str, Any]:
        return asdict(self)


def _hit_keys(store: CorpusStore, query: str, now: float) -> List[Any]:
    # Identity of a hit across stores: what the event says, never where a store put it (offset, row id).
    # One ``now`` for both stores: recency moves the scores as the clock does.
    return [(h.event.get("timestamp"), h.event.get("session_id"), h.event.get("step_num"), h.event.get("goal"),
             round(h.score, 6)) for h in store.search_events(query, top_k=_TOP_K, now=now)]


def _sampled(records: Iterable[Dict[str, Any]], total: int, samples: List[str],
             progress: Optional[Progress]) -> Iterator[Dict[str, Any]]:
    """Pass records through, reporting progress and keeping the goals of about SAMPLE_QUERIES of them."""
    step = max(1, total // SAMPLE_QUERIES)
    count = 0
    for record in records:
        if count % step == 0 and len(samples) < SAMPLE_QUERIES and isinstance(record.get("goal"), str):
            samples.append(record["goal"][:200])
        count += 1
        if progress is not None and count % PROGRESS_EVERY == 0:
            progress(count, total)
        yield record
    if progress is not None and count % PROGRESS_EVERY:
        progress(count, total)


def migrate(source: CorpusStore, target: CorpusStore, progress: Optional[Progress] = None) -> MigrationReport:
    """Copy every event of ``source`` into the empty ``target``; raises MigrationError if the counts differ."""
    start = time.monotonic()
    total = int(source.stats()["events"])
    samples: List[str] = []
    copied = target.load(_sampled(source.records(), total, samples, progress))
    report = MigrationReport(source.name, source.location, target.location, copied, total)
    held = int(target.stats()["events"])
    if copied != total or held != total:
        raise MigrationError(f"{target.location} holds {held} events after copying {copied} of the {total} in "
                             f"{source.location}; the source is unchanged")
    now = time.time()
    for query in samples:
        report.queries += 1
        if _hit_keys(source, query, now) == _hit_keys(target, query, now):
            report.identical_queries += 1
        elif len(report.differing) < 5:
            report.differing.append(query)
    report.seconds = round(time.monotonic() - start, 3)
    return report
