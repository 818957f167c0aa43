"""What a person sees of a chat turn: thinking steps (dimmed), tool calls, then the answer.

``ChatView`` subscribes to the run's event bus and keeps the turn's steps from
the chat nodes' NODE_EXIT events (each carries the node's new messages). While
the turn runs it renders them live; once the answer is there the steps collapse
into one summary line (``/steps`` or ``--steps`` shows them in full). Off a
terminal the same steps are printed as plain lines (``plain_line``).
"""

from __future__ import annotations

import json
import threading
import time
from typing import Any, Dict, List, Optional

from rich.console import Group
from rich.markdown import Markdown
from rich.panel import Panel
from rich.text import Text

from ragix_core.core.events import Event, EventKind
from ragix_core.core.text import one_line

__all__ = ["ChatView", "plain_line", "steps_renderable", "summary_line", "answer_panel"]


def _input_text(tool_input: Any) -> str:
    if isinstance(tool_input, dict) and set(tool_input) == {"code"}:
        return one_line(tool_input["code"], 160)
    return one_line(json.dumps(tool_input or {}, ensure_ascii=False), 160)


def _entry(message: Dict[str, Any]) -> Optional[Dict[str, Any]]:
    meta = message.get("meta") or {}
    if message.get("kind") == "ai" and meta.get("type") == "reasoning":
        return {"kind": "step", "step": meta.get("step"), "thinking": message.get("content", ""),
                "action": meta.get("action"), "input": meta.get("tool_input"), "error": meta.get("error")}
    if message.get("kind") == "tool":
        return {"kind": "tool", "tool": meta.get("tool"), "output": meta.get("output"), "error": meta.get("error"),
                "duration": meta.get("duration")}
    return None


def plain_line(event: Event) -> Optional[str]:
    """One line per thinking step and tool result (for stderr off a terminal), else None."""
    if event.kind != EventKind.NODE_EXIT or event.data.get("engine") != "chat":
        return None
    lines = []
    for message in event.data.get("messages") or []:
        e = _entry(message)
        if e is None:
            continue
        if e["kind"] == "step":
            action = e["action"] + (f" {_input_text(e['input'])}" if e.get("input") else "")
            lines.append(f"· step {e['step']}: {one_line(e['thinking'], 200)} → {action}")
        else:
            result = f"error: {e['error']}" if e["error"] else one_line(e["output"], 200)
            lines.append(f"  [{e['tool']}] {result}")
    return "\n".join(lines) or None


def steps_renderable(entries: List[Dict[str, Any]]) -> Group:
    parts: List[Any] = []
    for e in entries:
        if e["kind"] == "step":
            text = Text(f"  {e['step']}. ", style="dim")
            text.append(one_line(e["thinking"], 300) or "(no thought)", style="dim italic")
            action = e["action"] or "?"
            if e.get("input"):
                text.append(f"  → {action} {_input_text(e['input'])}", style="cyan")
            elif action == "answer":
                text.append("  → answer", style="dim green")
            if e.get("error"):
                text.append(f"  ({one_line(e['error'], 160)})", style="yellow")
            parts.append(text)
        else:
            style = "red" if e["error"] else "green"
            body = f"error: {e['error']}" if e["error"] else one_line(e["output"], 240)
            parts.append(Text(f"     [{e['tool']}] {body}", style=style))
    return Group(*parts)


def summary_line(entries: List[Dict[str, Any]], seconds: float, tokens: List[int]) -> Text:
    steps = sum(1 for e in entries if e["kind"] == "step")
    tools = sum(1 for e in entries if e["kind"] == "tool")
    return Text(f"▸ thought for {steps} step{'s' if steps != 1 else ''}, {tools} tool call{'s' if tools != 1 else ''}"
                f" · {tokens[0]}+{tokens[1]} tokens · {seconds:.1f}s  (/steps to expand)", style="dim")


def answer_panel(answer: str, stop_reason: str, citations: List[Dict[str, Any]]) -> Panel:
    body: List[Any] = [Markdown(answer or "(no answer)")]
    if citations:
        body.append(Text("sources: " + ", ".join(f"[{c['label']}] {c['tool']}" for c in citations), style="dim"))
    ok = stop_reason == "success"
    title = "answer" if ok else f"answer ({stop_reason})"
    return Panel(Group(*body), title=title, border_style="green" if ok else "yellow")


class ChatView:
    """Live renderable and event subscriber for one turn."""

    def __init__(self) -> None:
        self.entries: List[Dict[str, Any]] = []
        self.tokens = [0, 0]
        self.node = "orchestrator"
        self.started = time.time()
        self._lock = threading.Lock()

    def __call__(self, event: Event) -> None:
        with self._lock:
            if event.kind == EventKind.NODE_ENTER and event.data.get("engine") == "chat":
                self.node = str(event.data.get("node"))
            elif event.kind == EventKind.NODE_EXIT and event.data.get("engine") == "chat":
                for message in event.data.get("messages") or []:
                    e = _entry(message)
                    if e is not None:
                        self.entries.append(e)
            elif event.kind == EventKind.LLM_CALL:
                self.tokens[0] += int(event.data.get("prompt_tokens") or 0)
                self.tokens[1] += int(event.data.get("completion_tokens") or 0)

    def __rich__(self) -> Group:
        with self._lock:
            doing = {"orchestrator": "thinking", "tools": "running a tool", "writer": "writing the answer"}
            status = Text(f"… {doing.get(self.node, self.node)} ({time.time() - self.started:.0f}s)", style="dim")
            return Group(steps_renderable(self.entries), status)

    def summary(self) -> Text:
        with self._lock:
            return summary_line(self.entries, time.time() - self.started, self.tokens)
