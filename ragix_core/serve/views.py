"""What a page shows of a run, computed from its events alone.

The same functions build the live view (from the events so far) and a past run's view (from its
trace file), so a run looks the same while it happens and afterwards. Each engine has its own view
model; ``view_of`` picks it from the events. Templates only lay these models out.
"""

from __future__ import annotations

from typing import Any, Dict, List, Optional

from ragix_core.core.events import Event, EventKind
from ragix_core.core.text import bounded

from .history import engine_of

__all__ = ["view_of", "graph_view", "tree_view", "tutor_view", "research_view", "chat_view", "GRAPH_NODES"]

# The v30 graph's nodes, in the order a run meets them: the page draws them all and lights the active one.
GRAPH_NODES = ("CLASSIFY", "DIRECT_EXEC", "PLAN", "EXECUTE", "REFLECT", "VERIFY", "RESPOND")
DIAGNOSIS = "diagnosis"
_OUTPUT_CHARS = 2000  # a step's output shown on the page; the trace keeps what the engine kept


def _clip(text: Any, limit: int = _OUTPUT_CHARS) -> str:
    s = str(text or "")
    return s if len(s) <= limit else s[:limit] + f"\n… ({len(s) - limit} more characters in the trace)"


def _usage(events: List[Event]) -> Dict[str, int]:
    calls = [e.data for e in events if e.kind == EventKind.LLM_CALL]
    return {"llm_calls": len(calls), "prompt_tokens": sum(int(c.get("prompt_tokens") or 0) for c in calls),
            "completion_tokens": sum(int(c.get("completion_tokens") or 0) for c in calls)}


def _ending(events: List[Event]) -> Dict[str, Any]:
    for event in reversed(events):
        if event.kind == EventKind.RUN_END:
            return event.data
    return {}


def _command(data: Dict[str, Any]) -> Dict[str, Any]:
    return {"command": data.get("command"), "returncode": data.get("returncode"), "refused": bool(data.get("refused")),
            "reason": data.get("reason"), "purpose": data.get("purpose"), "sandbox": data.get("sandbox")}


def _common(events: List[Event], engine: str) -> Dict[str, Any]:
    start = next((e.data for e in events if e.kind == EventKind.RUN_START), {})
    end = _ending(events)
    # A trace written before RUN_END carried the answer has none: the page then shows none.
    return {"engine": engine, "goal": start.get("goal"), "stop_reason": end.get("stop_reason"),
            "answer": end.get("answer"), "caveat": end.get("caveat"), "usage": _usage(events),
            "event_count": len(events)}


def graph_view(events: List[Event]) -> Dict[str, Any]:
    """Nodes with the active one lit, the transitions taken, each plan with its steps (the confined
    command, exit code and output of each) and the commands run outside a plan."""
    visits: Dict[str, int] = {}
    transitions: Dict[tuple, int] = {}
    active: Optional[str] = None
    plans: List[Dict[str, Any]] = []
    loose: List[Dict[str, Any]] = []  # commands of no plan step: the one-command path, diagnosis
    pending: List[Dict[str, Any]] = []  # commands since the last step ended
    reflections: List[str] = []
    for event in events:
        d = event.data
        if event.kind == EventKind.NODE_ENTER:
            active = d.get("node")
            visits[active] = visits.get(active, 0) + 1
        elif event.kind == EventKind.NODE_EXIT:
            transitions[(d.get("node"), d.get("next"))] = transitions.get((d.get("node"), d.get("next")), 0) + 1
            active = None if d.get("next") == "END" else active
        elif event.kind == EventKind.PLAN:
            ev = d.get("event") or {}
            steps = (ev.get("meta") or {}).get("steps", [])
            plans.append({"objective": ev.get("step_description"), "direct": False,
                          "steps": [{"num": s.get("num"), "description": s.get("description"), "status": "pending",
                                     "commands": []} for s in steps]})
            loose.extend(pending)
            pending = []
        elif event.kind == EventKind.TOOL_CALL:
            command = _command(d)
            (loose if d.get("purpose") == DIAGNOSIS else pending).append(command)
        elif event.kind == EventKind.STEP_EXECUTED:
            ev = d.get("event") or {}
            num = ev.get("step_num")
            step = None
            if plans and not plans[-1]["direct"]:
                step = next((s for s in plans[-1]["steps"] if s["num"] == num), None)
            if step is None:  # a step of no plan: the one-command path
                if not plans or not plans[-1]["direct"]:
                    plans.append({"objective": "one command", "direct": True, "steps": []})
                step = {"num": num, "description": ev.get("step_description"), "commands": []}
                plans[-1]["steps"].append(step)
            step.update(status=ev.get("outcome_status") or "done", written=ev.get("tool_input"),
                        returncode=ev.get("returncode"), stdout=_clip(ev.get("stdout")),
                        stderr=_clip(ev.get("stderr"), 600), commands=step["commands"] + pending)
            pending = []
        elif event.kind == EventKind.REFLECTION:
            reflections.append(str((d.get("event") or {}).get("llm_critique") or ""))
    loose.extend(pending)
    if any(e.kind == EventKind.RUN_END for e in events):
        active = None
    nodes = [n for n in GRAPH_NODES] + sorted(n for n in visits if n not in GRAPH_NODES)
    return {**_common(events, "graph"), "nodes": [{"name": n, "visits": visits.get(n, 0), "active": n == active}
                                                  for n in nodes],
            "active": active, "path": [e.data.get("node") for e in events if e.kind == EventKind.NODE_ENTER],
            "transitions": [{"from": a, "to": b, "count": c} for (a, b), c in transitions.items()],
            "plans": plans, "commands": loose, "reflections": reflections}


