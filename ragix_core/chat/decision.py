"""The orchestrator's decision (spec 003 v2's decision schema), validated and normalised.

    {"thinking": "...", "action": "think|repl|operator|search|answer",
     "tool_name": "repl|operator|search|none", "tool_input": {...}, "confidence": 85,
     "missing_info": ["..."]}

The JSON Schema sent to the backend lists only the tools this run has, so a
schema-constrained model cannot ask for one it does not have. ``tool_input``
values are strings in the schema (one grammar for every tool); each tool reads
the keys it needs and says which are missing. The spec's ``tool_name`` repeats
``action`` for tool actions: ``action`` wins, and a disagreement is recorded.
"""

from __future__ import annotations

from typing import Any, Dict, List, Literal, Sequence

from pydantic import BaseModel, ConfigDict, Field, field_validator

from ragix_core.core.text import bounded

__all__ = ["Decision", "ACTIONS", "decision_schema", "normalised", "THINKING_CHARS", "INPUT_CHARS"]

ACTIONS = ("think", "repl", "operator", "search", "answer")
THINKING_CHARS = 2000
INPUT_CHARS = 8000  # per tool_input value (REPL code is the longest)
_MISSING_ITEMS, _MISSING_CHARS = 5, 200


class Decision(BaseModel):
    model_config = ConfigDict(extra="ignore")

    thinking: str = ""
    action: Literal["think", "repl", "operator", "search", "answer"]
    tool_name: str = "none"
    tool_input: Dict[str, str] = Field(default_factory=dict)
    confidence: float = Field(50, ge=0, le=100)
    missing_info: List[str] = Field(default_factory=list)

    @field_validator("tool_input", mode="before")
    @classmethod
    def _scalar_values(cls, value: Any) -> Any:
        # Backends without constrained decoding may send numbers; anything nested is refused.
        if value is None:
            return {}
        if isinstance(value, dict):
            out = {}
            for key, item in value.items():
                if isinstance(item, bool) or not isinstance(item, (str, int, float)):
                    raise ValueError(f"tool_input.{key} must be a string or a number")
                out[str(key)] = str(item)
            return out
        return value

    @field_validator("tool_name", mode="before")
    @classmethod
    def _none_name(cls, value: Any) -> Any:
        return "none" if value is None else value

    @field_validator("missing_info", mode="before")
    @classmethod
    def _list(cls, value: Any) -> Any:
        if value is None:
            return []
        return [value] if isinstance(value, str) else value


def decision_schema(tools: Sequence[str]) -> Dict[str, Any]:
    """The constrained-decoding schema: ``thinking`` first (the step is reasoned before it is chosen)."""
    actions = ["think"] + [t for t in ACTIONS if t in tools] + ["answer"]
    return {
        "type": "object",
        "properties": {
            "thinking": {"type": "string"},
            "action": {"type": "string", "enum": actions},
            "tool_name": {"type": "string", "enum": [t for t in ACTIONS if t in tools] + ["none"]},
            "tool_input": {"type": "object", "additionalProperties": {"type": "string"}},
            "confidence": {"type": "integer", "minimum": 0, "maximum": 100},
            "missing_info": {"type": "array", "items": {"type": "string"}, "maxItems": _MISSING_ITEMS},
        },
        "required": ["thinking", "action", "tool_name", "tool_input", "confidence", "missing_info"],
        "additionalProperties": False,
    }


def normalised(decision: Decision) -> Dict[str, Any]:
    """The decision as a reasoning message's metadata: bounded, tool fields only for tool actions."""
    is_tool = decision.action not in ("think", "answer")
    meta: Dict[str, Any] = {
        "action": decision.action,
        "tool_name": decision.action if is_tool else None,
        "tool_input": {k[:64]: bounded(v, INPUT_CHARS) for k, v in list(decision.tool_input.items())[:12]}
        if is_tool else {},
        "confidence": round(float(decision.confidence)),
        "missing_info": [bounded(m, _MISSING_CHARS, marker=False) for m in decision.missing_info[:_MISSING_ITEMS]],
    }
    if is_tool and decision.tool_name not in ("none", decision.action):
        meta["tool_name_given"] = bounded(decision.tool_name, 64, marker=False)
    return meta
