"""Arbitrary user or LLM text → a safe FTS5 MATCH expression.

FTS5 has its own query language (quotes, parentheses, ``NEAR``, ``AND``,
``*``, ``^``, ``column:``). Passing raw text to MATCH raises syntax errors on
ordinary input such as ``foo(`` or ``error: "x``. We never do that: the text is
split into words and each word becomes a quoted string, joined with ``OR``.
Inside a quoted FTS5 string every character is literal, so no operator can
leak through; words are made only of letters and digits (what the
``unicode61`` tokenizer keeps), so a quoted word is never empty for FTS5.
"""

from __future__ import annotations

import re
import unicodedata
from typing import List, Optional

__all__ = ["query_terms", "match_expression", "MAX_TERMS", "STOPWORDS"]

MAX_TERMS = 32
_MAX_TERM_CHARS = 64

# Words so common in goals and errors that they only add cost and noise.
STOPWORDS = frozenset(
    "a an and are as at be by for from has have in into is it its of on or "
    "that the this to was were will with".split()
)

# Letters and digits only ([^\W_] = \w without the underscore, which unicode61 splits on).
_WORD = re.compile(r"[^\W_]+", re.UNICODE)


def _is_token_char(ch: str) -> bool:
    cat = unicodedata.category(ch)
    return cat[0] in "LN" or cat == "Co"


def query_terms(text: str) -> List[str]:
    """Distinct lower-cased words of ``text`` (stopwords dropped unless nothing else is left)."""
    if not isinstance(text, str):
        text = str(text)
    words: List[str] = []
    seen = set()
    for match in _WORD.finditer(text.lower()):
        # Python's \w and unicode61 disagree on a few marks; keep only what FTS5 indexes.
        word = "".join(ch for ch in match.group() if _is_token_char(ch))[:_MAX_TERM_CHARS]
        if word and word not in seen:
            seen.add(word)
            words.append(word)
    kept = [w for w in words if w not in STOPWORDS] or words
    return kept[:MAX_TERMS]


def match_expression(terms: List[str]) -> Optional[str]:
    """``"a" OR "b"`` for the given terms; None when there is nothing to search for."""
    quoted = ['"' + t.replace('"', '""') + '"' for t in terms if t]
    return " OR ".join(quoted) if quoted else None
