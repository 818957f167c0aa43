"""Keys under which two samples count as the same.

``normalize_output``: two commands agree when they printed the same thing, up
to layout: trailing spaces, blank lines, a leading "./" on paths and runs of
spaces do not matter; line order does (a sorted listing is an answer).
``short_output_key``: a short output (a count, a name) that states numbers is compared by its numbers
alone, so `wc -l main.c` ("42 main.c") and `wc -l < main.c` ("42") agree; other short outputs by their
lines in any order.
``normalize_answer``: two free-text answers agree when their words and numbers
match after case and punctuation are folded ("1,024" = "1024", "3.0" = "3").
``token_jaccard``: a similarity in [0, 1] for clustering longer answers.
``sequence_similarity``: the same tokens compared in order (difflib's ratio), so
"A is a knight, B is a knave" and "A is a knave, B is a knight" differ, which
for token sets they do not. ``similarity(name)`` picks one by name.
"""

from __future__ import annotations

import difflib
import re
from typing import Callable, Dict, FrozenSet

__all__ = ["normalize_output", "short_output_key", "normalize_answer", "token_jaccard", "answer_tokens", "sequence_similarity",
           "exact_similarity", "similarity", "SIMILARITIES"]

_SPACES = re.compile(r"[ \t]+")
_DOT_SLASH = re.compile(r"(?<![\w./])\./")
_NUMBER = re.compile(r"\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?")  # 1,024 is one number; 1,2 two
# A number standing as a word of its own: 42 in "42 src/main.c", not the 1 of file1.txt nor the digits of a hash.
_STANDALONE_NUMBER = re.compile(r"(?<![\w.])\d+(?:\.\d+)?(?![\w.]*\w)")
_TOKEN = re.compile(r"\d+(?:\.\d+)?|[^\W\d_]+", re.UNICODE)  # a number (after _number) or a word


def normalize_output(text: str) -> str:
    lines = []
    for line in (text or "").splitlines():
        line = _DOT_SLASH.sub("", _SPACES.sub(" ", line.strip()))
        if line:
            lines.append(line)
    return "\n".join(lines)


def short_output_key(text: str) -> str:
    """What two short outputs must share to agree (see the module's docstring)."""
    normalized = normalize_output(text)
    numbers = _STANDALONE_NUMBER.findall(normalized)
    return "numbers: " + " ".join(numbers) if numbers else "\n".join(sorted(normalized.splitlines()))


def _number(match: "re.Match[str]") -> str:
    raw = match.group().replace(",", "")
    try:
        value = float(raw)
    except ValueError:
        return raw
    return str(int(value)) if value == int(value) else repr(value)


def normalize_answer(text: str) -> str:
    return " ".join(_TOKEN.findall(_NUMBER.sub(_number, (text or "").casefold())))


def answer_tokens(text: str) -> FrozenSet[str]:
    return frozenset(normalize_answer(text).split())


def token_jaccard(a: str, b: str) -> float:
    ta, tb = answer_tokens(a), answer_tokens(b)
    if not ta and not tb:
        return 1.0
    return len(ta & tb) / len(ta | tb)


def sequence_similarity(a: str, b: str) -> float:
    """2·M / (|A| + |B|) over the normalised token sequences (M: tokens matched in order)."""
    ta, tb = normalize_answer(a).split(), normalize_answer(b).split()
    if not ta and not tb:
        return 1.0
    return difflib.SequenceMatcher(None, ta, tb, autojunk=False).ratio()


def exact_similarity(a: str, b: str) -> float:
    return 1.0 if normalize_answer(a) == normalize_answer(b) else 0.0


SIMILARITIES: Dict[str, Callable[[str, str], float]] = {
    "exact": exact_similarity,
    "jaccard": token_jaccard,
    "sequence": sequence_similarity,
}


def similarity(name: str) -> Callable[[str, str], float]:
    try:
        return SIMILARITIES[name]
    except KeyError:
        raise ValueError(f"unknown similarity {name!r}; known: {', '.join(SIMILARITIES)}") from None
