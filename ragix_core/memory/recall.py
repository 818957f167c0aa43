"""Past experience as the engine shows it to a model.

The corpus search of spec 000 §5.2 returns whatever matches, which inside a
run includes the run's own events (the failure REFLECT is looking at, echoed
back as "past experience") and the same event twice (it is written to both
the project and the global corpus). ``SessionRecall`` wraps the corpus for one
run: it leaves out the current session, drops global copies of project hits,
and shows each hit's step and outcome so that a model can tell a recovery
that worked from one that did not (spec 001 Phase 4 ranks successes higher).
"""

from __future__ import annotations

from typing import Any, Dict, List

from ragix_core.core.text import one_line

__all__ = ["SessionRecall"]

_FIELD_CHARS = 240


def _short(value: Any) -> str:
    return one_line(value, _FIELD_CHARS)


def _line(i: int, ev: Dict[str, Any]) -> List[str]:
    out = [f"[{i}] {str(ev.get('timestamp', ''))[:19]} — goal={_short(ev.get('goal'))}"]
    if ev.get("step_description"):
        out.append(f"    step: {_short(ev['step_description'])}")
    if ev.get("tool_input"):
        out.append(f"    command: {_short(ev['tool_input'])}")
    if ev.get("outcome_status"):
        out.append(f"    outcome: {ev['outcome_status']}")
    if ev.get("error"):
        out.append(f"    error: {_short(ev['error'])}")
    if ev.get("llm_critique"):
        out.append(f"    lesson: {_short(ev['llm_critique'])}")
    return out


class SessionRecall:
    def __init__(self, corpus: Any, session_id: str, min_score: float = 0.0, *, writes: bool = True):
        """``min_score``: hits containing a smaller share of the query's words are not shown
        (``reasoning.experience.similarity_threshold``; 0 shows every hit). ``writes=False`` (a dry
        run): the run reads past experience but records nothing, having done nothing."""
        self.corpus = corpus
        self.writes = writes
        self.session_id = session_id
        self.min_score = min_score

    def append(self, event: Any) -> Any:
        return self.corpus.append(event) if self.writes else True

    def search(self, query: str, top_k: int = 5) -> str:
        hits = self.corpus.search_events(query, top_k=top_k * 3)
        seen = set()
        by_source: Dict[str, List[Dict[str, Any]]] = {"project": [], "global": []}
        for hit in hits:
            ev = hit.event
            if ev.get("session_id") == self.session_id or hit.coverage < self.min_score:
                continue
            key = (ev.get("timestamp"), ev.get("session_id"), ev.get("event_type"), ev.get("step_num"))
            if key in seen:
                continue
            seen.add(key)
            bucket = by_source.setdefault(hit.source, [])
            if len(bucket) < top_k:
                bucket.append(ev)
        blocks = []
        for source, title in (("project", "Project experience"), ("global", "Global experience")):
            lines: List[str] = []
            for i, ev in enumerate(by_source.get(source, []), 1):
                lines.extend(_line(i, ev))
            if lines:
                blocks.append(f"### {title}\n" + "\n".join(lines))
        return "\n\n".join(blocks)
