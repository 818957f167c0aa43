"""What the analyst writes (validated replies) and what the engine makes of it (a draft with
resolved citations). The model names a source label and copies a quote; the engine supplies
the path, the source, the tier and the quote as it stands in the document."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Dict, List, Literal, Optional

from pydantic import BaseModel, ConfigDict, Field

__all__ = ["ClaimIn", "AnalystReply", "Citation", "Draft", "NOT_FOUND", "is_not_found"]

NOT_FOUND = "NOT FOUND"
_DECLINES = ("not found", "not in the sources", "no answer", "cannot be answered", "not mentioned",
             "does not say", "do not say", "no information", "not stated")


def is_not_found(answer: str) -> bool:
    text = " ".join(str(answer or "").lower().split())
    return not text or any(d in text for d in _DECLINES)


class _Lenient(BaseModel):
    model_config = ConfigDict(extra="ignore")


class ClaimIn(_Lenient):
    text: str = Field("", max_length=600)
    source: str = Field("", max_length=300)  # a label (S3) or, from a hand-made draft, a chunk id
    quote: str = Field("", max_length=600)


class AnalystReply(_Lenient):
    claims: List[ClaimIn] = Field(default_factory=list, max_length=6)
    answer: str = Field("", max_length=800)
    status: Literal["DRAFT_READY", "SEARCH_REQUIRED"] = "DRAFT_READY"
    new_queries: List[str] = Field(default_factory=list, max_length=5)
    reasoning_chain: str = Field("", max_length=1500)
    # monitor mode: the answer of the less credible side, and its claims
    other_answer: str = Field("", max_length=800)
    other_claims: List[ClaimIn] = Field(default_factory=list, max_length=6)


@dataclass
class Citation:
    source_ref: str  # what the draft cited (label or chunk id)
    claim: str
    claimed_quote: str
    label: Optional[str] = None
    chunk: Optional[str] = None
    path: Optional[str] = None
    source: Optional[str] = None
    tier: Optional[int] = None
    type: str = "unknown"
    quote: str = ""  # verbatim from the chunk (empty when unsupported)
    support: Literal["exact", "close", "none"] = "none"
    exists: bool = False  # the cited chunk is in the index and its file on disk
    side: str = "main"  # "main", or "other" for the less credible side in monitor mode
    # When the engine re-attached the citation to another chunk: why, and the chunk first cited.
    repair: str = ""
    cited_chunk: Optional[str] = None

    def to_output(self) -> Dict[str, Any]:
        return {"path": self.path, "source": self.source, "tier": self.tier, "chunk": self.chunk, "quote": self.quote}


@dataclass
class Draft:
    answer: str
    claims: List[ClaimIn] = field(default_factory=list)
    other_answer: str = ""
    other_claims: List[ClaimIn] = field(default_factory=list)
    reasoning_chain: str = ""
    citations: List[Citation] = field(default_factory=list)  # filled by the critic's checks

    @classmethod
    def from_reply(cls, reply: AnalystReply) -> "Draft":
        return cls(answer=reply.answer.strip(), claims=list(reply.claims), other_answer=reply.other_answer.strip(),
                   other_claims=list(reply.other_claims), reasoning_chain=reply.reasoning_chain)

    @property
    def insufficient(self) -> bool:
        return is_not_found(self.answer)

    def markdown(self) -> str:
        lines = [f"**Answer:** {self.answer or NOT_FOUND}"]
        for c in self.claims:
            lines.append(f"- {c.text} [{c.source}]" + (f" — \"{c.quote}\"" if c.quote else ""))
        if self.other_answer or self.other_claims:
            lines.append(f"**Less credible sources say:** {self.other_answer or NOT_FOUND}")
            for c in self.other_claims:
                lines.append(f"- {c.text} [{c.source}]" + (f" — \"{c.quote}\"" if c.quote else ""))
        return "\n".join(lines)

    def to_dict(self) -> Dict[str, Any]:
        return {"answer": self.answer, "claims": [c.model_dump() for c in self.claims],
                "other_answer": self.other_answer, "other_claims": [c.model_dump() for c in self.other_claims],
                "reasoning_chain": self.reasoning_chain}
