"""What a sentence cites, and what the audit kernels produced: the reading half of the claims check.

``facts_from`` collects the numbers and paths of kernel output (and which numbers each row's path was
shown with); ``number_spans`` / ``path_spans`` find what a sentence cites, with positions; ``number_checks``
and ``path_checks`` say whether one cited number or path is among the produced ones.

A cited number checks when it equals a produced value (1.0 and 1 are the same number), or is that value
rounded to the decimals the sentence wrote (0.42 for 0.4231; 47 for 47.3 only from 10 up, so a "0" cannot
stand for 0.3). A derived quantity ("twice", "half", "triple") has no produced value and never checks. Digits glued to
letters on their left ("CCN99", "risk62") and scientific notation ("1e3") are numbers too.

A cited path checks when it is a produced path; a slashed one also when it is the tail of one or of one's
directory, part for part (``auth/FILE.py`` or ``src/auth/`` for ``src/auth/FILE.py``, never
``src/billing/FILE.py``, never ``lib/__init__.py`` for ``pkg/__init__.py``); a bare file name when it
is the file name of one. A bare name written as a directory's ("the utils directory",
"`utils` folder", "the utils package") checks when it names a directory of a produced path. What is
not checked: other names (functions, classes) and a directory named without such a word.
"""

from __future__ import annotations

import math
import os
import re
from dataclasses import dataclass, field
from decimal import ROUND_HALF_UP, Decimal, InvalidOperation
from typing import Any, Dict, FrozenSet, Iterable, List, Mapping, Optional, Set, Tuple

__all__ = ["Facts", "facts_from", "path_spans", "cited_paths", "cited_directory_names", "number_spans", "cited_numbers",
           "number_checks", "path_checks", "stands_for"]

_UNITS = {w: i for i, w in enumerate(
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen "
    "seventeen eighteen nineteen".split())}
_TENS = {w: 10 * i for i, w in enumerate("twenty thirty forty fifty sixty seventy eighty ninety".split(), 2)}
_SCALES = {"hundred": 100, "thousand": 1000, "million": 1_000_000, "dozen": 12}
# Quantities a sentence derives instead of citing: no kernel produced them, so they never check.
_DERIVED = {"twice", "thrice", "half", "halves", "triple", "tripled", "quadruple", "doubled", "halved"}
_WORD = re.compile(r"\b(?:" + "|".join(sorted(list(_UNITS) + list(_TENS) + list(_SCALES) + list(_DERIVED),
                                              key=len, reverse=True))
                   + r")(?:-(?:" + "|".join(list(_UNITS)) + r"))?\b", re.IGNORECASE)
# Digits not glued to a word or a path on their left; "1,234", "0.42", "-3"; a suffix (1st, 10x, 5k) is
# part of the claim, so the digits are still checked.
_NUMBER = re.compile(r"(?<![\w.])(-?)(\d{1,3}(?:,\d{3})+|\d+)((?:\.\d+)*)(?=[A-Za-z%]*\b|[^\w]|$)")
_CODE_EXT = ("py pyi js jsx mjs cjs ts tsx go java rs c h cc cpp cxx hpp hh cs rb php swift kt kts scala lua m mm "
             "sh json yaml yml toml md txt cfg ini").split()
# A path-like token: has a slash, or is a dotted name ending in a known extension (core.py, a/b/c.ts).
_PATH = re.compile(r"(?<![\w/.-])((?:[\w.-]+/)+[\w.-]*\w/?|[\w-][\w.-]*\.(?:" + "|".join(_CODE_EXT) + r"))(?![\w/-])")
_EXT = re.compile(r"\.(?:" + "|".join(_CODE_EXT) + r")$")
# Scientific notation (1e3, 2.5E-4), and digits glued to letters on their left (CCN99, v2, risk62.1).
_SCIENTIFIC = re.compile(r"(?<![\w.])-?\d+(?:\.\d+)?[eE][+-]?\d+\b")
_GLUED = re.compile(r"(?<![\w.])[A-Za-z]+(\d+(?:\.\d+)*)\b")
# A bare name written as a directory's: "the utils directory", "`utils` folder". The words before such a
# noun that are not names (determiners, quantifiers, comparatives) are left alone.
_DIR_NAME = re.compile(r"(?<![\w/.-])`?([A-Za-z_][\w-]*)`?\s+(?:director(?:y|ies)|folders?|packages?)\b",
                       re.IGNORECASE)
