"""One lookup for a run by id, whether this server is running it, ran it, or only its trace is left.

The API and the page both ask here, so a run reads the same through either.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Dict, List, Optional

from ragix_core.core.events import Event

from .history import PastRun, engine_of, find_past_run, list_past_runs, load_events
from .runs import RunManager, ServedRun

__all__ = ["RunRecord", "Catalog"]


@dataclass
class RunRecord:
    id: str
    root: str
    engine: str
    events: List[Event]
    served: Optional[ServedRun] = None
    past: Optional[PastRun] = None

    @property
    def result(self) -> Optional[Dict[str, Any]]:
        return self.served.result if self.served else None

    def summary(self) -> Dict[str, Any]:
        if self.served is not None:
            return {**self.served.summary(), "event_count": len(self.events)}
        start = next((e.data for e in self.events if e.kind.value == "run_start"), {})
        end = next((e.data for e in reversed(self.events) if e.kind.value == "run_end"), {})
        return {**self.past.summary(), "engine": self.engine, "goal": start.get("goal"),
                "stop_reason": end.get("stop_reason"), "answer": end.get("answer"), "event_count": len(self.events)}


class Catalog:
    def __init__(self, manager: RunManager) -> None:
        self.manager = manager
        self.settings = manager.settings

    def find(self, run_id: str) -> Optional[RunRecord]:
        served = self.manager.get(run_id)
        if served is not None:
            return RunRecord(run_id, served.request.root, served.request.engine, list(served.stream.events),
                             served=served)
        past = find_past_run(self.settings.roots, run_id, self.settings.config)
        if past is None:
            return None
        events = load_events(past.path)
        return RunRecord(run_id, past.root, engine_of(events), events, past=past)

    def listing(self) -> List[Dict[str, Any]]:
        """This server's runs (newest first), then the traced runs it did not start."""
        served = [r.summary() for r in self.manager.list()]
        known = {r["id"] for r in served}
        past = [p.summary() for p in list_past_runs(self.settings.roots, self.settings.config) if p.id not in known]
        return served + past
