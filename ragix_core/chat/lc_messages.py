"""LangChain messages in and out of the chat thread (the optional ``langchain-core`` package).

    ragix ChatMessage                        LangChain
    human                                ↔   HumanMessage
    ai, type reasoning, asks for a tool  ↔   AIMessage with one tool_calls entry (its id = the message id)
    ai, type reasoning / final_answer    ↔   AIMessage
    tool                                 ↔   ToolMessage (tool_call_id, name, status "error" on failure)

ragix's tags (``type`` reasoning | final_answer, ``source``, the decision's fields) travel
in ``additional_kwargs``, spec 003's "metadata/kwargs", so a LangChain user reads
``m.additional_kwargs["type"]`` and a round trip gives back the same ChatMessage. An
AIMessage ragix did not write (no ``type`` tag) becomes a reasoning step.

Refused, with ``MessageConversionError`` naming the type: a ``SystemMessage`` (spec 003
v2 keeps none in a thread: ragix adds its prompts at call time), any other message class,
content blocks that are not text, and an AIMessage asking for more than one tool (the
orchestrator asks for one per step). ``langchain_core`` is imported only here, when used.
"""

from __future__ import annotations

from typing import Any, Dict, List, Mapping, Optional, Sequence

from .messages import FINAL_ANSWER, REASONING, ChatMessage

__all__ = ["MessageConversionError", "is_langchain_message", "to_langchain", "from_langchain",
           "to_langchain_all", "from_langchain_all"]

FOREIGN_SOURCE = "langchain"  # the source tag of an AIMessage ragix did not write


class MessageConversionError(ValueError):
    """A message that has no ChatMessage (or LangChain) counterpart; the text names its type."""


def _lc() -> Any:
    try:
        from langchain_core import messages
    except ImportError as exc:
        raise ImportError("LangChain messages need the optional 'langchain-core' package "
                          f"(pip install 'ragix[langchain]'): {exc}") from None
    return messages


def is_langchain_message(value: Any) -> bool:
    """True for any langchain-core message, without importing langchain-core when it is not loaded."""
    return any(c.__module__.startswith("langchain_core.messages") and c.__name__ == "BaseMessage"
               for c in type(value).__mro__)


def _text(message: Any) -> str:
    content = message.content
    if isinstance(content, str):
        return content
    parts = []
    for block in content or ():
        if isinstance(block, str):
            parts.append(block)
        elif isinstance(block, Mapping) and block.get("type") == "text":
            parts.append(str(block.get("text", "")))
        else:
            kind = block.get("type") if isinstance(block, Mapping) else type(block).__name__
            raise MessageConversionError(f"{type(message).__name__} holds a {kind!r} content block; "
                                         "a ragix chat thread holds text only")
    return "".join(parts)


# -- ragix -> LangChain --------------------------------------------------------------


def to_langchain(message: ChatMessage) -> Any:
    """The LangChain message for one ChatMessage."""
    lc = _lc()
    if not isinstance(message, ChatMessage):
        raise MessageConversionError(f"expected a ragix ChatMessage, got {type(message).__name__}")
    meta = dict(message.meta)
    if message.kind == "human":
        return lc.HumanMessage(content=message.content, id=message.id, additional_kwargs=meta)
    if message.kind == "ai":
        tool = meta.get("tool_name")
        calls = []
        if meta.get("type") == REASONING and tool and meta.get("action") == tool:
            calls = [{"name": str(tool), "args": dict(meta.get("tool_input") or {}), "id": message.id,
                      "type": "tool_call"}]
        return lc.AIMessage(content=message.content, id=message.id, tool_calls=calls, additional_kwargs=meta)
    return lc.ToolMessage(content=message.content, id=message.id, tool_call_id=str(meta.get("tool_call_id", "")),
                          name=meta.get("tool"), status="error" if meta.get("error") else "success",
                          additional_kwargs=meta)