_NOT_A_NAME = set("""a an the this that these those each every any all its their our your my his her which what
whose one same other another whole entire top root parent child sub main source project code only single next
last first second third previous following such either neither both some many few several no more most less
least new old large small big deep nested given named listed risky complex empty separate own""".split())


@dataclass(frozen=True)
class Facts:
    """What the kernels produced for one piece of prose: its numbers and its file/directory paths."""

    numbers: FrozenSet[float]
    paths: FrozenSet[str]
    # The numbers shown with each path (a kernel row's own values), for binding.py's check of whose number
    # a sentence says it is. A number shown with no path (a project total) is in ``numbers`` only.
    bound: Mapping[str, FrozenSet[float]] = field(default_factory=dict)
    unbound: FrozenSet[float] = frozenset()  # the numbers shown outside every row (totals, thresholds)

    @property
    def basenames(self) -> FrozenSet[str]:
        return frozenset(os.path.basename(p.rstrip("/")) for p in self.paths)

    @property
    def directory_names(self) -> FrozenSet[str]:
        """Names of the directories of produced paths: every part of a directory's, a file's parents."""
        names = set()
        for p in self.paths:
            parts = [part for part in p.rstrip("/").split("/") if part not in ("", ".")]
            names.update(parts if parts and not _EXT.search(parts[-1]) else parts[:-1])
        return frozenset(names)

    def __or__(self, other: "Facts") -> "Facts":
        bound = dict(self.bound)
        for path, numbers in other.bound.items():
            bound[path] = bound.get(path, frozenset()) | numbers
        return Facts(self.numbers | other.numbers, self.paths | other.paths, bound, self.unbound | other.unbound)


def _is_path_like(text: str) -> bool:
    return bool(_PATH.fullmatch(text)) or text == "."


def facts_from(*documents: Any, paths: Iterable[str] = ()) -> Facts:
    """Every number (bools excepted) and every path-like string found anywhere in ``documents``
    (kernel JSON, nested dicts and lists), plus ``paths``. Strings are read for their numbers too: a
    recommendation's sentence cites numbers the kernel wrote into it. A dict with a "path" is a row: the
    numbers inside it are bound to that path; numbers outside every row are ``unbound``."""
    numbers: Set[float] = set()
    found = set(paths)
    bound: Dict[str, Set[float]] = {}
    unbound: Set[float] = set()

    def walk(value: Any, owners: Tuple[str, ...]) -> None:
        if isinstance(value, bool) or value is None:
            return
        if isinstance(value, (int, float)):
            new = {float(value)} if math.isfinite(value) else set()
        elif isinstance(value, str):
            if _is_path_like(value):
                found.add(value)
                return
            new = {float(n) for n, _ in cited_numbers(value, strip_paths=True) if n is not None}
        elif isinstance(value, dict):
            row = value.get("path")
            if isinstance(row, str) and row:  # a top directory ("src") is a row's path without looking like one
                owners = owners + (row,)
            for v in value.values():
                walk(v, owners)
            return
        elif isinstance(value, (list, tuple)):
            for v in value:
                walk(v, owners)
            return
        else:
            return
        numbers.update(new)
        for owner in owners:
            bound.setdefault(owner, set()).update(new)
        if not owners:
            unbound.update(new)

    for doc in documents:
        walk(doc, ())
    return Facts(frozenset(numbers), frozenset(found), {p: frozenset(v) for p, v in bound.items()},
                 frozenset(unbound))


def path_spans(sentence: str, facts: Optional[Facts] = None) -> List[Tuple[int, str]]:
    """(position, name) of every file and directory name ``sentence`` cites. A slashed word with no
    extension ("and/or", "complexity/churn", "TODO/FIXME/XXX") is a path only when written as one (in
    backticks, a trailing slash) or when one of its parts is a produced directory's name (``src/auth``
    where ``src`` exists)."""
    parts = {part for p in (facts.paths if facts else ()) for part in p.split("/")}
    out = []
    for m in _PATH.finditer(sentence):
        token = m.group(1)
        start, end = m.span(1)
        quoted = sentence[start - 1:start] == "`" or sentence[end:end + 1] == "`"
        if ("/" not in token or _EXT.search(token) or quoted or token.endswith("/")
                or any(part in parts for part in token.split("/") if part)):
            out.append((start, token))
    return out


def cited_paths(sentence: str, facts: Optional[Facts] = None) -> List[str]:
    """The file and directory names ``sentence`` cites (``path_spans`` without positions)."""
    return [token for _, token in path_spans(sentence, facts)]


