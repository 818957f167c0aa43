"""Judging a RESPOND: the answer may state only what validated truths (or the goal itself) state.

An answer is prose around *checkable atoms*: numbers, paths and file names,
e-mail addresses and URLs, text in backticks or double quotes, identifiers
(``snake_case``, ``camelCase``, ``dotted.names``) and ALL-CAPS words of three or
more letters. Each atom must appear in a truth's arguments or in the goal; an
atom that appears in neither is something the answer asserts without proof, and
the RESPOND is rejected naming it. Plain words are not checked (documented in
docs/TUTOR.md): that is the limit of a deterministic judge.

Obligations (the task's acceptance criteria) are claim patterns: each must be
matched by a validated truth, and each named variable's value must be stated in
the answer, so the answer is consistent with the proof.

A ``value(expr, x)`` truth proves arithmetic, not where its operands came from:
it counts (for obligations and for grounding) only when every number in ``expr``
was printed by a command of the game, is stated by the goal or by another truth,
or is the result of a value that counts (``admissible``). Measured: "the sum of the amount column is 8*42.50 = 340" won
a game, 8 being a number no observation showed.
"""

from __future__ import annotations

import posixpath
import re
from dataclasses import dataclass
from typing import Dict, List, Optional, Sequence, Tuple

from ragix_core.reasoning_tutor.claims import PREDICATES, Claim, Pattern, Var, numbers_equal
from ragix_core.reasoning_tutor.checker import unify

__all__ = ["Atom", "atoms", "ungrounded", "mentions", "Obligation", "match_obligations", "admissible"]

_URL = re.compile(r"https?://[^\s<>\"'`)]+")
_EMAIL = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")
_QUOTED = re.compile(r"`([^`\n]{1,200})`|\"([^\"\n]{1,200})\"")
_PATH = re.compile(r"(?<![\w/.-])(?:\.{0,2}/)?(?:[\w.-]+/)+[\w.-]*[\w]|(?<![\w/.-])[\w-]+(?:\.[\w-]+)*\.[A-Za-z][A-Za-z0-9]{0,5}(?![\w])")
_NUMBER = re.compile(r"(?<![\w.,])[+-]?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?(?![\w])")
_IDENT = re.compile(r"(?<![\w.])(?:[A-Za-z_]\w*_\w*|[a-z]+[A-Z]\w*|[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+)(?![\w])")
_CAPS = re.compile(r"(?<![\w])[A-Z][A-Z0-9]{2,}(?![\w])")
# Any decimal in a text, separators ignored: "1004,dave,8.75" holds 1004 and 8.75 (not 8, not 75).
_ANY_NUMBER = re.compile(r"(?<![\d.])\d+(?:\.\d+)?(?![\d])")


@dataclass(frozen=True)
class Atom:
    kind: str  # number | path | text
    value: str

    def __str__(self) -> str:
        return self.value


def atoms(answer: str) -> List[Atom]:
    """The checkable atoms of an answer, each once, in order of appearance."""
    text = answer or ""
    found: List[Tuple[int, Atom]] = []

    def take(regex: "re.Pattern[str]", kind: str, group: Optional[int] = None) -> None:
        nonlocal text
        for m in regex.finditer(text):
            value = next((g for g in m.groups() if g), m.group(0)) if group else m.group(0)
            value = value.rstrip(".,;:!?)")
            if value:
                found.append((m.start(), Atom(kind, value)))
        text = regex.sub(lambda m: " " * len(m.group(0)), text)  # keep offsets; later kinds skip it

    take(_QUOTED, "text", group=1)  # first: a quoted span is checked whole, whatever it holds
    take(_URL, "text")
    take(_EMAIL, "text")
    take(_PATH, "path")
    take(_IDENT, "text")
    take(_NUMBER, "number")
    take(_CAPS, "text")
    out, seen = [], set()
    for _, atom in sorted(found, key=lambda p: p[0]):
        if atom not in seen:
            seen.add(atom)
            out.append(atom)
    return out


