"""The global trace store of spec 000 §5.1: ``$RAGIX_HOME/experience/traces/{session_id}.jsonl``.

Every run's trace is written to its project (``reasoning.traces.path``) and, when the user's
own config allows it (``memory.global_traces``), to this store too, so that ``ragix trace show``
run from another project finds it. Its switch and its retention are in the ``memory`` section,
which only the user's file sets (config/__init__.py): a project's ragix.yaml cannot turn on or
redirect writes into the user's home. The location is fixed under ``ragix_home()``, where
``default_trace_dirs`` reads, for the same reason.

The writer is the project's ``TraceWriter`` (one ``os.write`` per line under ``flock``, a short
write on a full disk rolled back), so several processes append safely. The store is bounded:
when a writer opens, the oldest session files beyond ``max_sessions`` are removed.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any, List, Optional

from .traces import TRACE_SUFFIXES, TraceWriter, global_trace_dir

__all__ = ["global_trace_dir", "global_trace_writer", "prune_sessions"]


def prune_sessions(directory: Path, keep: int, protect: Optional[str] = None) -> List[Path]:
    """Remove the oldest session files (by mtime) of ``directory`` beyond ``keep``; never ``protect``
    (the session being written). Returns what was removed. Another process pruning at the same
    time, or a file vanishing, is not an error."""
    entries = []
    try:
        with os.scandir(directory) as it:
            for entry in it:
                stem, _, suffix = entry.name.rpartition(".")
                if suffix not in TRACE_SUFFIXES or stem == protect or not entry.is_file(follow_symlinks=False):
                    continue
                try:
                    entries.append((entry.stat(follow_symlinks=False).st_mtime_ns, entry.name))
                except FileNotFoundError:
                    continue
    except FileNotFoundError:
        return []
    budget = keep - (1 if protect is not None else 0)
    entries.sort(reverse=True)  # newest first
    removed = []
    for _, name in entries[max(budget, 0):]:
        path = directory / name
        try:
            path.unlink()
            removed.append(path)
        except FileNotFoundError:
            continue
        except OSError:
            break  # read-only or gone away: the store stays as it is; the run goes on
    return removed


def _same_dir(a: Path, b: Path) -> bool:
    try:
        return a.resolve() == b.resolve()
    except OSError:
        return a.absolute() == b.absolute()


def global_trace_writer(memory: Any, traces: Any, session_id: str,
                        project_trace_dir: Optional[Path]) -> Optional[TraceWriter]:
    """A second writer for the run's trace in the global store, or None: the user's
    ``memory.global_traces.enabled`` is false, traces are off, or the project's trace
    directory already is the global one (written once)."""
    section = getattr(memory, "global_traces", None)
    if section is None or not section.enabled or not getattr(traces, "enabled", True):
        return None
    directory = global_trace_dir()
    if project_trace_dir is not None and _same_dir(project_trace_dir, directory):
        return None
    prune_sessions(directory, section.max_sessions, protect=session_id)
    return TraceWriter(directory, session_id, max_per_session=int(getattr(traces, "max_per_session", 1000)))
