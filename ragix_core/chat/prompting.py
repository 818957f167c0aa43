"""Model inputs built at call time from the state (spec 003 v2: never stored in it).

Order for llama.cpp's prefix cache: the fixed system text, then the session's
history (the same for every call of a thread), then the question, then this
thread's steps (which only grow). Roles strictly alternate user/assistant after
the system message, which every chat template accepts.
"""

from __future__ import annotations

import json
from typing import Any, Dict, List, Mapping, Sequence, Tuple

from ragix_core import prompts
from ragix_core.core.text import bounded, one_line
from ragix_core.llm.base import Message

from .messages import REASONING, ChatMessage, question, reasoning_count

__all__ = ["history_block", "tools_text", "orchestrator_messages", "writer_messages", "direct_messages",
           "tool_labels", "decision_json", "HISTORY_ANSWER_CHARS", "QUESTION_CHARS"]

HISTORY_ANSWER_CHARS = 800
QUESTION_CHARS = 4000
_INPUT_CHARS = 300  # of a tool input, in a result's header
_WRITER_OUTPUT_CHARS = 2000  # of each tool output given to the writer


def _recent(history: Sequence[Tuple[str, str]], turns: int) -> List[Tuple[str, str]]:
    return list(history)[-turns:] if turns > 0 else []


def history_block(history: Sequence[Tuple[str, str]], turns: int) -> str:
    recent = _recent(history, turns)
    if not recent:
        return ""
    lines = []
    for q, a in recent:
        lines.append(f"User: {one_line(q, QUESTION_CHARS)}")
        lines.append(f"Assistant: {bounded(a.strip(), HISTORY_ANSWER_CHARS, marker=False)}")
    return prompts.render("chat_history", turns="\n".join(lines))


def tools_text(names: Sequence[str]) -> str:
    return "".join(prompts.render(f"chat_tool_{name}") for name in names)


def decision_json(message: ChatMessage) -> str:
    """A reasoning message as the JSON the orchestrator wrote (what it sees of its own earlier steps)."""
    m = message.meta
    return json.dumps({"thinking": message.content, "action": m.get("action"),
                       "tool_name": m.get("tool_name") or "none", "tool_input": m.get("tool_input") or {},
                       "confidence": m.get("confidence", 50), "missing_info": list(m.get("missing_info") or [])},
                      ensure_ascii=False)


def tool_labels(messages: Sequence[ChatMessage]) -> Dict[str, int]:
    """Tool message id -> its citation label (1, 2, ...), in thread order."""
    labels: Dict[str, int] = {}
    for m in messages:
        if m.kind == "tool":
            labels[m.id] = len(labels) + 1
    return labels


def _input_text(tool_input: Mapping[str, Any]) -> str:
    return one_line(json.dumps(dict(tool_input), ensure_ascii=False), _INPUT_CHARS)


def tool_result_text(message: ChatMessage, label: int, output_chars: int) -> str:
    meta = message.meta
    values = {"label": label, "tool": meta.get("tool", "?"), "input": _input_text(meta.get("input") or {}),
              "output": bounded(meta.get("output") or "", output_chars)}
    if meta.get("error"):
        return prompts.render("chat_tool_error", error=one_line(meta["error"], 800), **values).rstrip()
    return prompts.render("chat_tool_result", **values).rstrip()


def orchestrator_messages(messages: Sequence[ChatMessage], history: Sequence[Tuple[str, str]], *,
                          tools: Sequence[str], max_steps: int, history_turns: int) -> List[Message]:
    out: List[Message] = [
        {"role": "system", "content": prompts.render("chat_orchestrator", tools=tools_text(tools))},
        {"role": "user", "content": prompts.render("chat_orchestrator_question",
                                                   history=history_block(history, history_turns),
                                                   question=bounded(question(messages), QUESTION_CHARS))},
    ]
    labels = tool_labels(messages)
    step = 0
    for m in messages:
        if m.kind == "ai" and m.type == REASONING:
            step += 1
            out.append({"role": "assistant", "content": decision_json(m)})
            if not m.meta.get("tool_name"):  # a thought: the next call needs a user turn to answer
                out.append({"role": "user", "content": prompts.render(
                    "chat_next_step", step=step + 1, max_steps=max_steps).strip()})
        elif m.kind == "tool":
            out.append({"role": "user", "content": tool_result_text(m, labels[m.id], 4000)})
    return out


def writer_messages(messages: Sequence[ChatMessage], history: Sequence[Tuple[str, str]], *,
                    history_turns: int) -> List[Message]:
    labels = tool_labels(messages)
    steps = [prompts.render("chat_step_note", num=i, thinking=one_line(m.content, 600)).rstrip()
             for i, m in enumerate((m for m in messages if m.kind == "ai" and m.type == REASONING), 1)
             if m.content.strip()]
    results = [tool_result_text(m, labels[m.id], _WRITER_OUTPUT_CHARS) for m in messages if m.kind == "tool"]
    user = prompts.render("chat_writer_input", history=history_block(history, history_turns),
                          question=bounded(question(messages), QUESTION_CHARS),
                          steps="\n".join(steps) or "(none)", results="\n\n".join(results) or "(none)")
    return [{"role": "system", "content": prompts.render("chat_writer")}, {"role": "user", "content": user}]


def direct_messages(history: Sequence[Tuple[str, str]], text: str, *, history_turns: int) -> List[Message]:
    """The same model answering directly with the history as real chat turns (the benchmark's baseline)."""
    out: List[Message] = [{"role": "system", "content": prompts.render("chat_direct").strip()}]
    for q, a in _recent(history, history_turns):
        out.append({"role": "user", "content": bounded(q, QUESTION_CHARS)})
        out.append({"role": "assistant", "content": bounded(a, HISTORY_ANSWER_CHARS, marker=False)})
    out.append({"role": "user", "content": bounded(text, QUESTION_CHARS)})
    return out


def step_count(messages: Sequence[ChatMessage]) -> int:
    return reasoning_count(messages)
