"""Checking a claim against the evidence: provable, refutable, undecidable (ill-typed is decided earlier,
when the claim is built, see claims.make_claim).

The evidence is the facts that rules derived from observations (``Evidence``),
plus the raw outputs for ``output(A, text)``. A claim is provable only through
one of them: the same fact, or a fact that entails it by the predicate's meaning
(a line of a file that contains the text, a complete listing that lacks a name).
Nothing else counts: a claim whose words merely resemble an output is
undecidable. Facts observed before the last write action are stale and ignored
(the write may have changed them).
"""

from __future__ import annotations

import posixpath
import re
from dataclasses import dataclass, field
from typing import Dict, Iterable, List, Optional, Tuple

from ragix_core.reasoning_tutor.claims import PREDICATES, Claim, Pattern, Var, numbers_equal

__all__ = ["Check", "Evidence", "check_claim", "key_conflict", "unify", "suggest_command", "PROVABLE", "REFUTABLE",
           "UNDECIDABLE", "ILL_TYPED", "under"]

PROVABLE, REFUTABLE, UNDECIDABLE, ILL_TYPED = "provable", "refutable", "undecidable", "ill_typed"
_EXISTENCE = ("line", "complete", "contains", "line_count", "listed", "defines", "imports", "setting")


@dataclass
class Check:
    status: str
    reason: str
    supports: List[Tuple[str, str]] = field(default_factory=list)  # (evidence node id, how it supports)
    refutes: List[Tuple[str, str]] = field(default_factory=list)


@dataclass
class _Output:
    node_id: str
    text: str
    truncated: bool
    epoch: int


class Evidence:
    """The facts (rule derivations) and outputs of the current game, indexed for checking."""

    def __init__(self) -> None:
        self.epoch = 0  # number of write actions so far; facts from an earlier epoch are stale
        self._facts: Dict[str, List[Tuple[str, Claim, int]]] = {}
        self._ids: Dict[Claim, str] = {}
        self._outputs: Dict[str, _Output] = {}

    def add_fact(self, node_id: str, claim: Claim) -> None:
        self._facts.setdefault(claim.predicate, []).append((node_id, claim, self.epoch))
        self._ids[claim] = node_id

    def fact_id(self, claim: Claim) -> Optional[str]:
        """The node of an identical fact derived in the current epoch, if any."""
        node_id = self._ids.get(claim)
        if node_id is None:
            return None
        return node_id if any(n == node_id for n, _ in self.facts(claim.predicate)) else None

    def add_output(self, action_id: str, node_id: str, text: str, truncated: bool) -> None:
        self._outputs[action_id] = _Output(node_id, text, truncated, self.epoch)

    def output(self, action_id: str) -> Optional[_Output]:
        """The current (not stale) output of an action."""
        out = self._outputs.get(action_id)
        return out if out is not None and out.epoch == self.epoch else None

    def output_texts(self) -> List[str]:
        """What the current epoch's commands printed."""
        return [o.text for o in self._outputs.values() if o.epoch == self.epoch]

    def facts(self, predicate: str) -> Iterable[Tuple[str, Claim]]:
        return [(n, c) for n, c, e in self._facts.get(predicate, []) if e == self.epoch]

    def all_facts(self) -> List[Tuple[str, Claim]]:
        return [(n, c) for p in self._facts for n, c in self.facts(p)]


def under(path: str, directory: str) -> bool:
    """``path`` is ``directory`` or inside it (``.`` holds everything)."""
    return directory == "." or path == directory or path.startswith(directory.rstrip("/") + "/")


def _same(kind: str, a: str, b: str) -> bool:
    return numbers_equal(a, b) if kind in ("int", "number") else a == b


def _equal(a: Claim, b: Claim) -> bool:
    if a.predicate != b.predicate or len(a.args) != len(b.args):
        return False
    kinds = PREDICATES[a.predicate].args
    return all(_same(k, x, y) for k, x, y in zip(kinds, a.args, b.args))


def key_conflict(claim: Claim, fact: Claim) -> bool:
    """Both state a value for the same key of a functional predicate, and the values differ."""
    sig = PREDICATES[claim.predicate]
    if sig.key is None or fact.predicate != claim.predicate:
        return False
    if not all(_same(sig.args[i], claim.args[i], fact.args[i]) for i in sig.key):
        return False
    return not _equal(claim, fact)


def _words_in(needle: str, haystack: str) -> bool:
    """``needle`` occurs in ``haystack`` with no letter or digit glued to either end."""
    pattern = r"(?<![A-Za-z0-9_])" + re.escape(needle) + r"(?![A-Za-z0-9_])"
    return re.search(pattern, " ".join(haystack.split())) is not None


