"""Exact BM25 over a small candidate pool, computed from the stored records.

The index retrieves a bounded pool of candidates (see ``index.candidates``),
possibly using only the rarest query words to keep the cost flat. Here every
query word counts again: each candidate's searched fields are tokenized like
FTS5's ``unicode61`` tokenizer and scored with Okapi BM25, using document
frequencies from the whole index, so common words still separate candidates.
"""

from __future__ import annotations

import math
import re
import unicodedata
from collections import Counter
from typing import Any, Dict, List, Mapping, Sequence

from .records import TEXT_FIELDS, text_field

__all__ = ["fold", "tokens", "inverse_df", "bm25_pool", "coverage", "K1", "B"]

K1 = 1.2
B = 0.75
_WORD = re.compile(r"[^\W_]+", re.UNICODE)


def fold(term: str) -> str:
    """Lower case without diacritics: what ``unicode61 remove_diacritics 2`` indexes."""
    term = term.lower()
    if term.isascii():
        return term
    return "".join(c for c in unicodedata.normalize("NFKD", term) if not unicodedata.combining(c))


def tokens(text: str) -> List[str]:
    return [fold(w) for w in _WORD.findall(text)]


def coverage(record: Mapping[str, Any], terms: Sequence[str]) -> float:
    """The share of the query's distinct terms that occur in the record's searched text (0..1):
    an absolute similarity, unlike BM25, which only ranks the candidates of one query."""
    folded = set(fold(t) for t in terms)
    if not folded:
        return 0.0
    words = set(tokens(" ".join(text_field(record, f) for f in TEXT_FIELDS)))
    return len(folded & words) / len(folded)


def inverse_df(df: int, n_docs: int) -> float:
    """BM25's idf of a word found in ``df`` of ``n_docs`` documents (always > 0)."""
    return math.log(1.0 + (n_docs - df + 0.5) / (df + 0.5))


def bm25_pool(records: Sequence[Mapping[str, Any]], terms: Sequence[str], df: Mapping[str, int],
              n_docs: int) -> List[float]:
    """BM25 of each record for ``terms`` (higher is better); ``df`` is keyed by folded term."""
    folded = list(dict.fromkeys(fold(t) for t in terms))
    bags: List[Counter] = []
    lengths: List[int] = []
    for rec in records:
        text = " ".join(text_field(rec, f) for f in TEXT_FIELDS).lower()
        words = _WORD.findall(text)
        if not text.isascii():  # folding is only needed (and only costly) outside ASCII
            words = [fold(w) for w in words]
        bags.append(Counter(words))
        lengths.append(len(words))
    avgdl = (sum(lengths) / len(lengths)) if lengths else 1.0
    n = max(n_docs, 1)
    idf: Dict[str, float] = {t: inverse_df(df.get(t, 0), n) for t in folded}
    scores = []
    for bag, dl in zip(bags, lengths):
        s = 0.0
        for t in folded:
            tf = bag.get(t, 0)
            if tf:
                s += idf[t] * tf * (K1 + 1) / (tf + K1 * (1 - B + B * dl / max(avgdl, 1e-9)))
        scores.append(s)
    return scores
