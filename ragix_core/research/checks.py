"""The critic's deterministic checks, run before any model is asked (evidence over opinion).

For every claim of a draft:
- **existence**: the cited label is in the context, or the cited chunk id is in the index,
  and its file exists under the documents directory; otherwise the citation is fabricated;
- **quote support**: the quote occurs in the cited chunk (after folding case, quotes, dashes
  and spaces: "exact"), or a window of the chunk as long as the quote holds >= 80 % of its
  words ("close"; the output then quotes that window); a claim without a quote is matched
  to the chunk sentence that shares most of its words;
- **tier compliance**: in strict mode every cited source is of a known tier <= max_tier.
And for the answer: every number and every capitalised name it states (beyond the question's
own words; every content word of a short answer) must occur in a cited chunk; an answer with
no supported citation is unsupported.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Dict, List, Optional, Tuple

from .context import Context, normalize_label
from .draft import Citation, ClaimIn, Draft

__all__ = ["CheckReport", "Resolver", "check_draft", "fold", "support", "answer_terms"]

CLOSE = 0.8
_WORD = re.compile(r"[^\W_]+", re.UNICODE)
_TRANSLATE = str.maketrans({"\u2018": "'", "\u2019": "'", "\u201c": '"', "\u201d": '"', "\u2013": "-",
                            "\u2014": "-", "\u00a0": " "})
_STOP = frozenset("a an and are as at be by for from has have in into is it its of on or that the this to was "
                  "were will with what which who whom when where why how does do did yes no not about around "
                  "approximately roughly nearly some they there their located based called named".split())


def fold(text: str) -> str:
    text = unicodedata.normalize("NFKC", str(text or "")).translate(_TRANSLATE).casefold()
    return " ".join(text.split()).strip(" .,;:!?\"'")


def _words(text: str) -> List[Tuple[str, int, int]]:
    return [(m.group().casefold(), m.start(), m.end()) for m in _WORD.finditer(text)]


def support(quote: str, claim: str, chunk_text: str) -> Tuple[str, str]:
    """("exact" | "close" | "none", the supporting text as it stands in the chunk)."""
    if quote.strip():
        qw = [w for w, _, _ in _words(unicodedata.normalize("NFKC", quote))]
        cw = _words(chunk_text)
        n = len(qw)
        for start in range(0, len(cw) - n + 1) if n else ():
            if [w for w, _, _ in cw[start:start + n]] == qw:  # the chunk's own characters are quoted
                return "exact", chunk_text[cw[start][1]:cw[start + n - 1][2]]
        if qw and cw:
            n = len(qw)
            best, best_at = 0, 0
            for start in range(0, max(1, len(cw) - n + 1)):
                window = [w for w, _, _ in cw[start:start + n]]
                hits = _in_order(qw, window)
                if hits > best:
                    best, best_at = hits, start
            if best / n >= CLOSE:
                seg = cw[best_at:best_at + n]
                return "close", chunk_text[seg[0][1]:seg[-1][2]]
        return "none", ""
    # No quote: the chunk sentence sharing most of the claim's content words.
    content = {w for w, _, _ in _words(claim) if w not in _STOP}
    if not content:
        return "none", ""
    best_ratio, best_sentence = 0.0, ""
    for sentence in re.split(r"(?<=[.!?])\s+|\n", chunk_text):
        words = {w for w, _, _ in _words(sentence)}
        ratio = len(content & words) / len(content)
        if ratio > best_ratio:
            best_ratio, best_sentence = ratio, sentence.strip()
    return ("close", best_sentence) if best_ratio >= 0.6 else ("none", "")


def _in_order(needle: List[str], hay: List[str]) -> int:
    """How many of ``needle``'s words the window ``hay`` holds (each occurrence counted once)."""
    from collections import Counter

    return sum((Counter(needle) & Counter(hay)).values())


_NUMBER = re.compile(r"\d(?:[\d,.]*\d)?")


SHORT_ANSWER_WORDS = 6


def answer_terms(answer: str, question: str) -> List[str]:
    """What the answer states that the question does not: its numbers and capitalised names; and,
    for a short answer (<= 6 words: a name, a number, "copper wire"), every content word."""
    asked = {w for w, _, _ in _words(question)}
    asked_numbers = {_number(n) for n in _NUMBER.findall(question)}
    words = [w for w, _, _ in _words(answer)]
    if len(words) <= SHORT_ANSWER_WORDS:
        out = [n for n in _NUMBER.findall(answer) if _number(n) not in asked_numbers]
        out += [w for w in re.findall(r"[^\W\d_][\w'-]*", answer)
                if w.casefold() not in _STOP and w.casefold() not in asked and w.casefold().rstrip("s") not in asked]
        return list(dict.fromkeys(out))
    out = []
    for sentence in re.split(r"(?<=[.!?:])\s+", answer):
        for n in _NUMBER.findall(sentence):
            if _number(n) not in asked_numbers:
                out.append(n)
        tokens = re.findall(r"[^\W\d_][\w'-]*", sentence)
        for i, tok in enumerate(tokens):
            low = tok.casefold()
            if i > 0 and tok[0].isupper() and low not in _STOP and low not in asked and low.rstrip("s") not in asked:
                out.append(tok)
    return list(dict.fromkeys(out))


