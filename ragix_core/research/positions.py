"""Monitor mode's positions: the verified citations grouped by the value they state.

A citation's value is what its quote (the document's own words) states beyond the question: its
numbers, or, when it states none, its names. Citations whose values overlap form one position.
Two positions disagree when they state different values about the same subject — their claims
and quotes share most of their other content words — from different documents. The report then
gives each position with its sources and tiers, and says which one the most authoritative tier
supports, instead of declining: in monitor mode, sources that disagree are the finding.

Deterministic on purpose, like the rest of the comparison (DECISIONS: "Monitor mode: two answers,
compared deterministically"): a 1.5B model judges "do these disagree?" poorly.

The positions come from the verified citations and, in monitor mode, from the retrieved chunks no citation
quotes (``context_rivals``): on the generated collection at 7ae0632 the analyst cited only the Registry in all
five conflict questions, though the Forum page stating another staff count was in its context each time, so
no disagreement was ever reported (0/5). A sentence of such a chunk that states another value about the subject
of a cited one, from another document, is a rival position of its own.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Dict, FrozenSet, List, Sequence, Set, Tuple

from ragix_core.core.text import bounded

from .checks import answer_terms
from .draft import Citation, is_not_found
from .matching import content_words, fold, numbers_in, stem
from .resolver import UNKNOWN_TIER, Place, citation_at

__all__ = ["Position", "rival_positions", "side_positions", "context_rivals", "describe", "conflict_record",
           "SAME_SUBJECT"]

# Share of the smaller subject (content words beside the values) two positions must have in common.
SAME_SUBJECT = 0.6
MAX_CONTEXT_RIVALS = 3  # sentences of uncited chunks taken as rival positions, at most (one a chunk)
_SENTENCE = re.compile(r"(?<=[.!?])\s+|\n+")


@dataclass
class Position:
    kind: str  # "number", "name", or "answer" (a side's answer, when the values cannot tell)
    values: FrozenSet[str]  # folded: "4000", "quellmere"
    shown: List[str]  # the values as the quotes write them
    citations: List[Citation] = field(default_factory=list)
    subject: Set[str] = field(default_factory=set)
    statement: str = ""  # what the position says, in one line

    @property
    def tier(self) -> int:
        return min((c.tier for c in self.citations if c.tier is not None), default=UNKNOWN_TIER)

    @property
    def paths(self) -> Set[str]:
        return {c.path for c in self.citations if c.path}

    def to_dict(self) -> Dict[str, Any]:
        return {"value": ", ".join(self.shown), "statement": self.statement,
                "tier": None if self.tier == UNKNOWN_TIER else self.tier,
                "sources": [{"path": c.path, "source": c.source, "tier": c.tier, "chunk": c.chunk} for c in self.citations]}


def _values(text: str, question: str) -> Tuple[str, List[str]]:
    """("number", the numbers ``text`` states beyond the question's), else ("name", its names), else ("", [])."""
    terms = answer_terms(text, question)  # already without the question's own numbers and words
    numbers = [t for t in terms if t[0].isdigit()]
    if numbers:
        return "number", numbers
    names = [t for t in terms if t[0].isupper()]
    return ("name", names) if names else ("", [])


def _folded(kind: str, shown: Sequence[str]) -> FrozenSet[str]:
    if kind == "number":
        return frozenset(n for t in shown for n in numbers_in(t))
    return frozenset(stem(fold(t)) for t in shown)


def positions_of(citations: Sequence[Citation], question: str) -> List[Position]:
    """The supported citations grouped by overlapping values, the most authoritative position first
    (lower tier, then more sources, then first cited)."""
    groups: List[Position] = []
    for cit in citations:
        if not cit.exists or cit.support == "none":
            continue
        kind, shown = _values(cit.quote, question)
        if not kind:
            continue  # states no value (a hop of a chain, a definition): no position of its own
        values = _folded(kind, shown)
        subject = {w for w in content_words(f"{cit.claim} {cit.quote}") if not w[0].isdigit()} - values
        joined = [g for g in groups if g.kind == kind and g.values & values]
        position = Position(kind, values, list(shown), [cit], subject)
        for g in joined:
            groups.remove(g)
            position = Position(kind, g.values | position.values, list(dict.fromkeys(g.shown + position.shown)),
                                g.citations + position.citations, g.subject | position.subject)
        groups.append(position)
    order = {id(c): n for n, c in enumerate(citations)}
    groups.sort(key=lambda g: (g.tier, -len(g.citations), min(order[id(c)] for c in g.citations)))
    return groups


def _same_subject(a: Position, b: Position) -> bool:
    if not a.subject or not b.subject:
        return False
    return len(a.subject & b.subject) / min(len(a.subject), len(b.subject)) >= SAME_SUBJECT


def _rivals(a: Position, b: Position) -> bool:
    return a.kind == b.kind and not (a.paths & b.paths) and _same_subject(a, b)


def rival_positions(citations: Sequence[Citation], question: str, answers: Sequence[str] = ()) -> List[Position]:
    """The positions that disagree, the most authoritative first; [] when the sources agree.
    ``answers`` (the draft's) phrase a position when one states its value and no rival's."""
    groups = positions_of(citations, question)
    for g in groups:
        rivals = [h for h in groups if h is not g and _rivals(g, h)]
        if rivals:
            found = [g] + rivals
            for p in found:
                p.statement = _statement(p, found, answers, question)
            return found
    return []


def _asks_the_same(cited: Position, found: Position, asked: Set[str]) -> bool:
    """``found`` holds every word of the question that the cited position's subject holds: "Braras Works
    employs 3280 people" shares most words with "Bravel Works employs 1470 people", but not the company asked
    about (measured on the generated collection at 86c86d6: other companies' staff counts were taken as rivals)."""
    return (cited.subject & asked) <= found.subject


def context_rivals(citations: Sequence[Citation], places: Sequence[Place], question: str) -> List[Citation]:
    """Sentences of the retrieved chunks no citation quotes that state a value no citation states, about the
    subject of a verified main-side citation (and every word of the question that subject holds), from another
    document: each as a citation of the less credible side (one a chunk, MAX_CONTEXT_RIVALS at most, in the
    context's order)."""
    own = positions_of([c for c in citations if c.side == "main"], question)
    if not own:
        return []
    stated = positions_of(citations, question)  # a value some citation already states is no new position
    asked = content_words(question)
    quoted = {c.chunk for c in citations}
    out: List[Citation] = []
    for place in places:
        if place.chunk in quoted:
            continue
        for sentence in _SENTENCE.split(place.text):
            sentence = sentence.strip()
            found = positions_of([citation_at(place, sentence)], question) if sentence else []
            if (found and any(_rivals(p, found[0]) and _asks_the_same(p, found[0], asked) for p in own)
                    and not any(p.kind == found[0].kind and p.values & found[0].values for p in stated)):
                out.append(found[0].citations[0])
                break
        if len(out) >= MAX_CONTEXT_RIVALS:
            break
    return out


def side_positions(more: Sequence[Citation], more_answer: str, less: Sequence[Citation],
                   less_answer: str) -> List[Position]:
    """The two sides of monitor mode as positions, when the quotes' values could not tell them
    apart but the analyst's two answers differ."""
    return [Position("answer", frozenset(), [more_answer], list(more), statement=more_answer),
            Position("answer", frozenset(), [less_answer], list(less), statement=less_answer)]


def _statement(p: Position, found: List[Position], answers: Sequence[str], question: str) -> str:
    """A draft answer that states this position's value and no rival's; else the best source's quote."""
    others = frozenset().union(*(q.values for q in found if q is not p))
    for answer in answers:
        if not answer or is_not_found(answer):
            continue
        kind, shown = _values(answer, question)
        values = _folded(kind, shown) if kind else frozenset()
        if kind == p.kind and values & p.values and not values & others:
            return answer
    best = min(p.citations, key=lambda c: c.tier if c.tier is not None else UNKNOWN_TIER)
    return bounded(" ".join(best.quote.split()), 200, marker=False)


def describe(positions: List[Position], numbers: Dict[str, int]) -> str:
    """The disagreement in two sentences: each position with its tiers and references, then the
    one the most authoritative tier supports."""
    def refs(p: Position) -> str:
        return ", ".join(f"[{numbers[k]}]" for k in dict.fromkeys(c.label or c.chunk for c in p.citations)
                         if k in numbers)

    def tiers(p: Position) -> str:
        found = sorted({c.tier for c in p.citations if c.tier is not None})
        return "tier " + "/".join(map(str, found)) + " sources" if found else "sources of unknown tier"

    said = "; ".join(f"{tiers(p)} say \"{p.statement}\" {refs(p)}".rstrip() for p in positions)
    top = positions[0]
    where = f"tier {top.tier}" if top.tier != UNKNOWN_TIER else "a source of unknown tier"
    return (f"**Sources disagree.** {said[0].upper() + said[1:]}. "
            f"The most authoritative source ({where}) supports: {', '.join(top.shown)}.")


def conflict_record(positions: List[Position], disagree: bool = True) -> Dict[str, Any]:
    """``final_report["conflict"]``: every position, the most authoritative one, and the two-sided
    summary earlier reports gave (``more_credible``/``less_credible``)."""
    top, rest = positions[0], positions[1:]
    return {"disagree": disagree, "positions": [p.to_dict() for p in positions],
            "most_authoritative": {"value": ", ".join(top.shown), "tier": None if top.tier == UNKNOWN_TIER else top.tier},
            "more_credible": {"answer": top.statement, "chunks": [c.chunk for c in top.citations]},
            "less_credible": {"answer": "; ".join(p.statement for p in rest),
                              "chunks": [c.chunk for p in rest for c in p.citations]}}

