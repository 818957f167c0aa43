"""A graph-family run as a Mermaid flowchart, from its events (the tree and the proof game have their
own exports; this is the v30 graph's): the nodes it visited, each transition it took with how often,
and each step with its exit code under the node that ran it."""

from __future__ import annotations

from typing import Any, List

from ragix_core.core.events import Event

from .views import graph_view

__all__ = ["graph_mermaid"]


def _label(text: Any, limit: int = 60) -> str:
    s = " ".join(str(text or "").split())
    s = s if len(s) <= limit else s[: limit - 1] + "…"
    return s.replace('"', "'").replace("[", "(").replace("]", ")")


def graph_mermaid(events: List[Event]) -> str:
    view = graph_view(events)
    lines = ["flowchart TD", f'  goal(["{_label(view["goal"], 80)}"])']
    visited = [n for n in view["nodes"] if n["visits"]]
    for node in visited:
        lines.append(f'  {node["name"]}["{node["name"]} ×{node["visits"]}"]')
    if view["path"]:
        lines.append(f"  goal --> {view['path'][0]}")
    for t in view["transitions"]:
        target = t["to"] if t["to"] != "END" else "END_"
        if t["to"] == "END":
            lines.append(f'  END_(["{_label(view["stop_reason"] or "end")}"])')
        lines.append(f"  {t['from']} -->|{t['count']}| {target}")
    step_no = 0
    for p, plan in enumerate(view["plans"], 1):
        for step in plan["steps"]:
            step_no += 1
            rc = step.get("returncode")
            lines.append(f'  s{step_no}["plan {p} step {step["num"]}: {_label(step.get("written") or step["description"])} '
                         f'(rc={rc})"]')
            owner = "DIRECT_EXEC" if plan["direct"] else "EXECUTE"
            lines.append(f"  {owner} -.- s{step_no}")
    return "\n".join(lines) + "\n"


