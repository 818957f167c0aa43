"""A time range written in a research question, as the document dates it selects.

    "What changed since 2023?"                    -> since 2023-01-01
    "releases before March 2022"                  -> until 2022-02-28
    "between 2021 and 2022", "from 2020 to 2021"  -> since 2021-01-01 until 2022-12-31 ...
    "in the last 2 years", "over the past month"  -> since today minus that
    "before version 3"                            -> a version bound: documents whose path names a version
                                                     (RelNotes/2.40.0.txt, docs/v3/) are kept when it is < 3

The parser reads phrases a user writes: a range word (since, after, from, as of, before,
until, prior to, between ... and, from ... to) followed by a date (a year, a month and year,
an ISO date, "5 March 2023", "March 5, 2023"), or a relative span (last/past N days, weeks,
months, years; this year; last year). A bare "in 2023" is not a range of document dates: a
question about what happened in 2023 is often answered by a document written later.
Years outside 1900-2199 are not dates ("before 3", "after 64 packs").
"""

from __future__ import annotations

import calendar
import datetime as _dt
import re
from dataclasses import dataclass, field
from typing import Dict, List, Optional, Tuple

__all__ = ["TimeRange", "VersionBound", "parse_time_range", "path_version"]

_MONTHS = {name.lower(): i for i, name in enumerate(calendar.month_name) if name}
_MONTHS.update({name.lower(): i for i, name in enumerate(calendar.month_abbr) if name})
_MONTHS["sept"] = 9
_MONTH = r"(?:" + "|".join(sorted(_MONTHS, key=len, reverse=True)) + r")\.?"
_YEAR = r"(?:19|20|21)\d{2}"
# One date, most specific first. Named groups say which parts were written.
_DATE = (rf"(?:(?P<iso>{_YEAR}-\d{{1,2}}-\d{{1,2}})"
         rf"|(?P<ym>{_YEAR}-\d{{1,2}})(?![\d-])"
         rf"|(?P<dmy>\d{{1,2}}(?:st|nd|rd|th)?\s+{_MONTH},?\s+{_YEAR})"
         rf"|(?P<mdy>{_MONTH}\s+\d{{1,2}}(?:st|nd|rd|th)?,?\s+{_YEAR})"
         rf"|(?P<my>{_MONTH},?\s+(?:of\s+)?{_YEAR})"
         rf"|(?P<y>(?:the\s+(?:end|start|beginning)\s+of\s+)?{_YEAR}))(?!\d|\.\d)")
_SINCE = r"since|after|from|starting(?:\s+(?:in|from))?|post|later\s+than|newer\s+than|on\s+or\s+after"
_UNTIL = r"before|until|till|as\s+of|up\s+to|up\s+until|prior\s+to|earlier\s+than|older\s+than|through|by|on\s+or\s+before"
_VERSION = r"(?:version|release|v\.?|rel\.?)\s*(?P<version>\d+(?:\.\d+)*)"
_UNITS = {"day": 1, "week": 7, "month": 30, "year": 365}

_BETWEEN = re.compile(rf"\bbetween\s+(?P<a>{_DATE.replace('?P<', '?P<a_')})\s+and\s+(?P<b>{_DATE.replace('?P<', '?P<b_')})",
                      re.IGNORECASE)
_FROM_TO = re.compile(rf"\bfrom\s+(?P<a>{_DATE.replace('?P<', '?P<a_')})\s*(?:to|until|till|through|-|–)\s*"
                      rf"(?P<b>{_DATE.replace('?P<', '?P<b_')})", re.IGNORECASE)
_SPAN = re.compile(rf"(?<![\d-])(?P<a>{_YEAR})\s*(?:-|–|to)\s*(?P<b>{_YEAR})(?![\d-])")
_BOUND = re.compile(rf"\b(?P<word>{_SINCE}|{_UNTIL})\s+(?:(?:the\s+)?(?:year|date|month)\s+)?{_DATE}", re.IGNORECASE)
_VERSION_BOUND = re.compile(rf"\b(?P<word>{_SINCE}|{_UNTIL})\s+(?:the\s+)?{_VERSION}\b", re.IGNORECASE)
_RELATIVE = re.compile(r"\b(?:in|over|during|within|for)?\s*the\s+(?:last|past|previous)\s+(?P<n>\d+|a|one|two|three|"
                       r"four|five|six|seven|eight|nine|ten|twelve)?\s*(?P<unit>day|week|month|year)s?\b", re.IGNORECASE)
