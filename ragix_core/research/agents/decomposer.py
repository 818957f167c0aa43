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

from .base import BaseReasoningAgent

__all__ = ["DecomposerAgent", "MAX_PARTS", "own_words_share", "may_ask_several"]

MAX_PARTS = 4
MAX_PART_CHARS = 300
MIN_OWN_WORDS = 0.6  # share of a part's content words that the question itself uses
_SCHEMA = {"type": "object", "additionalProperties": False,
           "properties": {"questions": {"type": "array", "minItems": 1, "maxItems": MAX_PARTS,
                                        "items": {"type": "string", "maxLength": MAX_PART_CHARS}}},
           "required": ["questions"]}
# Words that carry no subject: a part may add them freely ("What is ...?", "How many ... does ... have?").
_FUNCTION_WORDS = set("""a an the of in on at to for by with from and or is are was were be been does do did
has have had what which who whom whose when where why how many much it its this that these those i my me
you your we our can could may might will would should shall there their they them as into about than
default defaults by use used uses""".split())


# What joins two asks in any wording: a coordinator, a list separator, a comparison, a second question mark.
_JOINS = re.compile(r"\b(?:and|or|as well as|versus|vs\.?|both|compared?|comparing|with)\b|[,;]|\?.*\?",
                    re.IGNORECASE)


def may_ask_several(question: str) -> bool:
    """Whether ``question`` joins anything at all: one that does not asks one thing, and costs no call."""
    return bool(_JOINS.search(question))


class _Reply(BaseModel):
    model_config = ConfigDict(extra="ignore")
    questions: List[str] = Field(..., max_length=MAX_PARTS + 4)


def _content_words(text: str) -> List[str]:
    return [w for w in re.findall(r"[^\W_]+", text.casefold()) if w not in _FUNCTION_WORDS]


def own_words_share(part: str, question: str) -> float:
    """How much of ``part``'s content is the question's own words (1.0 for a part with no content word)."""
    words = _content_words(part)
    if not words:
        return 0.0
    asked = set(_content_words(question))
    return sum(w in asked for w in words) / len(words)


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
        whole = " ".join(_content_words(question))
        parts: List[str] = []
        for raw in reply.questions:
            part = " ".join(str(raw).split())
            key = " ".join(_content_words(part))
            if (not part or len(part) > MAX_PART_CHARS or not key or key == whole
                    or key in {" ".join(_content_words(p)) for p in parts}
                    or own_words_share(part, question) < MIN_OWN_WORDS):
                continue
            parts.append(part)
        return parts[:MAX_PARTS] if len(parts) >= 2 else []