def _numbers_in(text: str) -> List[str]:
    return [m.group(0).replace(",", "") for m in _NUMBER.finditer(text)]


def _grounded(atom: Atom, sources: Sequence[str]) -> bool:
    if atom.kind == "number":
        value = atom.value.replace(",", "")
        return any(numbers_equal(value, n) for s in sources for n in _numbers_in(s))
    if atom.kind == "path":
        path = posixpath.normpath(atom.value.lstrip("./")) if atom.value not in (".", "./") else "."
        for s in sources:
            if atom.value in s or path in s:
                return True
        return False
    return any(atom.value in s for s in sources)


def ungrounded(answer: str, truths: Sequence[Claim], goal: str) -> List[Atom]:
    """Atoms of ``answer`` that neither a truth's arguments nor the goal contain."""
    sources = [goal] + [a for t in truths for a in t.args]
    return [a for a in atoms(answer) if not _grounded(a, sources)]


def admissible(truths: Sequence[Tuple[str, Claim]], goal: str,
               observed: Sequence[str] = ()) -> List[Tuple[str, Claim]]:
    """The truths an answer may rest on: all of them but the ``value`` truths whose expression uses a
    number that no ``observed`` output, the goal, another truth or an admissible value's result states.
    Values may chain (a result used in a later expression), so admission repeats until nothing changes."""
    values = [(i, t) for i, t in enumerate(truths) if t[1].predicate == "value"]
    if not values:
        return list(truths)
    known = set(_ANY_NUMBER.findall(goal))
    for text in observed:
        known.update(_ANY_NUMBER.findall(text))
    for _, claim in truths:
        if claim.predicate != "value":
            for arg in claim.args:
                known.update(_ANY_NUMBER.findall(arg))
    admitted = set()
    changed = True
    while changed:
        changed = False
        for i, (_, claim) in values:
            if i in admitted:
                continue
            operands = _ANY_NUMBER.findall(claim.args[0])
            if all(any(numbers_equal(n, k) for k in known) for n in operands):
                admitted.add(i)
                known.add(claim.args[1])
                changed = True
    return [t for i, t in enumerate(truths) if t[1].predicate != "value" or i in admitted]


def mentions(answer: str, kind: str, value: str) -> bool:
    """Does the answer state ``value`` (an argument of type ``kind``)?"""
    if kind in ("int", "number"):
        return any(numbers_equal(value, n) for n in _numbers_in(answer))
    if kind == "path":
        return value in answer or posixpath.basename(value) in answer
    return value.lower() in answer.lower()


@dataclass
class Obligation:
    pattern: Pattern
    truth: Optional[str] = None  # the validated claim that meets it
    bindings: Optional[Dict[str, str]] = None
    unstated: Optional[List[str]] = None  # named variables whose values the answer does not state


def match_obligations(patterns: Sequence[Pattern], truths: Sequence[Tuple[str, Claim]],
                      answer: Optional[str] = None) -> List[Obligation]:
    """Each pattern with the first truth that meets it (and, given an answer, the values it fails to state).
    A truth meeting a pattern whose named values the answer states is preferred over one it does not."""
    out = []
    for pattern in patterns:
        best: Optional[Obligation] = None
        for node_id, claim in truths:
            bindings = unify(pattern, claim)
            if bindings is None:
                continue
            kinds = {term.name: kind for term, kind in zip(pattern.args, PREDICATES[pattern.predicate].args)
                     if isinstance(term, Var) and term.name}
            unstated = [] if answer is None else [f"?{v}={bindings[v]}" for v in bindings
                                                  if not mentions(answer, kinds[v], bindings[v])]
            candidate = Obligation(pattern, node_id, bindings, unstated)
            if best is None or (best.unstated and not unstated):
                best = candidate
            if not unstated:
                break
        out.append(best or Obligation(pattern))
    return out
