"""Search hits of an experience corpus, and the ranking every store applies to its candidates.

A store (``store.CorpusStore``: the JSONL + SQLite FTS5 one, the PostgreSQL one)
only has to find a bounded pool of candidate events for the query's words and
report the words' document frequencies; ``rank_pool`` then scores the pool the
same way for all of them (exact BM25 over the stored texts × recency × outcome,
spec 001 Phase 4). Two stores that find the same pool therefore return the same
hits in the same order with the same scores: this is what the conformance
suite's ranking parity checks.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Dict, Iterable, List, Optional, Sequence, Tuple

from ragix_core.core.text import bounded
from ragix_core.core.types import ReasoningEvent

__all__ = ["ScoredEvent", "Candidate", "format_block", "rank_pool"]

_MAX_SHOWN_CHARS = 2000  # per error/critique line in the LLM context block

# (id, position in the store, epoch ts, outcome_status, recovery): the position is the
# byte offset in a JSONL log, or the row id in a database.
Candidate = Tuple[int, int, Optional[float], Optional[str], bool]


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


def _shown(text: Any) -> str:
    return bounded(text, _MAX_SHOWN_CHARS, marker=False)


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


def rank_pool(pool: Sequence[Tuple[Candidate, Dict[str, Any]]], terms: Sequence[str], df: Dict[str, int],
              n_docs: int, now_ts: float, max_age_days: int, source: str, top_k: int) -> List[ScoredEvent]:
    """The best ``top_k`` of ``pool`` (candidates with their records): BM25 × recency × outcome."""
    from ragix_core.memory.rerank import bm25_pool, coverage
    from ragix_core.memory.scoring import combined_score, recency

    if not pool:
        return []
    bm25 = bm25_pool([r for _, r in pool], terms, df, n_docs)
    best = max(bm25)
    hits: List[ScoredEvent] = []
    for ((_cid, offset, ts, outcome, recovery), record), raw in zip(pool, bm25):
        if raw <= 0:
            continue  # matched a word the query's tokenizer would not (diacritics edge cases)
        score = combined_score(raw / best, len(terms), ts, now_ts, max_age_days, outcome, recovery)
        hits.append(ScoredEvent(score, record, source, offset, raw, recency(ts, now_ts, max_age_days),
                                coverage(record, terms)))
    hits.sort(key=lambda h: (h.score, h.event.get("timestamp") or ""), reverse=True)
    return hits[:top_k]