def to_langchain_all(messages: Sequence[ChatMessage]) -> List[Any]:
    return [to_langchain(m) for m in messages]


# -- LangChain -> ragix --------------------------------------------------------------


def _ai(message: Any, msg_id: str) -> ChatMessage:
    kwargs = dict(message.additional_kwargs or {})
    if kwargs.get("type") in (REASONING, FINAL_ANSWER):  # written by ragix: its tags came along
        return ChatMessage("ai", _text(message), msg_id, kwargs)
    calls = list(message.tool_calls or ())
    if len(calls) > 1:
        raise MessageConversionError(f"AIMessage {message.id or ''} asks for {len(calls)} tool calls; ragix's "
                                     "orchestrator asks for one per reasoning step")
    meta: Dict[str, Any] = {"type": REASONING, "source": FOREIGN_SOURCE, "action": "think", "tool_name": None,
                            "tool_input": {}}
    if calls:
        call = calls[0]
        meta.update(action=call["name"], tool_name=call["name"], tool_input=dict(call.get("args") or {}))
    return ChatMessage("ai", _text(message), msg_id, meta)


def _tool(message: Any, msg_id: str, call_ids: Mapping[str, str]) -> ChatMessage:
    kwargs = dict(message.additional_kwargs or {})
    if "tool_call_id" in kwargs and "tool" in kwargs:  # written by ragix
        return ChatMessage("tool", _text(message), msg_id, kwargs)
    text = _text(message)
    failed = getattr(message, "status", "success") == "error"
    call_id = call_ids.get(message.tool_call_id, message.tool_call_id)
    return ChatMessage("tool", text, msg_id, {"tool_call_id": call_id, "tool": message.name or "?", "input": {},
                                              "output": "" if failed else text, "error": text if failed else None})


def from_langchain(message: Any, *, fallback_id: str, call_ids: Optional[Mapping[str, str]] = None) -> ChatMessage:
    """The ChatMessage for one LangChain message; ``fallback_id`` when it has no id. ``call_ids`` maps a
    LangChain tool-call id to the id of the ragix message that made the call (see ``from_langchain_all``)."""
    lc = _lc()
    msg_id = str(message.id) if getattr(message, "id", None) else fallback_id
    if isinstance(message, lc.HumanMessage):
        return ChatMessage("human", _text(message), msg_id, dict(message.additional_kwargs or {}))
    if isinstance(message, lc.AIMessage):
        return _ai(message, msg_id)
    if isinstance(message, lc.ToolMessage):
        return _tool(message, msg_id, call_ids or {})
    if isinstance(message, lc.SystemMessage):
        raise MessageConversionError("SystemMessage cannot enter a ragix chat thread: spec 003 keeps no system "
                                     "message in a thread; ragix adds its own prompts at call time")
    raise MessageConversionError(f"{type(message).__name__} has no ragix chat counterpart; a thread holds "
                                 "HumanMessage, AIMessage and ToolMessage only")


def from_langchain_all(messages: Sequence[Any], thread_id: str = "lc") -> List[ChatMessage]:
    """ChatMessages for a LangChain conversation. A ToolMessage's ``tool_call_id`` is rewritten to the id
    of the AIMessage whose tool call it answers (ragix pairs a result with its reasoning step); one that
    answers no earlier call is refused."""
    from .messages import message_id

    out: List[ChatMessage] = []
    call_ids: Dict[str, str] = {}
    for position, message in enumerate(messages):
        converted = from_langchain(message, fallback_id=message_id(thread_id, position), call_ids=call_ids)
        if converted.kind == "ai":
            for call in getattr(message, "tool_calls", None) or ():
                call_ids[str(call.get("id"))] = converted.id
        elif converted.kind == "tool" and converted.meta["tool_call_id"] not in set(call_ids.values()):
            raise MessageConversionError(f"ToolMessage {converted.id} answers tool call "
                                         f"{converted.meta['tool_call_id']!r}, which no earlier AIMessage made")
        out.append(converted)
    return out