def tree_view(events: List[Event]) -> Dict[str, Any]:
    """The contractive tree as it grows: each node's latest state, entropy and answer, children nested."""
    nodes: Dict[int, Dict[str, Any]] = {}
    for event in events:
        if event.kind == EventKind.TREE_NODE:
            nodes[int(event.data["node_id"])] = {**event.data, "children": []}
    roots = []
    for node_id in sorted(nodes):
        node = nodes[node_id]
        parent = nodes.get(node["parent"]) if node.get("parent") is not None else None
        (parent["children"] if parent is not None else roots).append(node)
    common = _common(events, "contractive")
    common["goal"] = common["goal"] or (roots[0]["question"] if roots else None)
    return {**common, "roots": roots, "node_count": len(nodes)}


def tutor_view(events: List[Event]) -> Dict[str, Any]:
    """Each move with the commands it ran and the tutor's verdict; the score as it stands."""
    moves: List[Dict[str, Any]] = []
    score = 0
    for event in events:
        d = event.data
        if event.kind == EventKind.MOVE:
            moves.append({"turn": d.get("turn"), "text": d.get("text"), "commands": [], "verdict": None})
        elif event.kind == EventKind.TOOL_CALL and moves:
            moves[-1]["commands"].append(_command(d))
        elif event.kind == EventKind.VERDICT:
            verdict = d.get("verdict") or {}
            score = verdict.get("score", score)
            if moves and moves[-1]["verdict"] is None:
                moves[-1]["verdict"] = verdict
    won = next((e.data.get("won") for e in events if e.kind == EventKind.RUN_END), None)
    return {**_common(events, "tutor"), "moves": moves, "score": score, "won": won}


def research_view(events: List[Event], items: Optional[List[Dict[str, Any]]] = None) -> Dict[str, Any]:
    """Rounds of searches and agent turns (the critic's verdicts among them) and, once the run has
    answered, the report's citations (each opens its chunk)."""
    rounds: Dict[int, Dict[str, Any]] = {}
    for event in events:
        d = event.data
        if event.kind in (EventKind.RESEARCH_SEARCH, EventKind.RESEARCH_AGENT):
            r = rounds.setdefault(int(d.get("iteration") or 0), {"iteration": int(d.get("iteration") or 0),
                                                                 "searches": [], "agents": []})
            if event.kind == EventKind.RESEARCH_SEARCH:
                r["searches"].append({"query": d.get("query"), "hits": d.get("hits"), "added": d.get("added")})
            else:
                r["agents"].append({k: v for k, v in d.items() if k not in ("iteration",)})
    item = (items or [None])[0] or {}
    schema = item.get("schema_object") or {}
    return {**_common(events, "research"), "rounds": [rounds[k] for k in sorted(rounds)],
            "report": item.get("description"), "citations": schema.get("citations") or [], "items": items}


_THOUGHT_CHARS = 2000  # a step's text on the page; the trace keeps it whole


def _thoughts(messages: Any) -> List[Dict[str, str]]:
    """What a chat node said in its step: the orchestrator's thinking and the action it chose, a tool's
    result, the writer's answer. The messages come from a trace file: anything but a list of dicts is
    skipped."""
    out = []
    for m in messages if isinstance(messages, list) else []:
        if not isinstance(m, dict) or not str(m.get("content") or "").strip():
            continue
        meta = m.get("meta") if isinstance(m.get("meta"), dict) else {}
        label = meta.get("action") or meta.get("tool") or meta.get("type") or m.get("kind") or ""
        out.append({"label": str(label), "text": bounded(str(m["content"]), _THOUGHT_CHARS)})
    return out


def chat_view(events: List[Event]) -> Dict[str, Any]:
    """The turn's steps (each node with what it said, the commands and model calls inside it),
    collapsible on the page."""
    steps: List[Dict[str, Any]] = []
    for event in events:
        d = event.data
        if event.kind == EventKind.NODE_ENTER:
            steps.append({"node": d.get("node"), "commands": [], "llm_calls": 0, "next": None, "thinking": []})
        elif event.kind == EventKind.NODE_EXIT and steps:
            steps[-1]["next"] = d.get("next")
            steps[-1]["thinking"] = _thoughts(d.get("messages"))
        elif event.kind == EventKind.TOOL_CALL and steps:
            steps[-1]["commands"].append({**_command(d), "tool": d.get("call_tool") or d.get("tool")})
        elif event.kind == EventKind.LLM_CALL and steps:
            steps[-1]["llm_calls"] += 1
    return {**_common(events, "chat"), "steps": steps}


def view_of(events: List[Event], engine: Optional[str] = None, result: Optional[Dict[str, Any]] = None) -> Dict[str, Any]:
    """The view model of a run: ``engine`` is the registry name when the server started it, else read
    off the events; ``result`` (a run this server finished) adds the answer and research Items."""
    kind = _view_kind(engine) if engine else engine_of(events)
    if kind == "research":
        view = research_view(events, (result or {}).get("research_items"))
    else:
        view = {"graph": graph_view, "contractive": tree_view, "tutor": tutor_view, "chat": chat_view}[kind](events)
    if result:
        view.update(answer=result.get("final_answer") or view.get("answer"),
                    caveat=result.get("caveat") or view.get("caveat"),
                    stop_reason=result.get("stop_reason") or view["stop_reason"])
    return view


def _view_kind(engine: str) -> str:
    return engine if engine in ("contractive", "tutor", "research", "chat") else "graph"
