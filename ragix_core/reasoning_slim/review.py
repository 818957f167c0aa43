"""PRE-REVIEW (internal, no model call) and the PEER verdicts (spec 002 §4 "3.6").

Pre-review scores a child's answer on four checks, each in [0, 1]:
- alignment: the node's BM25 relevance to the root question;
- coverage: share of the sub-question's content words found in its answer and reasoning;
- completeness: 1 for a concrete answer, 0 for an empty one or a non-answer ("I don't know",
  "cannot be determined"), 0.5 for an answer longer than 300 characters (not one short result);
- confidence: 1 - the entropy H behind the node's answer (direct samples, or its accepted collapse).
The pre-review score is their mean.

The peer's verdict follows the spec's score ranges, whatever word the peer chose:
approved ≥ 0.6, minor_revision [0.4, 0.6), major_revision [0.3, 0.4), reject < 0.3.
Rejected children are left out of the collapse. The ranking score of a child is the mean
of its pre-review score and its peer score (pre-review alone when it was not peer-reviewed).
"""

from __future__ import annotations

import re
from typing import Any, Dict, Literal, Optional

from pydantic import BaseModel, Field

from ragix_core.core.text import bounded
from ragix_core.memory.rerank import tokens
from ragix_core.reasoning_slim.relevance import STOPWORDS
from ragix_core.reasoning_slim.tree import Node

__all__ = ["pre_review", "verdict_for", "peer_record", "PeerReply", "rank_score", "VERDICTS", "NON_ANSWER"]

VERDICTS = ("approved", "minor_revision", "major_revision", "reject")
NON_ANSWER = re.compile(r"\b(i don'?t know|unknown|cannot be (determined|answered)|not enough information|"
                        r"insufficient information|n/?a|no answer)\b", re.IGNORECASE)
LONG_ANSWER = 300


class PeerReply(BaseModel):
    score: float = Field(ge=0.0, le=1.0)
    verdict: Literal["approved", "minor_revision", "major_revision", "reject"]
    suggestion: str = ""  # bounded in peer_record (no maxLength in the grammar: it slows decoding)


def verdict_for(score: float) -> str:
    """The spec's table: the verdict a score in [0, 1] falls in."""
    if score >= 0.6:
        return "approved"
    if score >= 0.4:
        return "minor_revision"
    if score >= 0.3:
        return "major_revision"
    return "reject"


def _content(text: str) -> set:
    return {w for w in tokens(text) if w not in STOPWORDS and len(w) > 1}


def pre_review(node: Node) -> Dict[str, float]:
    answer = (node.answer or "").strip()
    words = _content(node.question)
    found = _content(answer + " " + (node.reasoning or ""))
    coverage = len(words & found) / len(words) if words else 1.0
    if not answer or NON_ANSWER.search(answer):
        completeness = 0.0
    elif len(answer) > LONG_ANSWER:
        completeness = 0.5
    else:
        completeness = 1.0
    h = node.answer_entropy if node.answer_entropy is not None else (node.entropy.total if node.entropy else 1.0)
    confidence = 1.0 - h
    scores = {"alignment": node.relevance, "coverage": coverage, "completeness": completeness,
              "confidence": confidence}
    scores = {k: round(max(0.0, min(1.0, v)), 4) for k, v in scores.items()}
    scores["score"] = round(sum(scores.values()) / 4, 4)
    return scores


def peer_record(reply: PeerReply) -> Dict[str, Any]:
    """What the tree keeps of a peer reply: the verdict is the score's range (the spec's table)."""
    verdict = verdict_for(reply.score)
    return {"verdict": verdict, "score": round(reply.score, 4), "model_verdict": reply.verdict,
            "consistent": verdict == reply.verdict, "suggestion": bounded(reply.suggestion.strip(), 200, marker=False)}


def rank_score(node: Node) -> float:
    pre = (node.pre_review or {}).get("score", 0.0)
    peer: Optional[Dict[str, Any]] = node.peer
    if peer and isinstance(peer.get("score"), (int, float)):
        return (pre + float(peer["score"])) / 2
    return pre
