"""What a person watching a run sees: built from the event stream only.

``RunView`` is an ``EventBus`` subscriber that keeps a small model of the run
(current node, plan steps and their status, commands with short outputs,
reflections, token counts) and renders it with Rich. The same model feeds the
plain line-per-event output used when stderr is not a terminal.
"""

from __future__ import annotations

import threading
import time
from typing import Any, Dict, List, Optional

from rich.console import Group
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from ragix_core.core.events import Event, EventKind

__all__ = ["RunView", "event_line"]

STATUS_STYLE = {"pending": "dim", "running": "yellow", "success": "green", "failed": "red", "skipped": "dim"}


def _short(text: Any, limit: int = 160) -> str:
    s = " ".join(str(text or "").split())
    return s if len(s) <= limit else s[: limit - 1] + "…"


def event_line(event: Event) -> Optional[str]:
    """One human line for an event, or None for events not worth a line. A hierarchical worker's events
    (``part`` in their data) are indented under their part."""
    line = _line(event)
    part = event.data.get("part")
    if line is None or part is None or event.kind == EventKind.PART:
        return line
    return f"  part {part} │ {line}"


def _part_line(d: Dict[str, Any]) -> str:
    stage = d.get("stage")
    if stage == "split":
        parts = d.get("parts") or []
        return f"split ({d.get('by')}): {d.get('note')}" + "".join(
            f"\n  {n}. {_short(p, 120)}" for n, p in enumerate(parts, 1) if len(parts) > 1)
    if stage == "start":
        left = d.get("left") or {}
        return (f"part {d.get('part')}: {_short(d.get('question'), 120)}  (left: {left.get('llm_calls')} calls, "
                f"{left.get('tokens')} tokens, {left.get('seconds')} s)")
    if stage == "end":
        used = d.get("used") or {}
        return (f"part {d.get('part')} ended {d.get('stop_reason')} ({used.get('llm_calls')} calls, "
                f"{(used.get('prompt_tokens') or 0) + (used.get('completion_tokens') or 0)} tokens)")
    return f"compose {d.get('parts')} part(s): {d.get('stop_reason')}"


def _line(event: Event) -> Optional[str]:
    d = event.data
    k = event.kind
    if k == EventKind.NODE_ENTER:
        return f"→ {d.get('node')}"
    if k == EventKind.PLAN:
        steps = (d.get("event") or {}).get("meta", {}).get("steps", [])
        return "plan: " + "; ".join(f"{s['num']}. {_short(s['description'], 60)}" for s in steps)
    if k == EventKind.TOOL_CALL:
        flag = "REFUSED " if d.get("refused") else ""
        return f"$ {flag}{_short(d.get('command'), 120)}  (rc={d.get('returncode')})"
    if k == EventKind.REFLECTION:
        return "reflect: " + _short((d.get("event") or {}).get("llm_critique"), 200)
    if k == EventKind.VERIFICATION:
        return "verify: " + str(((d.get("event") or {}).get("meta") or {}).get("verdict"))
    if k == EventKind.LLM_CALL:
        return (f"llm[{d.get('role')}] {d.get('prompt_tokens')}+{d.get('completion_tokens')} tokens "
                f"in {float(d.get('latency') or 0):.1f}s" + ("" if d.get("ok", True) else f" ERROR {d.get('error')}"))
    if k == EventKind.NODE_ERROR:
        return f"error in {d.get('node')}: {_short(d.get('message'), 200)}"
    if k == EventKind.MOVE:  # the proof game (ragix tutor)
        return f"turn {d.get('turn')}: {_short(d.get('text'), 200)}"
    if k == EventKind.VERDICT:
        v = d.get("verdict") or {}
        return (f"  → {str(v.get('status', '')).upper()} ({v.get('kind')}, {v.get('points', 0):+d}, "
                f"score {v.get('score')}): {_short(v.get('reason'), 300)}")
    if k == EventKind.PART:
        return _part_line(d)
    if k in (EventKind.RESEARCH_SEARCH, EventKind.RESEARCH_AGENT):
        from ragix_core.cli.research_cmd import research_line

        return research_line(event)
    return None


class RunView:
    def __init__(self, goal: str):
        self.goal = goal
        self.node = "START"
        self.steps: List[Dict[str, Any]] = []
        self.commands: List[Dict[str, Any]] = []
        self.reflections: List[str] = []
        self.tokens = [0, 0]
        self.llm_calls = 0
        self.started = time.time()
        self._lock = threading.Lock()

    def __call__(self, event: Event) -> None:
        with self._lock:
            d = event.data
            if event.kind == EventKind.NODE_ENTER:
                self.node = d.get("node", "?")
            elif event.kind == EventKind.PLAN:
                meta = (d.get("event") or {}).get("meta") or {}
                self.steps = [{"num": s["num"], "description": s["description"], "status": "pending"}
                              for s in meta.get("steps", [])]
            elif event.kind == EventKind.STEP_EXECUTED:
                ev = d.get("event") or {}
                for s in self.steps:
                    if s["num"] == ev.get("step_num"):
                        outcome = ev.get("outcome_status")
                        s["status"] = outcome if outcome in ("success", "skipped") else "failed"
            elif event.kind == EventKind.TOOL_CALL:
                self.commands.append({"command": d.get("command"), "rc": d.get("returncode"),
                                      "refused": d.get("refused"), "out": d.get("stdout_head") or ""})
            elif event.kind == EventKind.REFLECTION:
                self.reflections.append(_short((d.get("event") or {}).get("llm_critique"), 240))
            elif event.kind == EventKind.LLM_CALL:
                self.llm_calls += 1
                self.tokens[0] += int(d.get("prompt_tokens") or 0)
                self.tokens[1] += int(d.get("completion_tokens") or 0)

    def __rich__(self) -> Panel:
        with self._lock:
            parts: List[Any] = [Text.assemble(("node ", "dim"), (self.node, "bold cyan"),
                                              ("   llm calls ", "dim"), str(self.llm_calls),
                                              ("   tokens ", "dim"), f"{self.tokens[0]}+{self.tokens[1]}",
                                              ("   elapsed ", "dim"), f"{time.time() - self.started:.0f}s")]
            if self.steps:
                t = Table(show_header=False, box=None, padding=(0, 1))
                for s in self.steps:
                    t.add_row(str(s["num"]), Text(s["status"], style=STATUS_STYLE.get(s["status"], "")),
                              _short(s["description"], 90))
                parts.append(t)
            for c in self.commands[-6:]:
                style = "red" if c["refused"] or c["rc"] not in (0, None) else "green"
                parts.append(Text(f"$ {_short(c['command'], 110)}  rc={c['rc']}", style=style))
            for r in self.reflections[-2:]:
                parts.append(Text(f"reflection: {r}", style="magenta"))
            return Panel(Group(*parts), title=_short(self.goal, 80), border_style="blue")