def _number(text: str) -> str:
    """"4,000" and "4000" are the same number; "3.50" and "3.5" too."""
    t = text.replace(",", "")
    return t.rstrip("0").rstrip(".") if "." in t else t


def _term_in(term: str, texts: List[str]) -> bool:
    if term[0].isdigit():
        return any(_number(term) == _number(n) for x in texts for n in _NUMBER.findall(x))
    t = fold(term)
    stem = t[:-1] if t.endswith("s") and len(t) > 3 else t
    return any(re.search(r"\b" + re.escape(stem), fold(x)) for x in texts)


@dataclass
class CheckReport:
    fabricated: List[str] = field(default_factory=list)
    unsupported_quotes: List[str] = field(default_factory=list)
    tier_violations: List[str] = field(default_factory=list)
    unsupported_terms: List[str] = field(default_factory=list)
    missing_citations: bool = False
    notes: List[str] = field(default_factory=list)

    def failures(self) -> List[str]:
        out = [f"citation to a source that does not exist: {x}" for x in self.fabricated]
        out += [f"quote not found in the cited source: {x}" for x in self.unsupported_quotes]
        out += [f"source above the mode's tier limit: {x}" for x in self.tier_violations]
        if self.unsupported_terms:
            out.append("answer states what no cited source says: " + ", ".join(self.unsupported_terms))
        if self.missing_citations:
            out.append("the answer cites no source that supports it")
        return out

    @property
    def passed(self) -> bool:
        return not self.failures()

    def to_dict(self) -> Dict[str, Any]:
        return {"fabricated": self.fabricated, "unsupported_quotes": self.unsupported_quotes,
                "tier_violations": self.tier_violations, "unsupported_terms": self.unsupported_terms,
                "missing_citations": self.missing_citations, "notes": self.notes}


class Resolver:
    """Maps what a draft cites to real chunks: the run's context first, then the index by chunk id."""

    def __init__(self, context: Context, index: Any, docs_dir: Path, source_map: Any, tier_filter: Any) -> None:
        self.context = context
        self.index = index
        self.docs_dir = Path(docs_dir)
        self.source_map = source_map
        self.tier_filter = tier_filter

    def resolve(self, claim: ClaimIn, side: str = "main") -> Citation:
        cit = Citation(source_ref=claim.source, claim=claim.text, claimed_quote=claim.quote, side=side)
        item = self.context.by_label(claim.source) if normalize_label(claim.source) else None
        if item is not None:
            cit.label, cit.chunk, cit.path = item["label"], item["chunk"], item["path"]
            text = item.get("_text") or self._raw_text(item)
            meta = item.get("_reasoning_metadata") or {}
            cit.source, cit.tier, cit.type = meta.get("original_source"), meta.get("tier"), meta.get("type", "unknown")
        else:
            hit = self.index.get(claim.source) if self.index is not None else None
            if hit is None:
                return cit  # cites nothing that exists
            info = self.source_map.info(hit.path)
            cit.chunk, cit.path, text = hit.chunk, hit.path, hit.text
            cit.source, cit.tier, cit.type = info.source, info.tier, info.type
            cit.label = self.context.label_of(hit.chunk)
        cit.exists = (self.docs_dir / cit.path).is_file() and (self.index is None or self.index.get(cit.chunk) is not None)
        if cit.exists:
            cit.support, cit.quote = support(claim.quote, claim.text, text)
        return cit

    def _raw_text(self, item: Dict[str, Any]) -> str:
        hit = self.index.get(item["chunk"]) if self.index is not None else None
        return hit.text if hit is not None else str(item.get("description") or "")


def check_draft(draft: Draft, resolver: Resolver, question: str, mode: str) -> CheckReport:
    """Resolve every citation of ``draft`` (stored in ``draft.citations``) and check it."""
    report = CheckReport()
    draft.citations = [resolver.resolve(c) for c in draft.claims]
    draft.citations += [resolver.resolve(c, side="other") for c in draft.other_claims]
    for cit in draft.citations:
        ref = cit.source_ref or "(no source given)"
        if not cit.exists:
            report.fabricated.append(ref)
            continue
        if cit.support == "none":
            report.unsupported_quotes.append(f"{ref}: \"{cit.claimed_quote or cit.claim}\"")
        if mode == "strict" and not resolver.tier_filter.allows(cit.source or "", mode):
            report.tier_violations.append(f"{ref} ({cit.path}: {cit.source}, tier {cit.tier or '?'})")
    good = [c for c in draft.citations if c.exists and c.support != "none"]
    for answer, side in ((draft.answer, "main"), (draft.other_answer, "other")):
        if not answer or _declined(answer):
            continue
        texts = [resolver._raw_text({"chunk": c.chunk, "description": c.quote}) for c in good if c.side == side]
        if not texts:
            if side == "main":
                report.missing_citations = True
            else:
                report.notes.append("the less credible side's answer cites no supported source; it is left out")
            continue
        missing = [t for t in answer_terms(answer, question) if not _term_in(t, texts)]
        if side == "main":
            report.unsupported_terms += missing
        elif missing:
            report.notes.append("the less credible side's answer states what its sources do not: " + ", ".join(missing))
    return report


def _declined(answer: str) -> bool:
    from .draft import is_not_found

    return is_not_found(answer)
