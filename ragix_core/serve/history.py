"""Past runs, read from the trace files `ragix trace show` reads.

Each root's traces live where its configuration puts them (``reasoning.traces.path``, by default
``.ragix/reasoning_traces``); only a trace directory beneath its root is listed, so a served page
never reads outside the roots. The engine of a past run is read off its events: each engine
publishes something only it does.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Dict, List, Optional

from ragix_core.core.events import Event, EventKind
from ragix_core.memory.errors import InvalidSessionId
from ragix_core.memory.traces import TRACE_SUFFIXES, read_trace, validate_session_id

__all__ = ["PastRun", "trace_dir", "list_past_runs", "find_past_run", "load_events", "engine_of"]


@dataclass
class PastRun:
    id: str
    root: str
    path: Path
    modified: float

    def summary(self) -> Dict[str, Any]:
        return {"id": self.id, "root": self.root, "modified": self.modified, "status": "traced",
                "goal": _first_goal(self.path)}


def _first_goal(path: Path) -> Optional[str]:
    """The goal in the trace's first record (the run's start), read without loading the whole file."""
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            record = json.loads(f.readline() or "{}")
    except (OSError, ValueError):
        return None
    return (record.get("data") or {}).get("goal") if isinstance(record, dict) else None


def trace_dir(root: Path, config: Any = None) -> Optional[Path]:
    """The root's trace directory when it lies beneath the root, else None."""
    from ragix_core.config import ConfigError, load_config

    try:
        section = (config or load_config(cwd=root)).reasoning.traces
    except (ConfigError, OSError):
        section = None
    rel = Path(str(getattr(section, "path", ".ragix/reasoning_traces")))
    if rel.is_absolute() or ".." in rel.parts:
        return None
    directory = root / rel
    if directory.is_symlink() or not directory.is_dir() or root.resolve() not in directory.resolve().parents:
        return None
    return directory


def _trace_files(directory: Path) -> List[Path]:
    out = []
    with os.scandir(directory) as entries:
        for entry in entries:
            stem, _, suffix = entry.name.rpartition(".")
            if suffix in TRACE_SUFFIXES and stem and entry.is_file(follow_symlinks=False):
                out.append(Path(entry.path))
    return out


def list_past_runs(roots: Dict[str, Path], config: Any = None, limit: int = 200) -> List[PastRun]:
    """The newest ``limit`` traced runs of every root, newest first."""
    runs: List[PastRun] = []
    for name, root in roots.items():
        directory = trace_dir(root, config)
        if directory is None:
            continue
        for path in _trace_files(directory):
            runs.append(PastRun(id=path.name.rpartition(".")[0], root=name, path=path,
                                modified=path.stat().st_mtime))
    runs.sort(key=lambda r: r.modified, reverse=True)
    return runs[:limit]


def find_past_run(roots: Dict[str, Path], run_id: str, config: Any = None) -> Optional[PastRun]:
    """The traced run named ``run_id`` (a session id), or None (also for an id that is not a safe name)."""
    try:
        validate_session_id(run_id)
    except InvalidSessionId:
        return None
    for name, root in roots.items():
        directory = trace_dir(root, config)
        if directory is None:
            continue
        for suffix in TRACE_SUFFIXES:
            path = directory / f"{run_id}.{suffix}"
            if path.is_file() and not path.is_symlink():
                return PastRun(id=run_id, root=name, path=path, modified=path.stat().st_mtime)
    return None


def load_events(path: Path) -> List[Event]:
    """The trace's events in order; records that are not events (a truncation marker) are skipped."""
    events = []
    for record in read_trace(path):
        try:
            events.append(Event.from_dict(record))
        except (KeyError, ValueError, TypeError):
            continue
    return events


def engine_of(events: List[Event]) -> str:
    """Which engine produced these events: contractive, tutor, research, chat, or graph (the graph family)."""
    for event in events:
        if event.kind == EventKind.TREE_NODE:
            return "contractive"
        if event.kind in (EventKind.MOVE, EventKind.VERDICT) or event.data.get("engine") == "tutor":
            return "tutor"
        if event.kind in (EventKind.RESEARCH_SEARCH, EventKind.RESEARCH_AGENT):
            return "research"
        if event.data.get("engine") == "chat":
            return "chat"
    return "graph"
