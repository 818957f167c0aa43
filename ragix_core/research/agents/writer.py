"""The writer: the final report, with references the engine builds from the verified citations.

The model (when enabled) phrases the report from the verified evidence only; its text is
kept only if it cites no label outside that evidence and still states the answer, else the
report is written from the draft without the model. Either way the references list, the
``sources_used`` and the confidence are computed, not written by the model; labels
become numbered references ``[1]`` that name the document path, source, tier and quote.
In monitor mode, a disagreement is always stated, citing every position with its tiers and
naming the one the most authoritative tier supports (``research.positions``); sources that
disagree make an answered report even when the draft itself was declined or rejected.
"""

from __future__ import annotations

import re
from typing import Any, Dict, List, Optional

from pydantic import BaseModel, ConfigDict, Field

from ragix_core.core.stop import StopRun

from ..checks import fold
from ..context import Context
from ..draft import NOT_FOUND, Citation, Draft, is_not_found
from ..positions import Position, conflict_record, describe, rival_positions, side_positions
from ..settings import UNKNOWN_SOURCE
from .base import BaseReasoningAgent
from .critic import evidence_lines

__all__ = ["WriterAgent", "answers_differ", "token_f1"]

_LABEL_REF = re.compile(r"\[\s*(S\d{1,3})\s*\]")
_SCHEMA = {"type": "object", "additionalProperties": False,
           "properties": {"final_report": {"type": "string"}}, "required": ["final_report"]}


class WriterReply(BaseModel):
    model_config = ConfigDict(extra="ignore")
    final_report: str = Field(..., max_length=4000)


def _tokens(text: str) -> List[str]:
    return re.findall(r"[^\W_]+", fold(text))


def token_f1(a: str, b: str) -> float:
    ta, tb = _tokens(a), _tokens(b)
    if not ta or not tb:
        return 0.0
    from collections import Counter

    common = sum((Counter(ta) & Counter(tb)).values())
    if not common:
        return 0.0
    p, r = common / len(ta), common / len(tb)
    return 2 * p * r / (p + r)


def answers_differ(a: str, b: str) -> bool:
    """Two short answers disagree when they state different numbers, or share less than half
    their words (token F1 < 0.5)."""
    na = {n.replace(",", "") for n in re.findall(r"\d[\d,.]*", a)}
    nb = {n.replace(",", "") for n in re.findall(r"\d[\d,.]*", b)}
    if na and nb:
        return na != nb
    return token_f1(a, b) < 0.5


