"""Where a quote, or a claim, stands in a chunk: the text matching the critic's checks share.

``support(quote, claim, chunk)`` answers "exact", "close" or "none", with the supporting text as
it stands in the chunk:
- **exact**: the quote's words, in order, after folding case, quotes, dashes and spaces;
- **close**: a window of the chunk as long as the quote holds >= 80 % of its words; or, for a
  quote stitched together from a list (its content words all in the chunk, but never in one
  window), a span of at most a few lines holding >= 80 % of its content words, else the chunk
  sentence that states the claim (of two content words or more). The stitched forms need the
  quote's content words and numbers in the chunk first, so a quote whose words the chunk does
  not hold is never "close";
- a claim without a quote is matched to the chunk sentence that shares most of its words.
A close match must state every number the quote (or claim) states: "limited to 128" is not
supported by "limited to 64", however many other words they share.
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from typing import Iterable, List, Set, Tuple

__all__ = ["CLOSE", "CLAIM_CLOSE", "STOP", "fold", "words", "support", "claim_support", "numbers_in",
           "number_key", "NUMBER", "content_words", "stem", "term_in", "entry_support"]

CLOSE = 0.8
CLAIM_CLOSE = 0.6  # a claim is the model's paraphrase: it shares fewer of its words with the source
# A list the model stitched into a sentence spans its introducing line and a few items.
LIST_SPAN_LINES = 4
# Fewer content words than this are too few to tell a stitched list from a chance of common words.
MIN_STITCHED_WORDS = 3
_WORD = re.compile(r"[^\W_]+", re.UNICODE)
_TRANSLATE = str.maketrans({"\u2018": "'", "\u2019": "'", "\u201c": '"', "\u201d": '"', "\u2013": "-",
                            "\u2014": "-", "\u00a0": " "})
STOP = frozenset("a an and are as at be by for from has have in into is it its of on or that the this to was "
                 "were will with what which who whom when where why how does do did yes no not about around "
                 "approximately roughly nearly some they there their located based called named".split())
# Words that reverse a statement: content words for the stitched-quote match, though STOP holds some.
_NEGATIONS = frozenset("no not never none nor without cannot".split())
NUMBER = re.compile(r"\d(?:[\d,.]*\d)?")
_SENTENCES = re.compile(r"(?<=[.!?])\s+|\n")
NONE: Tuple[str, str] = ("none", "")


def fold(text: str) -> str:
    text = unicodedata.normalize("NFKC", str(text or "")).translate(_TRANSLATE).casefold()
    return " ".join(text.split()).strip(" .,;:!?\"'")


def _spans(text: str) -> List[Tuple[str, int, int]]:
    return [(m.group().casefold(), m.start(), m.end()) for m in _WORD.finditer(text)]


def words(text: str) -> List[str]:
    return [w for w, _, _ in _spans(unicodedata.normalize("NFKC", str(text or "")))]


def stem(word: str) -> str:
    """"packs" and "pack" are one word to the matching of subjects (no stemmer: plural -s only)."""
    return word[:-1] if word.endswith("s") and len(word) > 3 else word


def content_words(text: str) -> Set[str]:
    """The words of ``text`` that say something: not STOP words, stemmed."""
    return {stem(w) for w in words(text) if w not in STOP}


def number_key(text: str) -> str:
    """"4,000" and "4000" are the same number; "3.50" and "3.5" too."""
    t = text.replace(",", "")
    return t.rstrip("0").rstrip(".") if "." in t else t


def numbers_in(text: str) -> Set[str]:
    return {number_key(n) for n in NUMBER.findall(str(text or ""))}


def _states(numbers: Set[str], text: str) -> bool:
    return numbers <= numbers_in(text)


def _held(needle: Iterable[str], hay: Counter) -> float:
    """The share of ``needle``'s words (each occurrence counted once) that ``hay`` holds."""
    need = Counter(needle)
    total = sum(need.values())
    return sum((need & hay).values()) / total if total else 0.0


def support(quote: str, claim: str, chunk_text: str) -> Tuple[str, str]:
    """("exact" | "close" | "none", the supporting text as it stands in the chunk)."""
    if quote.strip():
        return _quote_support(quote, claim, chunk_text)
    return claim_support(claim, chunk_text, CLAIM_CLOSE)


def _quote_support(quote: str, claim: str, text: str) -> Tuple[str, str]:
    qw = words(quote)
    cw = _spans(text)
    if not qw or not cw:
        return NONE
    chunk_bag = Counter(w for w, _, _ in cw)
    numbers = numbers_in(quote)
    content = [w for w in qw if w not in STOP or w in _NEGATIONS]
    stitched = (len(content) >= MIN_STITCHED_WORDS and _held(content, chunk_bag) >= CLOSE
                and _states(numbers, text))
    if _held(qw, chunk_bag) < CLOSE and not stitched:
        return NONE  # most of the quote is nowhere in the chunk: no window can hold it
    n = len(qw)
    for start in range(0, len(cw) - n + 1):
        if [w for w, _, _ in cw[start:start + n]] == qw:  # the chunk's own characters are quoted
            return "exact", text[cw[start][1]:cw[start + n - 1][2]]
    best, best_at = 0.0, 0
    for start in range(0, max(1, len(cw) - n + 1)):
        held = _held(qw, Counter(w for w, _, _ in cw[start:start + n]))
        if held > best:
            best, best_at = held, start
    if best >= CLOSE:
        seg = cw[best_at:best_at + n]
        window = text[seg[0][1]:seg[-1][2]]
        if _states(numbers, window):
            return "close", window
    if stitched:
        span = _line_span(content, numbers, text, max_words=3 * n + 10)
        if span:
            return "close", span
        if len({w for w in words(claim) if w not in STOP}) >= MIN_STITCHED_WORDS - 1:  # "limit" alone proves nothing
            return claim_support(claim, text, CLAIM_CLOSE)
    return NONE