def check_claim(claim: Claim, ev: Evidence) -> Check:
    """Decide ``claim`` from the current evidence (deterministic, no model, no tool)."""
    pred, args = claim.predicate, claim.args
    supports: List[Tuple[str, str]] = []
    refutes: List[Tuple[str, str]] = []

    for node_id, fact in ev.facts(pred):
        if _equal(claim, fact):
            supports.append((node_id, "same fact"))
        elif key_conflict(claim, fact):
            refutes.append((node_id, f"states {fact.text()}"))
    if supports:
        return Check(PROVABLE, f"derived from evidence as {supports[0][0]}", supports[:3])

    if pred == "output":
        out = ev.output(args[0])
        if out is None:
            return Check(UNDECIDABLE, f"no current observation of action {args[0]}")
        if _words_in(args[1], out.text):
            return Check(PROVABLE, f"the output of {args[0]} contains it", [(out.node_id, "output contains the text")])
        if not out.truncated:
            return Check(REFUTABLE, f"the whole output of {args[0]} does not contain {args[1]!r}",
                         refutes=[(out.node_id, "output lacks the text")])
        return Check(UNDECIDABLE, f"the output of {args[0]} was cut and does not show {args[1]!r}")

    if pred == "contains":
        path, text = args
        for node_id, fact in list(ev.facts("line")) + list(ev.facts("contains")):
            if fact.args[0] == path and text in fact.args[1]:
                supports.append((node_id, "a line of the file contains the text"))
        if supports:
            return Check(PROVABLE, f"{supports[0][0]} shows a line of {path} containing it", supports[:3])
        for node_id, fact in ev.facts("no_match"):
            if under(path, fact.args[0]) and fact.args[1] in text:
                refutes.append((node_id, f"no line under {fact.args[0]} contains {fact.args[1]!r}"))
    elif pred == "no_match":
        path, text = args
        for node_id, fact in ev.facts("no_match"):
            if under(path, fact.args[0]) and fact.args[1] in text:
                supports.append((node_id, "a search found no match"))
        if supports:
            return Check(PROVABLE, f"{supports[0][0]}: the search found nothing", supports[:3])
        for node_id, fact in list(ev.facts("line")) + list(ev.facts("contains")):
            if under(fact.args[0], path) and text in fact.args[1]:
                refutes.append((node_id, f"{fact.args[0]} has a line containing it"))
    elif pred == "exists":
        path = args[0]
        for p in _EXISTENCE:
            for node_id, fact in ev.facts(p):
                if fact.args[0] == path:
                    supports.append((node_id, f"{p} fact about the path"))
        if supports:
            return Check(PROVABLE, f"{supports[0][0]} shows {path}", supports[:3])
        refutes += [(n, "an error said it does not exist") for n, f in ev.facts("missing") if f.args[0] == path]
        refutes += _absent_from_listing(path, ev)
    elif pred == "missing":
        path = args[0]
        found = _absent_from_listing(path, ev)
        if found:
            return Check(PROVABLE, f"the complete listing {found[0][0]} of {posixpath.dirname(path) or '.'} "
                                   f"does not have it", [(n, "the complete listing lacks it") for n, _ in found])
        for p in ("exists",) + _EXISTENCE:
            refutes += [(n, "the path was observed") for n, f in ev.facts(p) if f.args[0] == path]

    if PREDICATES[pred].from_lines and not refutes:
        for node_id, fact in ev.facts("complete"):
            if fact.args[0] == args[0]:
                refutes.append((node_id, f"the whole of {args[0]} was observed and nothing in it states this"))
    if refutes:
        return Check(REFUTABLE, refutes[0][1] + f" ({refutes[0][0]})", refutes=refutes[:3])
    return Check(UNDECIDABLE, "no observation or rule derivation supports or refutes it yet")


def _absent_from_listing(path: str, ev: Evidence) -> List[Tuple[str, str]]:
    parent, name = posixpath.dirname(path) or ".", posixpath.basename(path)
    if name.startswith("."):  # ls hides dot files: a listing without it proves nothing
        return []
    if any(f.args[0] == path for _, f in ev.facts("exists")):
        return []
    return [(n, f"the complete listing of {parent} lacks it") for n, f in ev.facts("listed") if f.args[0] == parent]


def unify(pattern: Pattern, claim: Claim) -> Optional[Dict[str, str]]:
    """Variable bindings if ``claim`` matches ``pattern`` (None otherwise). A fixed text of a
    ``contains`` pattern is matched by any claim whose text contains it (it entails it)."""
    if pattern.predicate != claim.predicate or len(pattern.args) != len(claim.args):
        return None
    kinds = PREDICATES[claim.predicate].args
    out: Dict[str, str] = {}
    for i, (term, value) in enumerate(zip(pattern.args, claim.args)):
        if isinstance(term, Var):
            if term.name:
                if term.name in out and not _same(kinds[i], out[term.name], value):
                    return None
                out[term.name] = value
        elif claim.predicate == "contains" and kinds[i] == "text":
            if term not in value:
                return None
        elif not _same(kinds[i], term, value):
            return None
    return out


_SUGGEST = {
    "exists": "ls DIRECTORY",
    "missing": "ls DIRECTORY",
    "listed": "ls {0}",
    "line": "grep -n \"{1}\" {0}",
    "complete": "cat {0}",
    "contains": "grep -n \"{1}\" {0}",
    "no_match": "grep -rn \"{1}\" {0}",
    "defines": "grep -rn \"def {1}\" .",
    "imports": "grep -n import {0}",
    "setting": "grep -n {1} {0}",
    "line_count": "wc -l {0}",
    "match_count": "grep -c \"{1}\" {0}",
    "file_count": "find {0} -name '{1}'",
    "value": "calc {0}",
    "output": "COMMAND OF {0}",
}


def suggest_command(claim: Claim) -> str:
    """A command whose output the rules can turn into evidence for or against ``claim``."""
    return _SUGGEST[claim.predicate].format(*claim.args)
