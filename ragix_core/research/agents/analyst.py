"""The analyst: drafts an answer whose claims cite the context's labels, or asks for a search.

``research`` drafts from the context; ``revise`` redrafts after a REJECT, with the critic's
problems quoted back. The reply schema is built per call: on the last round ``status`` can
only be DRAFT_READY (constrained decoding enforces it), and the monitor-mode fields exist
only in monitor mode, so a 1.5B model is never offered a field it must leave empty.
"""

from __future__ import annotations

from typing import Any, Dict, List, Optional, Tuple

from ragix_core import prompts

from ..context import Context
from ..draft import AnalystReply, Draft
from .base import BaseReasoningAgent

__all__ = ["AnalystAgent", "analyst_schema"]

_CLAIM = {"type": "object", "additionalProperties": False,
          "properties": {"text": {"type": "string"},
                         "source": {"type": "string"},
                         "quote": {"type": "string"}},
          "required": ["text", "source", "quote"]}


def analyst_schema(monitor: bool, can_search: bool) -> Dict[str, Any]:
    """No ``maxLength``: llama.cpp expands it into nested optional rules and constrained sampling
    slowed to a few tokens a minute; ``max_tokens`` and the pydantic model bound the strings."""
    props: Dict[str, Any] = {
        "claims": {"type": "array", "items": _CLAIM, "maxItems": 2},
        "answer": {"type": "string"},
    }
    if monitor:
        props["other_claims"] = {"type": "array", "items": _CLAIM, "maxItems": 2}
        props["other_answer"] = {"type": "string"}
    props["status"] = {"type": "string", "enum": ["DRAFT_READY", "SEARCH_REQUIRED"] if can_search else ["DRAFT_READY"]}
    props["new_queries"] = {"type": "array", "items": {"type": "string"},
                            "maxItems": 2 if can_search else 0}
    return {"type": "object", "additionalProperties": False, "properties": props, "required": list(props)}


class AnalystAgent(BaseReasoningAgent):
    def __init__(self, client: Any, timeout: Optional[float] = None, *,
                 compare_tiers: Optional[Tuple[int, int]] = None, max_rounds: int = 3) -> None:
        super().__init__(client, "analyst", timeout)
        self.compare_tiers = compare_tiers
        self.max_rounds = max_rounds
        self.round = 0
        self._query = ""
        self._mode = "discovery"
        self._temporal: Optional[Dict[str, str]] = None

    def _format_context(self, context: Context) -> str:
        return context.render(self.compare_tiers if self._mode == "monitor" else None)

    def research(self, query: str, context: Context, mode: str, temporal_context: Optional[Dict[str, str]] = None,
                 *, final: bool = False) -> Dict[str, Any]:
        self._query, self._mode, self._temporal = query, mode, temporal_context
        return self._ask(context, feedback="", final=final)

    def revise(self, draft: Draft, review: Dict[str, Any], context: Context, *, final: bool = False,
               temperature: Optional[float] = None) -> Dict[str, Any]:
        problems: List[str] = list(review.get("failures") or []) + list(review.get("logical_gaps") or [])
        problems += list(review.get("suggestions") or [])
        feedback = prompts.render("research_revise_feedback", draft=draft.markdown(),
                                  problems="\n".join(f"- {p}" for p in problems[:6]) or f"- {review.get('critique', '')}")
        return self._ask(context, feedback=feedback, final=final, temperature=temperature)

    def _ask(self, context: Context, *, feedback: str, final: bool, temperature: Optional[float] = None) -> Dict[str, Any]:
        self.round += 1
        monitor = self._mode == "monitor"
        can_search = not final
        temporal = ""
        if self._temporal and (self._temporal.get("since") or self._temporal.get("until")):
            temporal = prompts.render("research_temporal", since=self._temporal.get("since") or "the earliest",
                                      until=self._temporal.get("until") or "now")
        round_line = (prompts.render("research_round_more", n=self.round, max=self.max_rounds) if can_search
                      else prompts.load("research_round_last").strip())
        reply, _ = self.ask("research_analyst",
                            {"sources": self._format_context(context), "question": self._query,
                             "temporal": temporal, "feedback": feedback, "round": round_line},
                            AnalystReply, system_vars={"mode_rules": prompts.load(f"research_mode_{self._mode}").strip()},
                            schema=analyst_schema(monitor, can_search), max_tokens=600, temperature=temperature)
        draft = Draft.from_reply(reply)
        status = reply.status if can_search else "DRAFT_READY"
        queries = [q.strip() for q in reply.new_queries if q.strip()][:2] if status == "SEARCH_REQUIRED" else []
        if status == "SEARCH_REQUIRED" and not queries:
            status = "DRAFT_READY"  # a search with nothing to search for is a draft
        return {"status": status, "new_queries": queries, "draft": draft, "draft_markdown": draft.markdown(),
                "reasoning_chain": reply.reasoning_chain}
