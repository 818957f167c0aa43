"""The nodes and routes of the chat graph: pure ``(state, config) -> partial state`` functions.

    orchestrator ─┬─ think ──────────────► orchestrator
                  ├─ repl/operator/search ► tools ──► orchestrator
                  └─ answer (or budget) ──► writer ──► END

A node reads the state, calls what it must (a model, a tool: the side effects
spec 003 allows) and returns only the fields it changes — ``messages`` holds only
its new messages. What it depends on (model clients, tools, limits) comes from
``config["configurable"]["chat"]`` (a ``ChatDeps``), the place LangGraph passes
run-time configuration too, so these same functions build the LangGraph graph.

A free-text orchestrator with the user's documents gets one step taken for it: the orchestrator node searches
the documents first and, when the passages are about the question, returns that step and its result together
(``_search_documents_first``), so the model's first step already sees them.

Nothing here raises into the run: an orchestrator whose reply stays invalid
after one repair, or a backend failure, becomes a last reasoning step that
routes to the writer with a named stop reason; a writer that cannot reach its
model leaves an answer built from the tool results.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Dict, List, Mapping, Optional, Sequence

from ragix_core import prompts
from ragix_core.core.stop import StopRun
from ragix_core.core.text import bounded, one_line
from ragix_core.llm.codeblock import CLOSING_FENCE
from ragix_core.llm.structured import ask_json, ask_text

from .decision import THINKING_CHARS, Decision, decision_schema, normalised
from .arithmetic import wrong_arithmetic
from .free_form import free_decision
from .passages import about_the_question
from .messages import (ChatMessage, final_answer, message_id, question, reasoning, reasoning_count,
                       reasoning_steps, tool_message, tool_messages, tool_request)
from .prompting import orchestrator_messages, tool_labels, writer_messages
from .state import ChatState

__all__ = ["ChatDeps", "deps_of", "orchestrate", "run_tools", "write", "route_after_orchestrator",
           "route_after_tools", "thread_stop_reason", "citations", "without_dangling_labels", "fallback_answer",
           "DEPS_KEY", "ORCHESTRATOR_NODE", "TOOLS_NODE", "WRITER_NODE", "END_NODE"]

DEPS_KEY = "chat"
# The run configuration: LangGraph's RunnableConfig shape ({"configurable": {...}, ...}). Named so because
# LangGraph passes ``config`` only to a parameter annotated "RunnableConfig" (these annotations are strings).
RunnableConfig = Mapping[str, Any]
ORCHESTRATOR_NODE, TOOLS_NODE, WRITER_NODE, END_NODE = "orchestrator", "tools", "writer", "__end__"
ANSWER_CHARS = 8000


@dataclass
class ChatDeps:
    orchestrator: Any  # LLMClient (the planner role)
    writer: Any  # LLMClient (the worker role)
    tools: Any  # ChatTools
    max_reasoning_steps: int = 30
    history_turns: int = 6
    decision_max_tokens: int = 384
    writer_max_tokens: int = 400
    decisions: str = "json"  # "json": spec 003's decision object; "free": free text read by chat/free_form.py
    free_max_tokens: int = 600  # a free step holds a whole program, or the answer itself


def deps_of(config: Optional[Mapping[str, Any]]) -> ChatDeps:
    deps = ((config or {}).get("configurable") or {}).get(DEPS_KEY)
    if not isinstance(deps, ChatDeps):
        raise KeyError(f"chat nodes need config['configurable'][{DEPS_KEY!r}] to be a ChatDeps")
    return deps


def _last_reasoning(messages: Sequence[ChatMessage]) -> Optional[ChatMessage]:
    steps = reasoning_steps(messages)
    return steps[-1] if steps else None


FRUITLESS_CALLS = 3  # a tool that found nothing this many times in a row is not called again in the thread


def _found_nothing(message: ChatMessage) -> bool:
    """A tool result that gave the thread nothing: an error, or a search without a hit. (A repl cell that
    prints nothing may still have set what the next cell uses.)"""
    return bool(message.meta.get("error")) or message.meta.get("sources") == []


def _fruitless(messages: Sequence[ChatMessage], tool: Optional[str]) -> bool:
    """The thread's last FRUITLESS_CALLS tool results are all ``tool``'s, and none found anything."""
    recent = [m for m in messages if m.kind == "tool"][-FRUITLESS_CALLS:]
    return bool(tool) and len(recent) == FRUITLESS_CALLS and all(
        m.meta.get("tool") == tool and _found_nothing(m) for m in recent)


def _repeats(messages: Sequence[ChatMessage], meta: Mapping[str, Any], thinking: str) -> Optional[str]:
    """Why this decision repeats an earlier one of the thread (then it is not run again), or None.
    Measured: after "no results", the 1.5B orchestrator searched 23 times with new words each time."""
    if meta["action"] not in ("think", "answer") and _fruitless(messages, meta["tool_name"]):
        return f"fruitless:{meta['tool_name']}"
    for m in reasoning_steps(messages):
        if meta["tool_name"] and m.meta.get("tool_name") == meta["tool_name"] \
                and m.meta.get("tool_input") == meta["tool_input"]:
            return f"repeated_call:{m.id}"
        if meta["action"] == "think" and m.meta.get("action") == "think" and m.content.strip() == thinking.strip():
            return f"repeated_thought:{m.id}"
    return None


# -- nodes -----------------------------------------------------------------------


def orchestrate(state: ChatState, config: RunnableConfig) -> Dict[str, Any]:
    """One decision: a thought, a tool call, or "ready to answer"."""
    deps = deps_of(config)
    messages = state["messages"]
    step = reasoning_count(messages) + 1
    msg_id = message_id(state["thread_id"], len(messages))
    if deps.decisions == "free" and step == 1 and deps.tools.searches_documents:
        found = _search_documents_first(deps, state, msg_id)
        if found is not None:
            return found
    prompt = orchestrator_messages(messages, state.get("history") or [], tools=deps.tools.names,
                                   max_steps=deps.max_reasoning_steps, history_turns=deps.history_turns,
                                   decisions=deps.decisions)
    try:
        if deps.decisions == "free":
            completion = ask_text(deps.orchestrator, prompt, max_tokens=deps.free_max_tokens, stop=[CLOSING_FENCE])
            thinking, meta = free_decision(completion.text, deps.tools.names)
            _check_arithmetic(meta, messages)
            return _decided(messages, msg_id, step, thinking, meta, completion)
        decision, completion = ask_json(deps.orchestrator, prompt, Decision, stop_reason="chat_decision_failed",
                                        schema=decision_schema(deps.tools.names),
                                        max_tokens=deps.decision_max_tokens)
    except StopRun as stop:
        failed = reasoning(msg_id, "", action="answer", tool_name=None, tool_input={}, confidence=0,
                           missing_info=[], step=step, stop_reason=stop.reason, error=one_line(stop.message, 500))
        return {"messages": [failed], "ready_to_answer": True}
    return _decided(messages, msg_id, step, bounded(decision.thinking.strip(), THINKING_CHARS),
                    normalised(decision), completion)


def _search_documents_first(deps: ChatDeps, state: ChatState, msg_id: str) -> Optional[Dict[str, Any]]:
    """A free-text orchestrator's first step, taken by ragix: a search of the user's documents for the
    question (with the previous question, which a follow-up's "that service" refers to). Measured on our
    conversations at 897221a: written as free text, the model never chose to search the documents a question
    was about (0 of 3); it wrote a program printing an invented port instead. The passages become result [1]
    when they are about the question (chat/passages.py); else nothing is shown and the model's step is as it
    was. Only the documents are searched: no question leaves the machine unasked."""
    messages = state["messages"]
    asked = question(messages)
    earlier = [q for q, _ in list(state.get("history") or [])[-1:]]
    query = bounded(" ".join(one_line(q, 300) for q in earlier + [asked]), 600, marker=False)
    tool_input = {"query": query, "sources": "docs"}
    outcome = deps.tools.run("search", tool_input, messages)
    if outcome.error or not about_the_question(asked, outcome.output):
        return None
    meta = {"action": "search", "tool_name": "search", "tool_input": tool_input, "confidence": 50,
            "missing_info": [], "format": "free", "by": "ragix", "step": 1, "reply": ""}
    step = reasoning(msg_id, "", **meta)
    result = _result(message_id(state["thread_id"], len(messages) + 1), msg_id, "search", tool_input, outcome,
                     by="ragix")
    return {"messages": [step, result], "ready_to_answer": False}


def _check_arithmetic(meta: Dict[str, Any], messages: Sequence[ChatMessage]) -> None:
    """A free answer whose written-out arithmetic is wrong is not the answer yet: the step becomes a
    thought, and the model is told the computed values (once a thread: a second answer stands)."""
    wrong = wrong_arithmetic(meta.get("draft") or "")
    if not wrong or any(m.meta.get("feedback") for m in reasoning_steps(messages)):
        return
    said = "; ".join(f"`{claim.rsplit('=', 1)[0].strip()}` is {value}, not {claim.rsplit('=', 1)[1].strip()}"
                     for claim, value in wrong)
    meta.update(action="think", feedback=prompts.section("chat_free", "arithmetic", wrong=said),
                wrong_arithmetic=[c for c, _ in wrong])
    meta.pop("draft")


def _decided(messages: Sequence[ChatMessage], msg_id: str, step: int, thinking: str, meta: Dict[str, Any],
             completion: Any) -> Dict[str, Any]:
    """The reasoning message of one decision (JSON or free), unless it repeats an earlier one."""
    meta["step"] = step
    meta["tokens"] = {"prompt": completion.usage.prompt_tokens, "completion": completion.usage.completion_tokens}
    repeated = _repeats(messages, meta, thinking)
    if repeated:
        # A small model that asks again for what it already has is done: the writer uses the earlier result.
        meta["forced_answer"] = repeated
    ready = meta["action"] == "answer" or repeated is not None
    return {"messages": [reasoning(msg_id, thinking, **meta)], "ready_to_answer": ready}


def run_tools(state: ChatState, config: RunnableConfig) -> Dict[str, Any]:
    """Run the tool the last reasoning step asked for; its result (or failure) is a tool message."""
    deps = deps_of(config)
    messages = state["messages"]
    last = messages[-1] if messages else None
    request = tool_request(last)
    if request is None or last is None:
        return {}
    outcome = deps.tools.run(request["tool"], request["input"], messages)
    return {"messages": [_result(message_id(state["thread_id"], len(messages)), last.id, request["tool"],
                                 request["input"], outcome)]}


def _result(msg_id: str, call_id: str, tool: str, tool_input: Mapping[str, Any], outcome: Any,
            **extra: Any) -> ChatMessage:
    """The tool message of one call's outcome (a ``ToolOutcome``)."""
    return tool_message(msg_id, tool_call_id=call_id, tool=tool, tool_input=tool_input, output=outcome.output,
                        error=outcome.error, duration=round(outcome.duration, 3), **outcome.meta, **extra)


def write(state: ChatState, config: RunnableConfig) -> Dict[str, Any]:
    """The final answer, composed from the thread's reasoning and tool results, with its citations."""
    deps = deps_of(config)
    messages = state["messages"]
    msg_id = message_id(state["thread_id"], len(messages))
    stop = thread_stop_reason(messages, deps.max_reasoning_steps)
    extra: Dict[str, Any] = {}
    last = _last_reasoning(messages)
    draft = (last.meta.get("draft") or "").strip() if last is not None and not last.meta.get("forced_answer") else ""
    if draft:  # a free-text step that answered: its reply is the answer, no second call writes it again
        text = without_dangling_labels(bounded(draft, ANSWER_CHARS), messages)
        return {"messages": [final_answer(msg_id, text, stop_reason=stop, citations=citations(text, messages),
                                          written_by="orchestrator")]}
    try:
        completion = ask_text(deps.writer, writer_messages(messages, state.get("history") or [],
                                                          tools=deps.tools.names, max_steps=deps.max_reasoning_steps,
                                                          history_turns=deps.history_turns,
                                                          decisions=deps.decisions),
                              max_tokens=deps.writer_max_tokens)
        text = without_dangling_labels(bounded(completion.text.strip(), ANSWER_CHARS), messages)
        extra["tokens"] = {"prompt": completion.usage.prompt_tokens,
                           "completion": completion.usage.completion_tokens}
        if not text:
            text, extra["writer_error"] = fallback_answer(messages, "empty reply"), "the writer's reply was empty"
    except StopRun as failure:
        text = fallback_answer(messages, failure.reason)
        extra["writer_error"] = one_line(failure.message, 500)
        if stop == "success":
            stop = failure.reason
    return {"messages": [final_answer(msg_id, text, stop_reason=stop, citations=citations(text, messages), **extra)]}


# -- routes ----------------------------------------------------------------------


def route_after_orchestrator(state: ChatState, config: RunnableConfig) -> str:
    deps = deps_of(config)
    messages = state["messages"]
    if state.get("ready_to_answer"):
        return WRITER_NODE
    if tool_request(messages[-1] if messages else None) is not None:
        return TOOLS_NODE
    if reasoning_count(messages) >= deps.max_reasoning_steps:
        return WRITER_NODE
    return ORCHESTRATOR_NODE


def route_after_tools(state: ChatState, config: RunnableConfig) -> str:
    if reasoning_count(state["messages"]) >= deps_of(config).max_reasoning_steps:
        return WRITER_NODE
    return ORCHESTRATOR_NODE


# -- derived facts ---------------------------------------------------------------


def thread_stop_reason(messages: Sequence[ChatMessage], max_steps: int) -> str:
    """Why the thread went to the writer, read from its messages."""
    last = _last_reasoning(messages)
    if last is None:
        return "no_reasoning"
    if last.meta.get("stop_reason"):
        return str(last.meta["stop_reason"])
    if last.meta.get("action") == "answer" or last.meta.get("forced_answer"):
        return "success"
    if reasoning_count(messages) >= max_steps:
        return "max_reasoning_steps"
    return "success"


def fallback_answer(messages: Sequence[ChatMessage], reason: str) -> str:
    """An answer without the writer model: what the tools found, so nothing already computed is lost."""
    labels = tool_labels(messages)
    found = [f"[{labels[m.id]}] {m.meta.get('tool')}: {one_line(m.meta.get('output') or m.meta.get('error'), 300)}"
             for m in tool_messages(messages)]
    head = f"No answer could be written ({reason})."
    return head + (" Tool results:\n" + "\n".join(found) if found else "")


_LABEL = re.compile(r"\[(\d{1,3})\]")
# A citation mark as the writer is asked to write one: after a space, standing alone ("is [1] 1.5", "units [2].").
_CITATION_MARK = re.compile(r"[ \t]\[(\d{1,3})\](?![\w\[(])")
# ... or opening a line ("[1] 5": the free-text orchestrator's answers on MT-Bench at cc471ce), its space with it
_LEADING_MARK = re.compile(r"^\[(\d{1,3})\][ \t]+(?=\S)", re.MULTILINE)
_CODE = re.compile(r"(```.*?(?:```|\Z)|`[^`\n]*`)", re.DOTALL)
_NUMBER = re.compile(r"(?<![\w.])-?\d[\d,]*(?:\.\d+)?")


def _numbers(text: str) -> List[str]:
    out = []
    for n in _NUMBER.findall(text or ""):
        n = n.replace(",", "").rstrip(".")
        if len(n.lstrip("-").replace(".", "").lstrip("0")) >= 2:  # "3" or "0.5" would match too much
            out.append(n)
    return out


def _quotes(answer_number: str, output_numbers: Sequence[str]) -> bool:
    """The answer's number is one of the output's, as written or rounded ("42.16" of "42.1648128")."""
    decimals = len(answer_number.partition(".")[2])
    try:
        value = float(answer_number)
        return any(round(float(n), decimals) == value for n in output_numbers)
    except ValueError:
        return False


def without_dangling_labels(answer: str, messages: Sequence[ChatMessage]) -> str:
    """The answer without the citation marks that name no tool result that worked. Measured on MT-Bench's
    math (issue 34): "The area of the triangle ... is [1] 1.5 square units." after no tool call at all;
    a mark that points nowhere tells the reader a source backs the sentence when none does. Only a mark
    that stands as one (after a space, outside code) is a citation: `arr[0]`, `A[1][2]` and code blocks
    are left as written. An answer that would be left empty is kept whole."""
    labels = tool_labels(messages)
    working = {labels[m.id] for m in tool_messages(messages) if not m.meta.get("error")}
    parts = _CODE.split(answer or "")
    for i in range(0, len(parts), 2):  # even parts are prose, odd ones code
        for mark in (_CITATION_MARK, _LEADING_MARK):
            parts[i] = mark.sub(lambda m: m.group(0) if int(m.group(1)) in working else "", parts[i])
    text = "".join(parts)
    return text if text.strip() else answer


def citations(answer: str, messages: Sequence[ChatMessage]) -> List[Dict[str, Any]]:
    """The tool results the answer uses: those it cites by label, and those whose numbers it quotes."""
    labels = tool_labels(messages)
    by_label = {labels[m.id]: m for m in tool_messages(messages)}
    out: List[Dict[str, Any]] = []
    cited = set()

    def add(label: int, by: str) -> None:
        m = by_label[label]
        cited.add(label)
        out.append({"label": label, "tool": m.meta.get("tool"), "tool_message_id": m.id, "by": by})

    for label in (int(x) for x in _LABEL.findall(answer or "")):
        if label in by_label and label not in cited:
            add(label, "writer")
    answer_numbers = _numbers(answer)
    for label, m in sorted(by_label.items()):
        if label in cited or m.meta.get("error"):
            continue
        output_numbers = _numbers(m.meta.get("output") or "")
        if any(_quotes(a, output_numbers) for a in answer_numbers):
            add(label, "quoted")
    return out
