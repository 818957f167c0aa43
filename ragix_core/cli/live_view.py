"""What a person watching a run sees: built from the event stream only.

``RunView`` is an ``EventBus`` subscriber that keeps a small model of the run
(current node, plan steps and their status, commands with short outputs,
reflections, token counts) and renders it with Rich. The same model feeds the
plain line-per-event output used when stderr is not a terminal.
"""

from __future__ import annotations

import threading
import time
from typing import Any, Dict, List

from rich.console import Group
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from ragix_core.core.event_lines import short
from ragix_core.core.events import Event, EventKind

__all__ = ["RunView"]

STATUS_STYLE = {"pending": "dim", "running": "yellow", "success": "green", "failed": "red", "skipped": "dim"}


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
                self.reflections.append(short((d.get("event") or {}).get("llm_critique"), 240))
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
                              short(s["description"], 90))
                parts.append(t)
            for c in self.commands[-6:]:
                style = "red" if c["refused"] or c["rc"] not in (0, None) else "green"
                parts.append(Text(f"$ {short(c['command'], 110)}  rc={c['rc']}", style=style))
            for r in self.reflections[-2:]:
                parts.append(Text(f"reflection: {r}", style="magenta"))
            return Panel(Group(*parts), title=short(self.goal, 80), border_style="blue")
