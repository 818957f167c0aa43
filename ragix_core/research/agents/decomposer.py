"""The decomposer: the separate questions a question asks, each to be researched on its own.

Used only after the loop could not back an answer (ADaPT, arXiv 2311.05772: decompose after a failure,
not before; +27 to +33 points over planning first). Measured on two real manuals (issue 35): every
false decline of the full loop was a question asking two things ("How many tables can a single join have,
and how many levels deep may JSON input nest?"), whose two facts stand on two pages; one search for the
whole question retrieved at most one of them, and the draft got the other part wrong.

The model only splits; what it returns is checked, never trusted: at most MAX_PARTS parts, each short,
distinct, other than the whole question, and made mostly of the question's own words (a part that asks
about something the user did not name is dropped). Fewer than two parts left means no decomposition. A
question that joins nothing (no "and", comma, comparison or second question mark) is not sent at all.
"""

from __future__ import annotations

import re
from typing import Any, List, Optional

from pydantic import BaseModel, ConfigDict, Field

from ragix_core.core.stop import StopRun

from ..matching import content_words
from .base import BaseReasoningAgent

__all__ = ["DecomposerAgent", "MAX_PARTS", "own_words_share", "may_ask_several"]

MAX_PARTS = 4
MAX_PART_CHARS = 300
MIN_OWN_WORDS = 0.6  # share of a part's content words that the question itself uses
_SCHEMA = {"type": "object", "additionalProperties": False,
           "properties": {"questions": {"type": "array", "minItems": 1, "maxItems": MAX_PARTS,
                                        "items": {"type": "string", "maxLength": MAX_PART_CHARS}}},
           "required": ["questions"]}


# What joins two asks in any wording: a coordinator, a list separator, a comparison, a second question mark.
_JOINS = re.compile(r"\b(?:and|or|plus|also|as well as|versus|vs\.?|both|compared?|comparing|with)\b|[,;&]|\?.*\?",
                    re.IGNORECASE)


def may_ask_several(question: str) -> bool:
    """Whether ``question`` joins anything at all: one that does not asks one thing, and costs no call."""
    return bool(_JOINS.search(question))


class _Reply(BaseModel):
    model_config = ConfigDict(extra="ignore")
    questions: List[str] = Field(..., max_length=MAX_PARTS + 4)


def own_words_share(part: str, question: str) -> float:
    """How much of ``part``'s content (matching.content_words) is the question's own words (0.0 for none)."""
    words = content_words(part)
    return len(words & content_words(question)) / len(words) if words else 0.0


class DecomposerAgent(BaseReasoningAgent):
    def __init__(self, client: Any, timeout: Optional[float] = None) -> None:
        super().__init__(client, "decomposer", timeout)

    def split(self, question: str) -> List[str]:
        """The checked parts of ``question``; [] when it asks one thing or the model's split is unusable."""
        if not may_ask_several(question):
            return []
        try:
            reply, _ = self.ask("research_decompose", {"question": question}, _Reply, schema=_SCHEMA, max_tokens=300)
        except StopRun:
            return []
        keys = {frozenset(content_words(question))}  # the whole question, then each part kept
        parts: List[str] = []
        for raw in reply.questions:
            part = " ".join(str(raw).split())
            key = frozenset(content_words(part))
            if (not key or len(part) > MAX_PART_CHARS or key in keys
                    or own_words_share(part, question) < MIN_OWN_WORDS):
                continue
            keys.add(key)
            parts.append(part)
        return parts[:MAX_PARTS] if len(parts) >= 2 else []
