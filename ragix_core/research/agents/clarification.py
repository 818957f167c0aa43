"""The clarification agent: when a question can mean several things the documents answer
differently, the result carries the options instead of a guess.

Two kinds, both detected deterministically:
- **entity**: documents titled "Name (qualifier)" — the disambiguation convention of wikis and
  manuals — with two or more qualifiers for a Name the question uses, and none of the qualifiers
  in the question. Each option is one of those documents (a path in the index).
- **time**: the question asks what changed (what changed, what's new, recent / latest changes,
  updates to ..., new features) without saying since when, and the documents found
  are dated in two or more years. Each option is a starting year, written into the question
  ("... (since 2023-01-01)") so that asking it again filters by document date (time_range.py).
Each option carries the question narrowed to it; the model only phrases the question to the user
(a plain question is used if it fails).
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


# A question about change over time. "Latest version" or "current value" asks for a state, which
# the newest document answers; "what changed" needs a starting point the question may not give.
_ASKS_CHANGE = re.compile(r"\b(?:what(?:'s|\s+is|\s+has|\s+have)?\s+(?:changed|new)|(?:recent|latest|new)\s+"
                          r"(?:changes|updates|additions|features)|(?:changes|updates)\s+(?:to|in|of|for)\b|"
                          r"what\s+changes\s+were|changelog|change\s+log|how\s+has\s+[\w\s'-]{1,60}\s+changed)",
                          re.IGNORECASE)
_MAX_TIME_OPTIONS = 4


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

    def detect(self, query: str, hits: List[Any], temporal: Optional[Dict[str, str]] = None) -> Optional[str]:
        """"entity" or "time" when ``query`` is ambiguous among the documents (options kept), else None.
        ``temporal``: the date range already asked (a question with one is not ambiguous in time)."""
        self.candidates = []
        return self._entity(query, hits) or self._time(query, hits, temporal or {})

    def _time(self, query: str, hits: List[Any], temporal: Dict[str, str]) -> Optional[str]:
        if temporal.get("since") or temporal.get("until") or not _ASKS_CHANGE.search(query):
            return None
        years: Dict[str, List[str]] = {}
        for hit in hits:
            date = str(getattr(hit, "date", "") or "")
            if re.match(r"\d{4}-", date):
                paths = years.setdefault(date[:4], [])
                if hit.path not in paths:
                    paths.append(hit.path)
        if len(years) < 2:
            return None
        stem = query.rstrip(" ?.!")
        self.candidates = [{"label": f"changes since {year}", "paths": paths, "since": f"{year}-01-01",
                            "query": f"{stem} (since {year}-01-01)?"}
                           for year, paths in sorted(years.items())[-_MAX_TIME_OPTIONS:]]
        return "time"

    def _entity(self, query: str, hits: List[Any]) -> Optional[str]:
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
            question = ("Since when: " if ambiguity_type == "time" else "Which one do you mean: ") + \
                ", ".join(o["label"] for o in options) + "?"
        return {"ambiguity_type": ambiguity_type, "question": question, "options": options}