class WriterAgent(BaseReasoningAgent):
    def __init__(self, client: Any, timeout: Optional[float] = None, *, use_llm: bool = True) -> None:
        super().__init__(client, "writer", timeout)
        self.use_llm = use_llm

    def compose(self, draft: Draft, review: Dict[str, Any], context: Context, mode: str, *,
                query: str = "") -> Dict[str, Any]:
        """``context`` is passed as the spec requires; references come from ``draft.citations``,
        which the critic resolved against it."""
        self.last_messages, self.last_reply = [], None
        accepted = review.get("status") != "REJECT"
        main = [c for c in draft.citations if c.side == "main" and c.exists and c.support != "none"]
        other = [c for c in draft.citations if c.side == "other" and c.exists and c.support != "none"]
        if review.get("mode_compliance") == "violation":
            main = [c for c in main if c.tier is not None and c.tier <= 2]
        # A rejected draft's answers may state what no source does: its positions are then said in quotes only.
        answers = (draft.answer, draft.other_answer) if accepted else ()
        positions = rival_positions(main + other, query, answers) if mode == "monitor" else []
        if not accepted or draft.insufficient or not main:
            if positions:  # monitor mode: verified sources that disagree are the finding, not a reason to decline
                return self._positions_report(review, positions, accepted)
            return self._declined(draft, review, query, accepted, other if mode == "monitor" else [])
        conflict = None
        if positions:
            conflict = conflict_record(positions)
        elif mode == "monitor" and other and draft.other_answer and not is_not_found(draft.other_answer):
            positions = side_positions(main, draft.answer, other, draft.other_answer)
            conflict = conflict_record(positions, disagree=answers_differ(draft.answer, draft.other_answer))
        cited = _unique(main + [c for p in positions for c in p.citations])
        body = self._model_text(draft, query, cited, conflict) if self.use_llm else None
        if body is None:
            body = self._plain_text(draft, main)
        numbers = {c.label or c.chunk: n for n, c in enumerate(cited, start=1)}
        body = _LABEL_REF.sub(lambda m: f"[{numbers[m.group(1)]}]" if m.group(1) in numbers else "", body)
        if conflict and conflict["disagree"]:
            body += "\n\n" + describe(positions, numbers)
        exact = all(c.support == "exact" for c in cited)
        confidence = "High" if review.get("status") == "PASS" and exact else "Medium"
        return {"final_report": body + "\n\n" + _references(cited, numbers),
                "sources_used": list(dict.fromkeys(c.source or "unknown" for c in cited)),
                "confidence_level": confidence, "answer": draft.answer,
                "citations": [c.to_output() for c in cited], "conflict": conflict, "status": "ANSWERED"}

    @staticmethod
    def _positions_report(review: Dict[str, Any], positions: List[Position], accepted: bool) -> Dict[str, Any]:
        """The report of a monitor run whose draft gave no verified answer but whose verified sources
        disagree: each position with its sources and tiers, the most authoritative one as the answer.
        Written without the model: every sentence is a verified quote or a tier."""
        cited = _unique([c for p in positions for c in p.citations])
        numbers = {c.label or c.chunk: n for n, c in enumerate(cited, start=1)}
        answer = positions[0].statement
        lines = [f"**Answer:** {answer}", "", describe(positions, numbers)]
        if not accepted:
            why = "; ".join(review.get("failures") or review.get("logical_gaps") or [review.get("critique", "")])
            lines += ["", f"(The analyst's draft was not verified: {why}. The positions above are the documents' own words.)"]
        return {"final_report": "\n".join(lines) + "\n\n" + _references(cited, numbers),
                "sources_used": list(dict.fromkeys(c.source or "unknown" for c in cited)),
                "confidence_level": "Medium" if accepted else "Low", "answer": answer,
                "citations": [c.to_output() for c in cited], "conflict": conflict_record(positions), "status": "ANSWERED"}

    def _model_text(self, draft: Draft, query: str, cited: List[Citation], conflict: Optional[Dict]) -> Optional[str]:
        notes = ""
        if conflict and conflict["disagree"]:
            notes = "NOTE: the MORE CREDIBLE and LESS CREDIBLE sources disagree."
        try:
            reply, _ = self.ask("research_writer", {"question": query, "answer": draft.answer,
                                                    "evidence": evidence_lines(draft), "notes": notes},
                                WriterReply, schema=_SCHEMA, max_tokens=400)
        except StopRun:
            return None  # the plain report below is always available
        text = reply.final_report.strip()
        allowed = {c.label for c in cited if c.label}
        used = set(_LABEL_REF.findall(text))
        answer_words = set(_tokens(draft.answer))
        kept = answer_words & set(_tokens(text))
        if not text or not used or not used <= allowed or (answer_words and len(kept) / len(answer_words) < 0.6):
            return None
        return text

    @staticmethod
    def _plain_text(draft: Draft, main: List[Citation]) -> str:
        lines = [f"**Answer:** {draft.answer}", ""]
        for c in _unique(main):
            lines.append(f"- {c.claim} [{c.label or c.chunk}]")
        return "\n".join(lines)

    @staticmethod
    def _declined(draft: Draft, review: Dict[str, Any], query: str, accepted: bool,
                  other: List[Citation]) -> Dict[str, Any]:
        if not accepted:
            body = ("**No verified answer.** The draft answer could not be backed by the documents: "
                    + "; ".join(review.get("failures") or review.get("logical_gaps") or [review.get("critique", "")]))
            status = "UNVERIFIED"
        else:
            body = f"**{NOT_FOUND}.** The indexed documents that this mode allows do not answer: {query}"
            status = "NOT_FOUND"
        citations: List[Dict[str, Any]] = []
        if other and draft.other_answer and not is_not_found(draft.other_answer):
            numbers = {c.label or c.chunk: n for n, c in enumerate(_unique(other), start=1)}
            refs = ", ".join(f"[{numbers[c.label or c.chunk]}]" for c in _unique(other))
            body += (f"\n\nOnly less credible sources address it: they say \"{draft.other_answer}\" {refs}."
                     "\n\n" + _references(_unique(other), numbers))
            citations = [c.to_output() for c in _unique(other)]
        return {"final_report": body, "sources_used": list(dict.fromkeys(c["source"] or "unknown" for c in citations)),
                "confidence_level": "Low", "answer": "", "citations": citations, "conflict": None, "status": status}


def _unique(cits: List[Citation]) -> List[Citation]:
    seen, out = set(), []
    for c in cits:
        key = c.label or c.chunk
        if key not in seen:
            seen.add(key)
            out.append(c)
    return out


def _references(cits: List[Citation], numbers: Dict[str, int]) -> str:
    lines = ["**Sources**"]
    for c in cits:
        # Only what is known: a collection without a sources file has no source names, tiers or types,
        # and "unknown (tier ?, unknown)" on every line tells the reader nothing.
        about = [part for part in (c.source, f"tier {c.tier}" if c.tier is not None else None, c.type)
                 if part and part != UNKNOWN_SOURCE]
        lines.append(f"[{numbers[c.label or c.chunk]}] {c.path}" + (f" ({', '.join(about)})" if about else "")
                     + f", {c.chunk}: \"{c.quote}\"")
    return "\n".join(lines)
