"""Ranking on top of BM25, following spec 001 Phase 4.

Spec 001 scores ``(keyword_score * 2 + recency) * success_bonus`` where
keyword_score counts matched query words, recency falls linearly from 1 (now)
to 0 (``max_age_days`` old) and success_bonus is 1.5 for a successful outcome.
We keep that formula and replace the raw word count by BM25 expressed in the
same unit: the best candidate of a query scores as many "words" as the query
has, the others proportionally to their BM25. Successful recoveries (see
``records.is_recovery``) are preferred with a further ×1.2.
"""

from __future__ import annotations

from typing import Optional

__all__ = ["SUCCESS_BONUS", "RECOVERY_BONUS", "recency", "outcome_weight", "combined_score"]

SUCCESS_BONUS = 1.5
RECOVERY_BONUS = 1.2
_DAY = 86400.0


def recency(ts: Optional[float], now: float, max_age_days: float) -> float:
    """1.0 for an event at ``now``, falling linearly to 0.0 at ``max_age_days``; future events count as now."""
    if ts is None or max_age_days <= 0:
        return 0.0
    age_days = max(0.0, (now - ts) / _DAY)
    return max(0.0, 1.0 - age_days / max_age_days)


def outcome_weight(outcome: Optional[str], recovery: bool) -> float:
    if outcome == "success":
        return SUCCESS_BONUS * (RECOVERY_BONUS if recovery else 1.0)
    return 1.0


def combined_score(relevance: float, n_terms: int, ts: Optional[float], now: float,
                   max_age_days: float, outcome: Optional[str], recovery: bool) -> float:
    """``relevance`` is BM25 relevance normalised to [0, 1] within the query's candidates."""
    keyword = relevance * max(1, n_terms)
    return (keyword * 2.0 + recency(ts, now, max_age_days)) * outcome_weight(outcome, recovery)
