"""Whether a goal asks several things: the one rule the graph (plan at once instead of trying one
command first, ``reasoning_v30.build.try_first_route``; label COMPLEX, ``labels``) and the collective
patterns (the hierarchical master splits only such a goal; ``ragix ask`` sends it to that master) share.
"""

from __future__ import annotations

import re

__all__ = ["several_asks"]

# A second question joined to the first: "How many X, and which Y?", "Count X; then list Y".
_ASK = r"(how many|how much|which|what|where|who|when|list|count|find|show|name)"
_SECOND_ASK = re.compile(r"(\?|;|,?\s+and\s+(also\s+)?|,?\s+then\s+|,\s+)" + _ASK + r"\b", re.IGNORECASE)


def several_asks(goal: str) -> bool:
    """True when the goal asks two things (two questions, or a second ask after "and"/"then"/";"):
    one command cannot answer it, so the try-first route plans at once."""
    text = goal.strip()
    if text.count("?") >= 2:
        return True
    first = re.search(r"\b" + _ASK + r"\b", text, re.IGNORECASE)
    return bool(first and _SECOND_ASK.search(text, first.end()))
