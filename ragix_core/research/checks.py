"""The critic's deterministic checks, run before any model is asked (evidence over opinion).

For every claim of a draft:
- **existence**: the cited label is in the context, or the cited chunk id is in the index,
  and its file exists under the documents directory; otherwise the citation is fabricated;
- **quote support**: the quote stands in the cited chunk, exactly or closely (``matching``);
  when it does not, but it stands in another retrieved chunk or elsewhere in the cited document,
  the citation is re-attached there and the repair counted (``resolver``); likewise when a more
  authoritative page, or a page about the question's subject, states the same;
- **tier compliance**: in strict mode every cited source is of a known tier <= max_tier.
And for the answer: every number and every capitalised name it states (beyond the question's
own words; every content word of a short answer) must occur in a cited chunk (after repair; in
monitor mode, a chunk of either side, since the answer may state both positions); an answer
with no supported citation is unsupported; an answer made only of the question's own words says
nothing (a small model turns "What hard ceiling applies to X?" into "The hard ceiling applies to X.");
and every name the question gives its subject (GitHub Actions, FTS5) must stand on a cited page, or the
answer is about something else (``subject_names``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Dict, List

from .draft import Draft, is_not_found
from .matching import NUMBER, STOP, fold, number_key, stem, support, term_in, words
from .resolver import Resolver
from .subject_names import names_missing

__all__ = ["CheckReport", "Resolver", "check_draft", "fold", "support", "answer_terms", "restates_question"]

SHORT_ANSWER_WORDS = 6
# A question opening with one of these asks yes or no, and "X supports Y" may answer "Does X support Y?".
_POLAR_OPENERS = frozenset("is are was were do does did can could will would should shall has have had may might "
                           "must".split())
RESTATED_WORDS = 3  # fewer content words may be an option the question offers ("Which, one or two?" "One")


def restates_question(answer: str, question: str) -> bool:
    """``answer`` has RESTATED_WORDS or more content words and every one is the question's: it answers nothing.
    Not for a yes/no question, nor one that offers a choice (" or "), whose answer may be its own words."""
    asked_words = words(question)
    if not asked_words or asked_words[0] in _POLAR_OPENERS or " or " in f" {question.casefold()} ":
        return False
    asked = {stem(w) for w in asked_words}
    said = [w for w in words(answer) if w not in STOP]
    return len(said) >= RESTATED_WORDS and all(stem(w) in asked for w in said)


def answer_terms(answer: str, question: str) -> List[str]:
    """What the answer states that the question does not: its numbers and capitalised names; and,
    for a short answer (<= 6 words: a name, a number, "copper wire"), every content word."""
    asked = set(words(question))
    asked_numbers = {number_key(n) for n in NUMBER.findall(question)}
    answer_words = words(answer)
    if len(answer_words) <= SHORT_ANSWER_WORDS:
        out = [n for n in NUMBER.findall(answer) if number_key(n) not in asked_numbers]
        out += [w for w in re.findall(r"[^\W\d_][\w'-]*", answer)
                if w.casefold() not in STOP and w.casefold() not in asked and w.casefold().rstrip("s") not in asked]
        return list(dict.fromkeys(out))
    out = []
    for sentence in re.split(r"(?<=[.!?:])\s+", answer):
        for n in NUMBER.findall(sentence):
            if number_key(n) not in asked_numbers:
                out.append(n)
        tokens = re.findall(r"[^\W\d_][\w'-]*", sentence)
        for i, tok in enumerate(tokens):
            low = tok.casefold()
            if i > 0 and tok[0].isupper() and low not in STOP and low not in asked and low.rstrip("s") not in asked:
                out.append(tok)
    return list(dict.fromkeys(out))


@dataclass
class CheckReport:
    fabricated: List[str] = field(default_factory=list)
    unsupported_quotes: List[str] = field(default_factory=list)
    tier_violations: List[str] = field(default_factory=list)
    unsupported_terms: List[str] = field(default_factory=list)
    missing_citations: bool = False
    restates_question: bool = False
    # Names the question gives its subject that no cited page states (subject_names.py): the answer is about
    # something else.
    unnamed: List[str] = field(default_factory=list)
    notes: List[str] = field(default_factory=list)
    # Citations the engine re-attached to the chunk where their text stands (not failures).
    repaired: List[Dict[str, Any]] = field(default_factory=list)

    def failures(self) -> List[str]:
        out = [f"citation to a source that does not exist: {x}" for x in self.fabricated]
        out += [f"quote not found in the cited source: {x}" for x in self.unsupported_quotes]
        out += [f"source above the mode's tier limit: {x}" for x in self.tier_violations]
        if self.unsupported_terms:
            out.append("answer states what no cited source says: " + ", ".join(self.unsupported_terms))
        if self.missing_citations:
            out.append("the answer cites no source that supports it")
        if self.restates_question:
            out.append("the answer only repeats the question's words: it states no answer")
        if self.unnamed:
            out.append("no cited page names " + ", ".join(self.unnamed) + ", which the question asks about: "
                       "the answer is about something else")
        return out

    @property
    def passed(self) -> bool:
        return not self.failures()

    def to_dict(self) -> Dict[str, Any]:
        return {"fabricated": self.fabricated, "unsupported_quotes": self.unsupported_quotes,
                "tier_violations": self.tier_violations, "unsupported_terms": self.unsupported_terms,
                "missing_citations": self.missing_citations, "restates_question": self.restates_question,
                "unnamed": self.unnamed, "notes": self.notes, "repaired": self.repaired}


def check_draft(draft: Draft, resolver: Resolver, question: str, mode: str) -> CheckReport:
    """Resolve every citation of ``draft`` (stored in ``draft.citations``) and check it."""
    report = CheckReport()
    draft.citations = [resolver.resolve(c, question=question) for c in draft.claims]
    draft.citations += [resolver.resolve(c, side="other", question=question) for c in draft.other_claims]
    _ground(draft, resolver, question)
    for cit in draft.citations:
        ref = cit.source_ref or "(no source given)"
        if not cit.exists:
            report.fabricated.append(ref)
            continue
        if cit.repair:
            report.repaired.append({"cited": ref, "cited_chunk": cit.cited_chunk, "now": cit.label or cit.chunk,
                                    "chunk": cit.chunk, "path": cit.path, "tier": cit.tier, "why": cit.repair})
        if cit.support == "none":
            report.unsupported_quotes.append(f"{ref}: \"{cit.claimed_quote or cit.claim}\"")
        if mode == "strict" and not resolver.tier_filter.allows(cit.source or "", mode):
            report.tier_violations.append(f"{ref} ({cit.path}: {cit.source}, tier {cit.tier or '?'})")
    good = [c for c in draft.citations if c.exists and c.support != "none"]
    if draft.answer and not is_not_found(draft.answer):
        report.restates_question = restates_question(draft.answer, question)
        pages = dict.fromkeys(c.path for c in good if c.path and (c.side == "main" or mode == "monitor"))
        if pages:  # an answer citing nothing that stands is already a failure
            report.unnamed = names_missing(question, [resolver.page_text(p) for p in pages])
    for answer, side in ((draft.answer, "main"), (draft.other_answer, "other")):
        if not answer or is_not_found(answer):
            continue
        own = [c for c in good if c.side == side]
        if not own:
            if side == "main":
                report.missing_citations = True
            else:
                report.notes.append("the less credible side's answer cites no supported source; it is left out")
            continue
        # A monitor-mode answer may state both positions ("64; a forum says 128"): either side's sources count.
        backing = good if mode == "monitor" and side == "main" else own
        texts = [resolver.text_of(c.chunk, c.quote) for c in backing]
        missing = [t for t in answer_terms(answer, question) if not term_in(t, texts)]
        if side == "main":
            report.unsupported_terms += missing
        elif missing:
            report.notes.append("the less credible side's answer states what its sources do not: " + ", ".join(missing))
    return report


def _ground(draft: Draft, resolver: Resolver, question: str) -> None:
    """When the main side's cited chunks do not state all the answer says, move a citation (one whose
    quote stands in its chunk) to the retrieved chunk that states the missing terms and its claim (``Resolver.ground``)."""
    if not draft.answer or is_not_found(draft.answer):
        return
    terms = answer_terms(draft.answer, question)
    # Only a quote that stands where it is cited moves so: an invented quote stays unsupported.
    main = [c for c in draft.citations if c.side == "main" and c.exists and c.support != "none"]
    for cit in main:
        backing = [resolver.text_of(c.chunk, c.quote) for c in main]
        missing = [t for t in terms if not term_in(t, backing)]
        if not missing:
            return
        # The new place must also state what this citation's chunk already backed, so a move never
        # loses a term another part of the answer relies on.
        kept = [t for t in terms if t not in missing and term_in(t, [resolver.text_of(cit.chunk, cit.quote)])]
        resolver.ground(cit, missing + kept, question)
