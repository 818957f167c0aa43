"""Whose number is it: a sentence must give each kernel number to a path the kernels gave it to.

``claims.check_prose`` checks that every number and path a sentence cites exists; this module checks
that they go together. A small model copies a directory's highest file risk onto five files ("`parser.py`,
`compiler.py`, `ext.py`, `lexer.py` and `visitor.py` have the highest risk of 47.8": measured on jinja2 at
12f9fed, only parser.py has it), and every number and name of that sentence exists.

A sentence is read as runs: a run of cited paths with no number between them, then the numbers up to
the next path. Numbers before the first path are not read: their subject is often a name this check
does not see ("The directory `src` has risk 60.0, and src/core.py ..."). In a run of one path each number
must be one of that path's (``Facts.bound``). In a run of several paths followed by at least as many
numbers, the numbers go to the paths in order ("A and B have 27 and 7", with or without "respectively"),
and the numbers beyond them to any path of the run; with fewer numbers than paths, each number is said
of every path, so every path must have it. Only numbers the facts show with a path and nowhere without
one are checked: a project total, a rule's threshold (shown apart from the rows), or a count the model
made ("25 files") may be said of anything, and is left to the existence check. The word "project" (or
"codebase", "repository") is a subject too, whose numbers are those shown outside every row: "The project
has a risk of 38.4", a directory's number, is caught. Directory names written without a path
("the utils directory") are not read here. Deterministic: no model, no clock.
"""

from __future__ import annotations

import re
from typing import FrozenSet, List, Tuple

from ragix_core.kernels.presenter.citations import Facts, number_checks, number_spans, path_spans, stands_for

__all__ = ["misattributed"]

# What stands between two paths of one list: "x.py, y.py and z.py", "`x.py`, `y.py`, or `z.py`".
_LIST_GLUE = re.compile(r"[\s`'\"*_,;/&]*(?:\b(?:and|or)\b[\s`'\"*_]*)?", re.IGNORECASE)


# The whole tree as a sentence's subject: its numbers are the ones shown outside every row (the project's
# totals; thresholds). "The project has a risk of 38.4" gives it a directory's number (sqlparse T3, 0f64fe5).
_WHOLE = re.compile(r"\b(?:project|codebase|repository)\b", re.IGNORECASE)
WHOLE = "the project"


def _numbers_of(cited: str, facts: Facts) -> FrozenSet[float]:
    """The numbers shown with every produced path ``cited`` names (a bare file name may name several)."""
    if cited == WHOLE:
        return facts.unbound
    out: FrozenSet[float] = frozenset()
    for produced, numbers in facts.bound.items():
        if stands_for(cited, produced):
            out |= numbers
    return out


def _runs(sentence: str, facts: Facts) -> List[Tuple[List[str], List[Tuple[float, str]]]]:
    """The sentence's (paths, numbers) runs, in order; numbers as (value, as written)."""
    subjects = [(at, at + len(path), path) for at, path in path_spans(sentence, facts)]
    subjects += [(m.start(), m.end(), WHOLE) for m in _WHOLE.finditer(sentence)]
    events = sorted([(at, 0, (end, subject)) for at, end, subject in subjects]
                    + [(at, 1, (value, written)) for at, value, written in number_spans(sentence)
                       if value is not None])
    runs: List[Tuple[List[str], List[Tuple[float, str]]]] = []
    listed_to = -1  # where the last subject of the current run ends
    for at, kind, item in events:
        if kind == 0:
            end, subject = item
            if (not runs or runs[-1][1] or WHOLE in (subject, *runs[-1][0])  # the project is listed with nothing
                    or not _LIST_GLUE.fullmatch(sentence[listed_to:at])):
                runs.append(([], []))
            runs[-1][0].append(subject)
            listed_to = end
        elif runs:
            runs[-1][1].append(item)
    return runs


def misattributed(sentence: str, facts: Facts) -> List[str]:
    """Each number ``sentence`` gives to a path the kernels did not show it with, as "N (PATH)"; empty when
    every number goes with its path. Paths no kernel produced are the existence check's, not read here."""
    if not facts.bound:
        return []
    owned = frozenset().union(*facts.bound.values())
    out: List[str] = []
    for paths, numbers in _runs(sentence, facts):
        known = [p for p in paths if p == WHOLE or any(stands_for(p, produced) for produced in facts.bound)]
        if not known:
            continue
        pairs: List[Tuple[Tuple[float, str], List[str], bool]]  # (number, paths, must every path have it)
        if len(known) > 1 and len(numbers) >= len(known):  # paired in order, a threshold keeping its place
            pairs = [(n, [p], True) for n, p in zip(numbers, known)]
            pairs += [(n, known, False) for n in numbers[len(known):]]
        else:
            pairs = [(n, known, True) for n in numbers]
        for (value, written), owners, every in pairs:
            if not _checks(value, written, owned) or _checks(value, written, facts.unbound):
                continue  # no row's number, or one that may be said of anything
            has = [_checks(value, written, _numbers_of(p, facts)) for p in owners]
            if not (all(has) if every else any(has)):
                wrong = [p for p, ok in zip(owners, has) if not ok] if every else owners
                out.append(f"{written} ({', '.join(wrong)})")
    return out


def _checks(value: float, written: str, numbers: FrozenSet[float]) -> bool:
    return number_checks(value, written, Facts(numbers, frozenset()))
