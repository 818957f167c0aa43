"""Reading a short answer out of a chatty model reply (the reply is untrusted text)."""

from __future__ import annotations

import re
from typing import Optional

__all__ = ["last_number", "numbers_equal", "string_answer_matches"]

# Thousands separators are accepted only in groups of three ("1,234"), so "3, 4" stays two numbers.
_NUMBER = re.compile(r"-?\d{1,3}(?:,\d{3})+(?:\.\d+)?|-?\d+(?:\.\d+)?")


def last_number(text: str) -> Optional[float]:
    """The last number in ``text`` (models state the result last), or None."""
    found = _NUMBER.findall(text or "")
    if not found:
        return None
    try:
        return float(found[-1].replace(",", ""))
    except ValueError:
        return None


def numbers_equal(answer: str, expected: str, tolerance: float = 1e-6) -> bool:
    got = last_number(answer)
    want = last_number(str(expected))
    return got is not None and want is not None and abs(got - want) <= tolerance * max(1.0, abs(want))


def string_answer_matches(answer: str, expected: str) -> bool:
    """Exact after trimming, or the expected text alone on one line, or as a word of the reply.

    A whole-word match (not a substring) keeps "no" from matching "not" or "know".
    """
    answer = (answer or "").replace("\r\n", "\n").strip()
    expected = str(expected).strip()
    if not expected:
        return False
    if answer == expected:
        return True
    lines = [ln.strip().strip("`*\"'.") for ln in answer.splitlines()]
    if expected in lines:
        return True
    return re.search(r"(?<![\w./-])" + re.escape(expected) + r"(?![\w/-])", answer) is not None
