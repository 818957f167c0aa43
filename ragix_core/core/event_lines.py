"""One human line per run event: what `ragix run`/`reason`/`tutor`/`research` print when stderr is not a
terminal, what `ragix trace show` prints, and the progress messages an MCP client sees. Built from the event
alone, so every front end says the same thing.
"""

from __future__ import annotations

from typing import Any, Dict, Optional

from ragix_core.core.events import Event, EventKind

__all__ = ["event_line", "research_line", "short"]


def short(text: Any, limit: int = 160) -> str:
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
            f"\n  {n}. {short(p, 120)}" for n, p in enumerate(parts, 1) if len(parts) > 1)
    if stage == "start":
        left = d.get("left") or {}
        return (f"part {d.get('part')}: {short(d.get('question'), 120)}  (left: {left.get('llm_calls')} calls, "
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
        return "plan: " + "; ".join(f"{s['num']}. {short(s['description'], 60)}" for s in steps)
    if k == EventKind.TOOL_CALL:
        flag = "REFUSED " if d.get("refused") else ""
        return f"$ {flag}{short(d.get('command'), 120)}  (rc={d.get('returncode')})"
    if k == EventKind.REFLECTION:
        return "reflect: " + short((d.get("event") or {}).get("llm_critique"), 200)
    if k == EventKind.VERIFICATION:
        return "verify: " + str(((d.get("event") or {}).get("meta") or {}).get("verdict"))
    if k == EventKind.LLM_CALL:
        return (f"llm[{d.get('role')}] {d.get('prompt_tokens')}+{d.get('completion_tokens')} tokens "
                f"in {float(d.get('latency') or 0):.1f}s" + ("" if d.get("ok", True) else f" ERROR {d.get('error')}"))
    if k == EventKind.NODE_ERROR:
        return f"error in {d.get('node')}: {short(d.get('message'), 200)}"
    if k == EventKind.MOVE:  # the proof game (ragix tutor)
        return f"turn {d.get('turn')}: {short(d.get('text'), 200)}"
    if k == EventKind.VERDICT:
        v = d.get("verdict") or {}
        return (f"  → {str(v.get('status', '')).upper()} ({v.get('kind')}, {v.get('points', 0):+d}, "
                f"score {v.get('score')}): {short(v.get('reason'), 300)}")
    if k == EventKind.PART:
        return _part_line(d)
    if k in (EventKind.RESEARCH_SEARCH, EventKind.RESEARCH_AGENT):
        return research_line(event)
    return None


def research_line(event: Event) -> Optional[str]:
    """One human line for a research event (None for others)."""
    d = event.data
    if event.kind == EventKind.RESEARCH_SEARCH:
        what = "search" if not d.get("iteration") else f"gap search (round {d.get('iteration')})"
        line = f"{what}: {d.get('query')!r} -> {d.get('hits')} hits, {d.get('added')} new in context"
        if d.get("mode_reason"):  # the first search says which mode and dates the run chose, and why
            line += f" · mode {d.get('mode')}: {d['mode_reason']} · dates: {d.get('time_reason')}"
        return line
    if event.kind == EventKind.RESEARCH_AGENT:
        extra = ""
        if d.get("queries"):
            extra = " queries: " + "; ".join(map(str, d["queries"]))
        if d.get("failures"):
            extra += f" ({d['failures']} failed check(s))"
        return f"round {d.get('iteration')} {d.get('agent')}: {d.get('status')}{extra}"
    return None
