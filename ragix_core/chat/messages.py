"""The messages of one thread: the single source of truth of spec 003 v2.

Three kinds, all immutable:
- ``human``: the user's question;
- ``ai``: tagged ``type`` reasoning | final_answer and ``source`` orchestrator | writer
  (a reasoning message is one orchestrator decision: its ``thinking`` is the content,
  the rest of the decision is in ``meta``);
- ``tool``: the result of the tool call requested by the reasoning message named in
  ``meta["tool_call_id"]`` (spec 003's ToolMessage), a failure included.

No system message is ever stored: prompts and history are added at call time.
Everything the engine counts (reasoning steps, tool calls) is derived from these
lists by the functions below, never stored beside them.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Dict, List, Mapping, Optional, Sequence

__all__ = [
    "ChatMessage", "KINDS", "REASONING", "FINAL_ANSWER", "ORCHESTRATOR", "WRITER",
    "human", "reasoning", "final_answer", "tool_message", "message_id",
    "reasoning_steps", "reasoning_count", "tool_messages", "tool_count", "final_message", "question",
    "tool_request",
]

KINDS = ("human", "ai", "tool")
REASONING, FINAL_ANSWER = "reasoning", "final_answer"
ORCHESTRATOR, WRITER = "orchestrator", "writer"


@dataclass(frozen=True)
class ChatMessage:
    kind: str  # human | ai | tool
    content: str
    id: str
    meta: Mapping[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"message kind must be one of {', '.join(KINDS)}, not {self.kind!r}")
        # A frozen dataclass still holds a mutable dict: keep a private copy so no caller can change it.
        object.__setattr__(self, "meta", dict(self.meta))

    @property
    def type(self) -> Optional[str]:
        return self.meta.get("type")

    @property
    def source(self) -> Optional[str]:
        return self.meta.get("source")

    def to_dict(self) -> Dict[str, Any]:
        return {"kind": self.kind, "content": self.content, "id": self.id, "meta": json.loads(json.dumps(self.meta))}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> "ChatMessage":
        if not isinstance(data, Mapping) or not {"kind", "content", "id"} <= set(data):
            raise ValueError(f"not a stored chat message: {str(data)[:120]}")
        return cls(kind=str(data["kind"]), content=str(data["content"]), id=str(data["id"]),
                   meta=dict(data.get("meta") or {}))


def message_id(thread_id: str, position: int) -> str:
    """Deterministic ids (thread + position): replaying a thread gives the same messages, and a
    reducer can tell a message it already has from a new one."""
    return f"{thread_id}:{position:03d}"


def human(thread_id: str, text: str) -> ChatMessage:
    return ChatMessage("human", text, message_id(thread_id, 0))


def reasoning(msg_id: str, thinking: str, **meta: Any) -> ChatMessage:
    return ChatMessage("ai", thinking, msg_id, {"type": REASONING, "source": ORCHESTRATOR, **meta})


def final_answer(msg_id: str, text: str, **meta: Any) -> ChatMessage:
    return ChatMessage("ai", text, msg_id, {"type": FINAL_ANSWER, "source": WRITER, **meta})


def tool_message(msg_id: str, *, tool_call_id: str, tool: str, tool_input: Mapping[str, Any], output: str,
                 error: Optional[str], **meta: Any) -> ChatMessage:
    content = output if error is None else f"error: {error}" + (f"\n{output}" if output else "")
    return ChatMessage("tool", content, msg_id, {"tool_call_id": tool_call_id, "tool": tool,
                                                  "input": dict(tool_input), "output": output, "error": error,
                                                  **meta})


# -- derived views ---------------------------------------------------------------


def reasoning_steps(messages: Sequence[ChatMessage]) -> List[ChatMessage]:
    return [m for m in messages if m.kind == "ai" and m.type == REASONING]


def reasoning_count(messages: Sequence[ChatMessage]) -> int:
    return len(reasoning_steps(messages))


def tool_messages(messages: Sequence[ChatMessage]) -> List[ChatMessage]:
    return [m for m in messages if m.kind == "tool"]


def tool_count(messages: Sequence[ChatMessage]) -> int:
    return len(tool_messages(messages))


def final_message(messages: Sequence[ChatMessage]) -> Optional[ChatMessage]:
    for m in reversed(messages):
        if m.kind == "ai" and m.type == FINAL_ANSWER:
            return m
    return None


def question(messages: Sequence[ChatMessage]) -> str:
    for m in messages:
        if m.kind == "human":
            return m.content
    return ""


def tool_request(message: Optional[ChatMessage]) -> Optional[Dict[str, Any]]:
    """The tool call a reasoning message asks for ({"tool", "input"}), or None."""
    if message is None or message.kind != "ai" or message.type != REASONING:
        return None
    tool = message.meta.get("tool_name")
    if message.meta.get("action") != tool or not tool:
        return None
    return {"tool": tool, "input": dict(message.meta.get("tool_input") or {})}
