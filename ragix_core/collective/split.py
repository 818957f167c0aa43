"""The hierarchical master's split: a goal that asks several things, cut into questions for workers.

Small model first: the master asks its model only when the goal asks several things, by the rule the
graph already routes with (``core.asks.several_asks``: two questions, or a second ask
after "and" / "then" / ";"). A goal that asks one thing is one worker's question, unchanged, with no call.

The model's parts are untrusted output: a list of 2 to ``max_parts`` distinct, non-empty questions of at
most ``MAX_PART_CHARS`` characters each, or nothing is used. Anything else (a backend error, a reply that is
not that list, one part only) sends the whole goal to one worker, and the split says why.
"""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass, field
from typing import Any, Dict, List, Optional, Tuple

from ragix_core import prompts
from ragix_core.llm.base import LLMClient, LLMError
from ragix_core.core.asks import several_asks

__all__ = ["Split", "split_goal", "validate_parts", "MAX_PARTS", "MAX_PART_CHARS"]

MAX_PARTS = 4  # more workers than that on one local model is more wall time than a small goal is worth
MAX_PART_CHARS = 400
_WORD = re.compile(r"\w")


@dataclass
class Split:
    parts: List[str]
    by: str  # "rules" (asks one thing: not split), "master" (the model's parts), "fallback" (its output unusable)
    note: str
    proposed: Optional[Any] = field(default=None)  # what the master replied, kept when it was refused

    def to_dict(self) -> Dict[str, Any]:
        return asdict(self)


def _key(text: str) -> str:
    return " ".join(re.findall(r"\w+", text.casefold()))


def validate_parts(data: Any, max_parts: int = MAX_PARTS) -> Tuple[Optional[List[str]], str]:
    """(the parts, "") when ``data`` is ``{"parts": [...]}`` with 2..max_parts distinct non-empty questions,
    else (None, what was wrong)."""
    if not isinstance(data, dict) or not isinstance(data.get("parts"), list):
        return None, 'the reply is not an object with a "parts" list'
    raw = data["parts"]
    if len(raw) > max_parts:
        return None, f"{len(raw)} parts, more than the {max_parts} allowed"
    parts: List[str] = []
    seen = set()
    for n, item in enumerate(raw, 1):
        if not isinstance(item, str) or not _WORD.search(item):
            return None, f"part {n} is not a non-empty question"
        text = " ".join(item.split())
        if len(text) > MAX_PART_CHARS:
            return None, f"part {n} is longer than {MAX_PART_CHARS} characters"
        if _key(text) in seen:
            return None, f"part {n} repeats an earlier part"
        seen.add(_key(text))
        parts.append(text)
    if len(parts) < 2:
        return None, f"{len(parts)} part(s): not a split"
    return parts, ""


def split_goal(goal: str, client: LLMClient, max_parts: int = MAX_PARTS) -> Split:
    """The questions the workers answer. A spent run budget (``BudgetSpent``) is not caught: it ends the run."""
    if not several_asks(goal):
        return Split([goal], "rules", "the goal asks one thing: one worker on it, unchanged, no split asked")
    text = prompts.render("hierarchical_split", goal=goal, max_parts=max_parts)
    schema = {"type": "object", "required": ["parts"],
              "properties": {"parts": {"type": "array", "items": {"type": "string"}, "maxItems": max_parts}}}
    whole = "one worker on the whole goal"
    try:
        reply = client.complete([{"role": "user", "content": text}], schema=schema, temperature=0.0)
    except LLMError as exc:
        return Split([goal], "fallback", f"the master's split failed ({type(exc).__name__}: {exc}): {whole}")
    parts, problem = validate_parts(reply.data, max_parts)
    if parts is None:
        return Split([goal], "fallback", f"the master's split was refused ({problem}): {whole}",
                     proposed=reply.data if reply.data is not None else reply.text[:2000])
    return Split(parts, "master", f"the goal asks several things: the master split it into {len(parts)} parts")
