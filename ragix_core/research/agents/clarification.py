"""The clarification agent: when a question names something the documents hold several of,
the result carries the options instead of a guess.

Detection is deterministic and narrow on purpose: documents titled "Name (qualifier)" —
the disambiguation convention of wikis and manuals — with two or more qualifiers for a Name
the question uses, and none of the qualifiers in the question. Each option is one of those
documents (real: a path in the index) with the question narrowed to it; the model only
phrases the question to the user (a plain question is used if it fails).
"""

from __future__ import annotations

import re
from typing import Any, Dict, List, Optional

from pydantic import BaseModel, ConfigDict, Field

from ragix_core.core.stop import StopRun

from .base import BaseReasoningAgent

__all__ = ["ClarificationAgent"]

_QUALIFIED = re.compile(r"^\s*(?P<name>[^()]{2,80}?)\s*\((?P<qual>[^()]{1,60})\)\s*$")
_SCHEMA = {"type": "object", "additionalProperties": False,
           "properties": {"question": {"type": "string"}}, "required": ["question"]}


class _Reply(BaseModel):
    model_config = ConfigDict(extra="ignore")
    question: str = Field(..., max_length=1000)


def _spaced(text: str) -> str:
    """Words of ``text``, folded, between single spaces (for whole-phrase containment)."""
    return " " + " ".join(re.findall(r"[^\W_]+", text.casefold())) + " "


def _words(text: str) -> set:
    return set(re.findall(r"[^\W_]+", text.casefold()))


class ClarificationAgent(BaseReasoningAgent):
    def __init__(self, client: Any, index: Any, timeout: Optional[float] = None) -> None:
        super().__init__(client, "clarification", timeout)
        self.index = index
        self.candidates: List[Dict[str, str]] = []

    def detect(self, query: str, hits: List[Any]) -> Optional[str]:
        """"entity" when ``query`` is ambiguous among the documents (options kept), else None."""
        self.candidates = []
        asked = _words(query)
        folded = _spaced(query)
        names = []
        for hit in hits:
            m = _QUALIFIED.match(getattr(hit, "title", "") or "")
            if m and _spaced(m.group("name")) in folded:
                names.append(m.group("name").strip())
        for name in dict.fromkeys(names):
            options = []
            for path, title in self.index.titles_matching(name + " ("):
                m = _QUALIFIED.match(title or "")
                if m and m.group("name").strip().casefold() == name.casefold():
                    options.append({"label": title.strip(), "path": path, "qualifier": m.group("qual").strip()})
            quals = {o["qualifier"].casefold() for o in options}
            if len(quals) >= 2 and not any(_words(q) <= asked for q in quals):
                self.candidates = [{"label": o["label"], "path": o["path"],
                                    "query": f"{query.rstrip(' ?')} ({o['qualifier']})?"} for o in options]
                return "entity"
        return None

    def generate_options(self, query: str, ambiguity_type: str) -> Dict[str, Any]:
        options = list(self.candidates)
        if not options:
            return {"ambiguity_type": ambiguity_type, "question": "", "options": []}
        listing = "\n".join(f"- {o['label']}" for o in options)
        try:
            reply, _ = self.ask("research_clarify", {"question": query, "options": listing}, _Reply,
                                schema=_SCHEMA, max_tokens=120)
            question = reply.question.strip()
        except StopRun:
            question = ""
        if not question:
            question = "Which one do you mean: " + ", ".join(o["label"] for o in options) + "?"
        return {"ambiguity_type": ambiguity_type, "question": question, "options": options}