def cited_directory_names(sentence: str) -> List[str]:
    """Bare names ``sentence`` writes as a directory's ("the utils directory"); paths are cited_paths'."""
    out = []
    for m in _DIR_NAME.finditer(_PATH.sub(" ", sentence)):
        name = m.group(1)
        low = name.lower()
        if (low in _NOT_A_NAME or low in _UNITS or low in _TENS or (len(low) >= 6 and low.endswith("est"))
                or low.endswith("ier")):  # "the riskiest directory", "a riskier package"
            continue
        out.append(name)
    return out


def _word_value(word: str) -> Optional[float]:
    word = word.lower()
    if word in _DERIVED:
        return None
    head, _, tail = word.partition("-")
    value = _UNITS.get(head, _TENS.get(head, _SCALES.get(head)))
    return float(value + _UNITS.get(tail, 0)) if value is not None else None


def _blank(pattern: "re.Pattern[str]", text: str) -> str:
    """``text`` with ``pattern``'s matches blanked out, every other character where it was."""
    return pattern.sub(lambda m: " " * len(m.group(0)), text)


def number_spans(sentence: str, strip_paths: bool = True) -> List[Tuple[int, Optional[float], str]]:
    """(position, value, as written) for every number in ``sentence``; value None for a derived quantity
    ("twice"). Paths are taken out first: the 2 of ``v2/FILE.py`` is a name, not a claim."""
    text = _blank(_PATH, sentence) if strip_paths else sentence
    out: List[Tuple[int, Optional[float], str]] = []
    for m in _SCIENTIFIC.finditer(text):
        out.append((m.start(), float(m.group(0)), m.group(0)))
    text = _blank(_SCIENTIFIC, text)
    for m in _GLUED.finditer(text):
        digits = m.group(1)
        out.append((m.start(), None if digits.count(".") > 1 else float(digits), m.group(0)))
    for m in _NUMBER.finditer(text):
        sign, whole, frac = m.group(1), m.group(2).replace(",", ""), m.group(3)
        if frac.count(".") > 1:  # 3.1.4: a version, cited as written
            out.append((m.start(), None, m.group(0)))
            continue
        written = sign + whole + frac
        out.append((m.start(), float(written), m.group(0)))
    for m in _WORD.finditer(text):
        out.append((m.start(), _word_value(m.group(0)), m.group(0)))
    return out


def cited_numbers(sentence: str, strip_paths: bool = True) -> List[Tuple[Optional[float], str]]:
    """(value, as written) for every number in ``sentence`` (``number_spans`` without positions)."""
    return [(value, written) for _, value, written in number_spans(sentence, strip_paths)]


def _decimals(written: str) -> int:
    mantissa = written.lstrip("-")
    if _SCIENTIFIC.fullmatch(written):
        mantissa = re.split("[eE]", mantissa, 1)[0]
    digits = mantissa.split(".", 1)
    return len(digits[1]) if len(digits) == 2 else 0


def number_checks(value: Optional[float], written: str, facts: Facts) -> bool:
    if value is None:
        return False
    if value in facts.numbers:
        return True
    places = _decimals(written)  # the digits as written (a suffix such as % or st is not part of them)
    if places == 0 and abs(value) < 10:
        return False
    quantum = Decimal(1).scaleb(-places)
    try:
        target = Decimal(repr(value)).quantize(quantum)
        return any(Decimal(repr(v)).quantize(quantum, rounding=ROUND_HALF_UP) == target for v in facts.numbers
                   if abs(v - value) < 1)
    except InvalidOperation:
        return False


def stands_for(cited: str, produced: str) -> bool:
    """Whether a cited path names the produced one: equal, or (slashed) the tail of it or of its directory,
    part for part, or (bare) its file name."""
    cited = cited[2:] if cited.startswith("./") and len(cited) > 2 else cited
    cited = cited.rstrip("/") or "."
    produced = produced.rstrip("/") or "."
    if cited == produced:
        return True
    if "/" not in cited:  # a bare file name stands for the produced path it names
        return cited == os.path.basename(produced)
    parts, whole = cited.split("/"), produced.split("/")
    return any(whole[max(0, end - len(parts)):end] == parts for end in range(len(parts), len(whole) + 1))


def path_checks(path: str, facts: Facts) -> bool:
    return any(stands_for(path, p) for p in facts.paths)
