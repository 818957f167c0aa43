"""The critic: deterministic checks first (citation existence, quote support, tier compliance,
answer grounding; see ``research.checks``), the model's opinion only on a draft that passed them.

A draft that fails a check is REJECTed without asking the model; the failures go back to the
analyst as the problems to fix. The model may then PASS, WARN or REJECT; a REJECT that names no
gap and no suggestion is taken as a WARN (a rejection must say what to fix), and so is, in monitor
mode, a REJECT of a draft whose verified sources disagree (the disagreement is the finding).
"""

from __future__ import annotations

from typing import Any, Dict, List, Literal

from pydantic import BaseModel, ConfigDict, Field

from ragix_core.core.text import bounded

from ..checks import Resolver, check_draft
from ..draft import Draft
from ..positions import context_rivals, rival_positions
from .base import BaseReasoningAgent

__all__ = ["CriticAgent", "CriticReply", "evidence_lines"]


class CriticReply(BaseModel):
    model_config = ConfigDict(extra="ignore")
    status: Literal["PASS", "WARN", "REJECT"]
    critique: str = Field("", max_length=1500)
    suggestions: List[str] = Field(default_factory=list, max_length=5)
    logical_gaps: List[str] = Field(default_factory=list, max_length=5)


_SCHEMA = {"type": "object", "additionalProperties": False,
           "properties": {"status": {"type": "string", "enum": ["PASS", "WARN", "REJECT"]},
                          "critique": {"type": "string"},
                          "suggestions": {"type": "array", "items": {"type": "string"}, "maxItems": 2},
                          "logical_gaps": {"type": "array", "items": {"type": "string"}, "maxItems": 2}},
           "required": ["status", "critique", "suggestions", "logical_gaps"]}


def evidence_lines(draft: Draft) -> str:
    """The draft's supported citations as the critic and the writer read them."""
    lines = []
    for side, title in (("main", ""), ("other", "LESS CREDIBLE sources:")):
        cits = [c for c in draft.citations if c.side == side and c.exists and c.support != "none"]
        if side == "other" and cits:
            lines.append(title + (f" their answer: {draft.other_answer}" if draft.other_answer else ""))
        for c in cits:
            tier = c.tier if c.tier is not None else "?"
            lines.append(f"[{c.label or c.chunk}] {c.path} (tier {tier}): \"{bounded(c.quote, 300, marker=False)}\""
                         f" — claim: {bounded(c.claim, 200, marker=False)}")
    return "\n".join(lines) or "(no verified evidence)"


class CriticAgent(BaseReasoningAgent):
    def __init__(self, client: Any, resolver: Resolver, timeout: float | None = None, *, use_llm: bool = True) -> None:
        super().__init__(client, "critic", timeout)
        self.resolver = resolver
        self.use_llm = use_llm

    def review(self, draft: Draft, query: str, mode: str) -> Dict[str, Any]:
        report = check_draft(draft, self.resolver, query, mode)
        if mode == "monitor":  # what the retrieved pages say against the cited ones is the finding (positions.py)
            draft.citations += context_rivals(draft.citations, self.resolver.context_places(), query)
        failures = report.failures()
        out: Dict[str, Any] = {"mode_compliance": "violation" if report.tier_violations else "compliant",
                               "checks": report.to_dict(), "failures": failures, "suggestions": [],
                               "logical_gaps": [], "by": "checks"}
        self.last_messages, self.last_reply = [], None
        if failures:
            out.update(status="REJECT", critique="; ".join(failures),
                       suggestions=["cite only the labels shown in SOURCES and copy quotes word for word",
                                    "state only what the quoted sources say"])
            return out
        if draft.insufficient and not draft.citations:
            out.update(status="WARN", critique="The analyst found no answer in the sources.")
            return out
        if not self.use_llm:
            out.update(status="PASS", critique="Every citation exists and its quote is in the cited document.")
            return out
        reply, _ = self.ask("research_critic", {"question": query, "answer": draft.answer or "NOT FOUND",
                                                "evidence": evidence_lines(draft)}, CriticReply,
                            schema=_SCHEMA, max_tokens=300)
        status, critique = reply.status, reply.critique
        if status == "REJECT" and not (reply.logical_gaps or reply.suggestions):
            status = "WARN"
        if status == "REJECT" and mode == "monitor" and rival_positions(draft.citations, query):
            # Verified sources that contradict each other are what monitor mode reports, not a flaw
            # a revision could fix: the writer states each position with its tier.
            status, critique = "WARN", f"{critique} The verified sources disagree; the report states each position.".strip()
        out.update(status=status, critique=critique, suggestions=list(reply.suggestions),
                   logical_gaps=list(reply.logical_gaps), by="model")
        return out
