"""Model inputs built at call time from the state (spec 003 v2: never stored in it).

One transcript serves both models: the fixed system text, then the session's
history and the question, then this thread's steps (each decision as the JSON
the orchestrator wrote, each tool result as a user turn labelled [n]). The
orchestrator's call ends with "next step" after a thought; the writer's call is
the same transcript plus its instruction. So on llama.cpp the writer (and every
later step) reuses the cached prefix and processes only the new tail — on 2
shared cores a cold 500-token prefix costs tens of seconds to minutes.

Roles strictly alternate user/assistant after the system message (consecutive
user parts are joined), which every chat template accepts.

A thread's transcript is bounded (``TRANSCRIPT_CHARS``): past it, its oldest steps are
left out, and the question says how many. Measured: after 23 searches the writer's
prompt exceeded the embedded model's 4,096-token window and the thread ended
without an answer.
"""

from __future__ import annotations

import json
from typing import Any, List, Mapping, Sequence, Tuple

from ragix_core import prompts
from ragix_core.core.text import bounded, one_line
from ragix_core.llm.base import Message

from .messages import REASONING, ChatMessage, question

__all__ = ["history_block", "tools_text", "free_system", "transcript", "orchestrator_messages", "writer_messages",
           "direct_messages", "tool_labels", "decision_json", "HISTORY_ANSWER_CHARS", "QUESTION_CHARS",
           "TOOL_OUTPUT_CHARS", "TRANSCRIPT_CHARS"]

HISTORY_ANSWER_CHARS = 800
QUESTION_CHARS = 4000
TOOL_OUTPUT_CHARS = 4000  # of each tool output in the transcript
TRANSCRIPT_CHARS = 9000  # ~2,600 tokens: with the reply, inside a 4,096-token window
_INPUT_CHARS = 300  # of a tool input, in a result's header


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


def tool_labels(messages: Sequence[ChatMessage]) -> dict:
    """Tool message id -> its citation label (1, 2, ...), in thread order."""
    labels = {}
    for m in messages:
        if m.kind == "tool":
            labels[m.id] = len(labels) + 1
    return labels


def _input_text(tool_input: Mapping[str, Any]) -> str:
    return one_line(json.dumps(dict(tool_input), ensure_ascii=False), _INPUT_CHARS)


def tool_result_text(message: ChatMessage, label: int) -> str:
    meta = message.meta
    values = {"label": label, "tool": meta.get("tool", "?"), "input": _input_text(meta.get("input") or {}),
              "output": bounded(meta.get("output") or "", TOOL_OUTPUT_CHARS)}
    if meta.get("error"):
        return prompts.render("chat_tool_error", error=one_line(meta["error"], 800), **values).rstrip()
    return prompts.render("chat_tool_result", **values).rstrip()


def _add(out: List[Message], role: str, content: str) -> None:
    if out and out[-1]["role"] == role == "user":
        out[-1] = {"role": "user", "content": out[-1]["content"] + "\n\n" + content}
    else:
        out.append({"role": role, "content": content})


def _next_step(step: int, max_steps: int) -> str:
    return prompts.render("chat_next_step", step=step, max_steps=max_steps).strip()


def free_system(tools: Sequence[str]) -> str:
    """The system text of an orchestrator that writes free text (chat/free_form.py)."""
    line = {name: prompts.section("chat_free", name) + "\n" if tool in tools else ""
            for name, tool in (("python", "repl"), ("search", "search"))}
    return prompts.section("chat_free", "system", **line)


def transcript(messages: Sequence[ChatMessage], history: Sequence[Tuple[str, str]], *,
               tools: Sequence[str], max_steps: int, history_turns: int, decisions: str = "json") -> List[Message]:
    """System text, history and question, then every step and tool result of the thread (a step that
    follows a thought gets the "next step" turn the orchestrator was given). A free-text orchestrator
    (``decisions="free"``) sees its own replies as it wrote them, and after each tool result what to do next."""
    free = decisions == "free"
    out: List[Message] = [
        {"role": "system", "content": free_system(tools) if free else
         prompts.render("chat_orchestrator", tools=tools_text(tools))},
        {"role": "user", "content": prompts.render("chat_orchestrator_question",
                                                   history=history_block(history, history_turns),
                                                   question=bounded(question(messages), QUESTION_CHARS)).rstrip()},
    ]
    labels = tool_labels(messages)
    step = 0
    for m in messages:
        if m.kind == "ai" and m.type == REASONING and not m.meta.get("error"):
            step += 1
            if m.meta.get("by") == "ragix":  # ragix's own step (a search of the documents): not the model's words
                continue
            if out[-1]["role"] == "assistant":
                _add(out, "user", _next_step(step, max_steps))
            _add(out, "assistant", m.meta["reply"] if m.meta.get("format") == "free" else decision_json(m))
            if m.meta.get("feedback"):  # ragix's check of that reply (chat/arithmetic.py)
                _add(out, "user", m.meta["feedback"])
        elif m.kind == "tool":
            _add(out, "user", tool_result_text(m, labels[m.id]))
            if free:
                _add(out, "user", prompts.section("chat_free", "searched" if m.meta.get("by") == "ragix" else "next"))
    return _fit(out, TRANSCRIPT_CHARS)


def _fit(out: List[Message], budget: int) -> List[Message]:
    """Leave out the oldest steps (an assistant turn and the user turn after it) until the transcript
    fits ``budget`` characters; the system text, the question and the latest step always stay."""
    omitted = 0
    while sum(len(m["content"]) for m in out) > budget and len(out) > 4:
        del out[2]  # the oldest decision...
        omitted += 1
        if out[2]["role"] == "user":  # ...and its tool result or "next step" turn
            del out[2]
    if omitted:
        note = prompts.render("chat_steps_omitted", count=omitted).strip()
        out[1] = {"role": "user", "content": out[1]["content"] + "\n\n" + note}
    return out


def orchestrator_messages(messages: Sequence[ChatMessage], history: Sequence[Tuple[str, str]], *,
                          tools: Sequence[str], max_steps: int, history_turns: int,
                          decisions: str = "json") -> List[Message]:
    out = transcript(messages, history, tools=tools, max_steps=max_steps, history_turns=history_turns,
                     decisions=decisions)
    if out[-1]["role"] == "assistant":  # after a thought, the next step needs a user turn to answer
        steps = sum(1 for m in messages if m.kind == "ai" and m.type == REASONING)
        _add(out, "user", _next_step(steps + 1, max_steps))
    return out


def writer_messages(messages: Sequence[ChatMessage], history: Sequence[Tuple[str, str]], *,
                    tools: Sequence[str], max_steps: int, history_turns: int,
                    decisions: str = "json") -> List[Message]:
    """The orchestrator's transcript (its cached prefix) plus the writer's instruction."""
    out = transcript(messages, history, tools=tools, max_steps=max_steps, history_turns=history_turns,
                     decisions=decisions)
    _add(out, "user", prompts.render("chat_writer").strip())
    return out


def direct_messages(history: Sequence[Tuple[str, str]], text: str, *, history_turns: int) -> List[Message]:
    """The same model answering directly with the history as real chat turns (the benchmark's baseline)."""
    out: List[Message] = [{"role": "system", "content": prompts.render("chat_direct").strip()}]
    for q, a in _recent(history, history_turns):
        out.append({"role": "user", "content": bounded(q, QUESTION_CHARS)})
        out.append({"role": "assistant", "content": bounded(a, HISTORY_ANSWER_CHARS, marker=False)})
    out.append({"role": "user", "content": bounded(text, QUESTION_CHARS)})
    return out