def _line_span(content: List[str], numbers: Set[str], text: str, max_words: int) -> str:
    """The shortest run of at most LIST_SPAN_LINES lines (and ``max_words`` words) holding >= CLOSE
    of ``content`` and every number of the quote, as it stands; "" when there is none."""
    lines, at = [], 0
    for line in text.split("\n"):
        lines.append((at, at + len(line), words(line)))
        at += len(line) + 1
    for size in range(1, LIST_SPAN_LINES + 1):
        for i in range(0, len(lines) - size + 1):
            span_words = [w for _, _, ws in lines[i:i + size] for w in ws]
            if len(span_words) > max_words:
                continue
            span = text[lines[i][0]:lines[i + size - 1][1]].strip()
            if _held(content, Counter(span_words)) >= CLOSE and _states(numbers, span):
                return span
    return ""


def claim_support(claim: str, chunk_text: str, threshold: float) -> Tuple[str, str]:
    """("close", the chunk sentence sharing the most of the claim's content words) when it shares
    at least ``threshold`` of them and states the claim's numbers; else ("none", "")."""
    content = {w for w in words(claim) if w not in STOP}
    if not content:
        return NONE
    numbers = numbers_in(claim)
    best_ratio, best_sentence = 0.0, ""
    for sentence in _SENTENCES.split(chunk_text):
        if not _states(numbers, sentence):
            continue
        ratio = len(content & set(words(sentence))) / len(content)
        if ratio > best_ratio:
            best_ratio, best_sentence = ratio, sentence.strip()
    return ("close", best_sentence) if best_ratio >= threshold else NONE


_SCALE = {"hundred": 100, "thousand": 1000, "million": 10 ** 6, "billion": 10 ** 9}
_SCALED = re.compile(r"(\d+(?:\.\d+)?)\s+(" + "|".join(_SCALE) + r")\b", re.IGNORECASE)


def _written_numbers(text: str) -> Set[str]:
    """The numbers ``text`` states, a number written with a scale word ("50 thousand") as its value too."""
    found = numbers_in(text)
    for digits, scale in _SCALED.findall(text):
        value = float(digits) * _SCALE[scale.casefold()]
        found.add(number_key(str(int(value)) if value.is_integer() else str(value)))
    return found


def term_in(term: str, texts: Iterable[str]) -> bool:
    """Whether one of ``texts`` states ``term``: the same number ("4,000" is "4000", and "50 thousand" is
    "50,000"), or the word at a word's start (plural -s aside; a hyphen inside it aside: "SHA-1" is "sha1").
    Measured on git's manual at 7ae0632: "SHA-1" and "50,000" were declined as unsupported where the pages say
    "sha1" and "50 thousand"."""
    if term[:1].isdigit():
        return any(number_key(term) in _written_numbers(x) for x in texts)
    key = stem(fold(term))
    joined = key.replace("-", "")
    return any(re.search(r"\b" + re.escape(key), fold(x)) or
               (joined != key and re.search(r"\b" + re.escape(joined), fold(x).replace("-", ""))) for x in texts)


def entry_support(claim: str, terms: List[str], text: str, page: str = "") -> str:
    """The lines of ``text`` that state every one of ``terms`` and the claim the way a manual's entry
    does: a line holding a term, with up to LIST_SPAN_LINES - 1 lines before it (an option's name,
    then its description: "-d / --httpd / The HTTP daemon ... (Default: X)"), read together with the
    page's title and heading (``page``: the subject a definition list leaves unsaid). The claim's
    numbers must stand in the lines, and >= CLAIM_CLOSE of its content words in the lines or the
    page's title. The fewest lines that do, as they stand; "" when none."""
    claim_words = content_words(claim)
    if len(claim_words) < MIN_STITCHED_WORDS - 1 or not terms:
        return ""
    numbers = numbers_in(claim)
    page_words = content_words(page)
    lines = text.split("\n")
    for i, line in enumerate(lines):
        if not any(term_in(t, [line]) for t in terms):
            continue
        for lo in range(i, max(-1, i - LIST_SPAN_LINES), -1):
            window = "\n".join(lines[lo:i + 1]).strip()
            if not all(term_in(t, [window]) for t in terms) or not _states(numbers, window):
                continue
            if len(claim_words & (content_words(window) | page_words)) / len(claim_words) >= CLAIM_CLOSE:
                return window
    return ""
