"""The state of one thread and the reducer that merges a node's partial state into it.

    session_id       groups the threads of one conversation
    thread_id        one question and its answer
    messages         this thread's messages (human, ai, tool): the single source of truth
    history          the session's earlier (question, answer) pairs
    ready_to_answer  the orchestrator's decision flag

Nodes return only the fields they change (``messages``: only the new ones). The
reducer is declared on the field with ``Annotated`` — the form LangGraph reads —
and ``merge`` applies the same declarations, so both runners merge alike.
"""

from __future__ import annotations

from typing import Annotated, Any, Callable, Dict, List, Mapping, Sequence, Tuple, TypedDict, get_type_hints

from .lc_messages import from_langchain, is_langchain_message
from .messages import ChatMessage, human

__all__ = ["ChatState", "append_messages", "merge", "new_state", "reducers"]


def append_messages(left: Sequence[ChatMessage], right: Sequence[ChatMessage]) -> List[ChatMessage]:
    """``left`` followed by the messages of ``right`` it does not already hold (same id): a node may
    return only its new messages or, as spec 003's example does, the old list plus them. LangChain
    messages are taken too, converted (``lc_messages``), so a LangGraph caller may pass its own."""
    have = {m.id for m in left}
    out = list(left)
    for m in right or ():
        if is_langchain_message(m):
            m = from_langchain(m, fallback_id=f"lc:{len(out):03d}")
        if not isinstance(m, ChatMessage):
            raise TypeError(f"messages must be ChatMessage or LangChain messages, not {type(m).__name__}")
        if m.id not in have:
            have.add(m.id)
            out.append(m)
    return out


class ChatState(TypedDict, total=False):
    session_id: str
    thread_id: str
    messages: Annotated[List[ChatMessage], append_messages]
    history: List[Tuple[str, str]]
    ready_to_answer: bool


def reducers() -> Dict[str, Callable[[Any, Any], Any]]:
    hints = get_type_hints(ChatState, include_extras=True)
    out = {}
    for name, hint in hints.items():
        for extra in getattr(hint, "__metadata__", ()):
            if callable(extra):
                out[name] = extra
    return out


_REDUCERS = reducers()
_FIELDS = frozenset(get_type_hints(ChatState))


def merge(state: Mapping[str, Any], partial: Mapping[str, Any]) -> ChatState:
    """A new state: ``state`` with ``partial`` merged in (reducer fields reduced, others replaced)."""
    unknown = set(partial) - _FIELDS
    if unknown:
        raise KeyError(f"a node returned unknown state field(s): {', '.join(sorted(unknown))}")
    out: Dict[str, Any] = dict(state)
    for key, value in partial.items():
        reducer = _REDUCERS.get(key)
        out[key] = reducer(out.get(key, []), value) if reducer else value
    return out  # type: ignore[return-value]


def new_state(session_id: str, thread_id: str, question: str,
              history: Sequence[Tuple[str, str]] = ()) -> ChatState:
    return ChatState(session_id=session_id, thread_id=thread_id, messages=[human(thread_id, question)],
                     history=[(str(q), str(a)) for q, a in history], ready_to_answer=False)