_THIS_LAST = re.compile(r"\b(?P<which>this|last)\s+(?P<unit>year|month)\b", re.IGNORECASE)
_NUMBERS = {"a": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
            "nine": 9, "ten": 10, "twelve": 12}


# A version a document's path names: "2.40.0" in RelNotes/2.40.0.txt, "v3" in docs/v3/, "3.1" in
# python-3.1/; not a bare number ("chapter1", "2023"), which names a part or a year as often as a version.
_PATH_VERSION = re.compile(r"(?<![A-Za-z0-9])(?:v(?P<v>\d+(?:\.\d+)*)|(?P<d>\d+(?:\.\d+)+))(?![A-Za-z0-9]|\.\d)",
                           re.IGNORECASE)
_BEFORE_WORDS = ("before", "prior", "earlier", "older")
_AFTER_WORDS = ("after", "post", "later", "newer")


def _version(text: str) -> Tuple[int, ...]:
    return tuple(int(p) for p in text.split("."))


def path_version(path: str) -> Optional[Tuple[int, ...]]:
    """The version the document's path names (its last one, the most specific), else None."""
    found = [m.group("v") or m.group("d") for m in _PATH_VERSION.finditer(path.replace("\\", "/"))]
    return _version(found[-1]) if found else None


@dataclass
class VersionBound:
    """"before version 3": documents whose path names a version are kept when it satisfies ``op``."""

    op: str  # "<", "<=", ">=", ">"
    version: Tuple[int, ...]
    phrase: str

    def allows(self, path: str) -> bool:
        """A document naming no version is kept: nothing says it is outside the bound."""
        v = path_version(path)
        if v is None:
            return True
        # Compare as far as the bound is written: "before version 3" keeps 2.40.0, not 3.0.1.
        v = v[:len(self.version)] + (0,) * max(0, len(self.version) - len(v))
        return {"<": v < self.version, "<=": v <= self.version, ">=": v >= self.version,
                ">": v > self.version}[self.op]


@dataclass
class TimeRange:
    """The document dates a question asks for (ISO, inclusive), the words that said so, and any
    version bound (applied to the versions documents' paths name: VersionBound)."""

    since: Optional[str] = None
    until: Optional[str] = None
    phrases: List[str] = field(default_factory=list)
    versions: List[str] = field(default_factory=list)  # e.g. "before version 3"
    version_bounds: List[VersionBound] = field(default_factory=list)

    def temporal(self) -> Dict[str, str]:
        return {k: v for k, v in (("since", self.since), ("until", self.until)) if v}

    def describe(self) -> str:
        dates = " and ".join(f"{k} {v}" for k, v in self.temporal().items())
        return f"documents dated {dates} (from {', '.join(repr(p) for p in self.phrases)})" if dates else ""


def _span(groups: Dict[str, Optional[str]], prefix: str = "") -> Optional[Tuple[_dt.date, _dt.date]]:
    """The first and last day a written date covers ("2023": the whole year)."""
    def g(name: str) -> Optional[str]:
        return groups.get(prefix + name)

    try:
        if g("iso"):
            y, m, d = (int(x) for x in g("iso").split("-"))
            day = _dt.date(y, m, d)
            return day, day
        if g("ym"):
            y, m = (int(x) for x in g("ym").split("-"))
            return _month(y, m)
        for key in ("dmy", "mdy"):
            if g(key):
                words = re.findall(r"[A-Za-z]+|\d+", g(key))
                nums = [int(w) for w in words if w.isdigit()]
                month = next(_MONTHS[w.lower()] for w in words if w.lower() in _MONTHS)
                year = next(n for n in nums if n >= 1900)
                day = _dt.date(year, month, next(n for n in nums if n < 1900))
                return day, day
        if g("my"):
            words = re.findall(r"[A-Za-z]+|\d+", g("my"))
            month = next(_MONTHS[w.lower()] for w in words if w.lower() in _MONTHS)
            return _month(int(words[-1]), month)
        if g("y"):
            year = int(g("y")[-4:])
            text = g("y").lower()
            if "end of" in text:
                return _dt.date(year, 12, 31), _dt.date(year, 12, 31)
            if "start of" in text or "beginning of" in text:
                return _dt.date(year, 1, 1), _dt.date(year, 1, 1)
            return _dt.date(year, 1, 1), _dt.date(year, 12, 31)
    except (ValueError, StopIteration):
        return None  # "31 February 2023": not a date
    return None


def _month(year: int, month: int) -> Tuple[_dt.date, _dt.date]:
    return _dt.date(year, month, 1), _dt.date(year, month, calendar.monthrange(year, month)[1])


def _is_since(word: str) -> bool:
    return re.fullmatch(_SINCE, " ".join(word.lower().split())) is not None


def _exclusive(word: str) -> bool:
    """"after 2023" starts in 2024, "before 2023" ends in 2022; "since", "until", "by" include it."""
    return " ".join(word.lower().split()) in ("after", "post", "later than", "newer than", "before", "prior to",
                                              "earlier than", "older than")


def parse_time_range(question: str, today: Optional[_dt.date] = None) -> Optional[TimeRange]:
    """The range of document dates ``question`` asks for, or None when it states none."""
    if not isinstance(question, str) or not question.strip():
        return None
    today = today or _dt.date.today()
    out = TimeRange()
    since: List[_dt.date] = []
    until: List[_dt.date] = []
    taken: List[Tuple[int, int]] = []

    def free(m: "re.Match[str]") -> bool:
        return not any(m.start() < b and a < m.end() for a, b in taken)

    for m in _VERSION_BOUND.finditer(question):
        phrase = " ".join(m.group(0).split())
        word = m.group("word").lower()
        op = ("<" if word.startswith(_BEFORE_WORDS) else ">" if word.startswith(_AFTER_WORDS)
              else ">=" if re.fullmatch(_SINCE, word, re.IGNORECASE) else "<=")
        out.versions.append(phrase)
        out.version_bounds.append(VersionBound(op, _version(m.group("version")), phrase))
        taken.append(m.span())
    for pattern in (_BETWEEN, _FROM_TO):
        for m in pattern.finditer(question):
            a, b = _span(m.groupdict(), "a_"), _span(m.groupdict(), "b_")
            if a and b and free(m) and a[0] <= b[1]:
                since.append(a[0])
                until.append(b[1])
                out.phrases.append(" ".join(m.group(0).split()))
                taken.append(m.span())
    for m in _SPAN.finditer(question):
        a, b = int(m.group("a")), int(m.group("b"))
        if free(m) and a <= b:
            since.append(_dt.date(a, 1, 1))
            until.append(_dt.date(b, 12, 31))
            out.phrases.append(m.group(0))
            taken.append(m.span())
    for m in _BOUND.finditer(question):
        covered = _span(m.groupdict())
        if covered is None or not free(m):
            continue
        word = m.group("word")
        first, last = covered
        if _is_since(word):
            since.append(last + _dt.timedelta(days=1) if _exclusive(word) else first)
        else:
            until.append(first - _dt.timedelta(days=1) if _exclusive(word) else last)
        out.phrases.append(" ".join(m.group(0).split()))
        taken.append(m.span())
    for m in _RELATIVE.finditer(question):
        if not free(m):
            continue
        n = m.group("n") or "1"
        count = int(n) if n.isdigit() else _NUMBERS[n.lower()]
        since.append(today - _dt.timedelta(days=count * _UNITS[m.group("unit").lower()]))
        out.phrases.append(" ".join(m.group(0).split()))
        taken.append(m.span())
    for m in _THIS_LAST.finditer(question):
        if not free(m):
            continue
        unit, back = m.group("unit").lower(), m.group("which").lower() == "last"
        if unit == "year":
            first, last = _dt.date(today.year - back, 1, 1), _dt.date(today.year - back, 12, 31)
        else:
            y, mo = (today.year, today.month - 1) if back else (today.year, today.month)
            if mo == 0:
                y, mo = y - 1, 12
            first, last = _month(y, mo)
        since.append(first)
        until.append(min(last, today))
        out.phrases.append(" ".join(m.group(0).split()))
        taken.append(m.span())
    if not (since or until or out.versions):
        return None
    out.since = max(since).isoformat() if since else None  # several bounds: the narrowest range
    out.until = min(until).isoformat() if until else None
    return out
