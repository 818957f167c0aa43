"""Per-session trace files: every bus event of a run, one JSON line each.

``TraceWriter`` is an ``EventBus`` subscriber. It writes through the same
crash-safe log as the experience corpus, so a trace survives kill -9 and
concurrent writers. A session is capped at ``max_per_session`` lines: the next
event is replaced by one final marker record and the writer stops, so a
runaway loop cannot fill the disk. A write failure (disk full) is reported once
on stderr and stops the writer; it never propagates into the run.
"""

from __future__ import annotations

import sys
import time
import unicodedata
from pathlib import Path
from typing import Any, Dict, Iterable, List, Optional

from .errors import CorpusWriteError, InvalidSessionId
from .jsonl_log import JsonlLog, LogReader

__all__ = [
    "TraceWriter",
    "trace_writer_from_config",
    "read_trace",
    "find_trace",
    "default_trace_dirs",
    "validate_session_id",
    "TRUNCATED_KIND",
]

TRUNCATED_KIND = "trace_truncated"
TRACE_SUFFIXES = ("jsonl", "ndjson")
_MAX_ID_CHARS = 200


def validate_session_id(session_id: Any) -> str:
    """Return ``session_id`` if it is safe as a file name, else raise ``InvalidSessionId`` saying why."""
    if not isinstance(session_id, str):
        raise InvalidSessionId(f"session id must be a string, got {type(session_id).__name__}")
    if not session_id or session_id.strip() != session_id:
        raise InvalidSessionId(f"session id {session_id!r} is empty or has surrounding spaces")
    if len(session_id) > _MAX_ID_CHARS:
        raise InvalidSessionId(f"session id is {len(session_id)} characters long; the limit is {_MAX_ID_CHARS}")
    for bad in ("/", "\\", "\x00"):
        if bad in session_id:
            raise InvalidSessionId(f"session id {session_id!r} contains {bad!r}, which is not allowed in a file name")
    if session_id in (".", "..") or ".." in session_id or session_id.startswith("."):
        raise InvalidSessionId(f"session id {session_id!r} contains '..' or starts with '.'")
    for ch in session_id:
        if unicodedata.category(ch) in ("Cc", "Cf", "Cs", "Zl", "Zp"):
            raise InvalidSessionId(f"session id {session_id!r} contains the control character U+{ord(ch):04X}")
    return session_id


class TraceWriter:
    """Callable ``EventBus`` subscriber writing ``{trace_dir}/{session_id}.jsonl`` (or ``.ndjson``:
    ``suffix`` only names the file; the format is the same).

    Only events of its own session are written (a bus may carry several runs),
    unless ``all_sessions`` is true.
    """

    def __init__(self, trace_dir: Path, session_id: str, max_per_session: int = 1000,
                 all_sessions: bool = False, suffix: str = "jsonl") -> None:
        self.session_id = validate_session_id(session_id)
        if isinstance(max_per_session, bool) or not isinstance(max_per_session, int) or max_per_session < 1:
            raise ValueError(f"max_per_session must be an integer >= 1, got {max_per_session!r}")
        self.trace_dir = Path(trace_dir).expanduser()
        if suffix not in TRACE_SUFFIXES:
            raise ValueError(f"trace suffix must be one of {', '.join(TRACE_SUFFIXES)}, got {suffix!r}")
        self.path = self.trace_dir / f"{self.session_id}.{suffix}"
        self.max_per_session = max_per_session
        self.all_sessions = all_sessions
        self.error: Optional[CorpusWriteError] = None
        self._log = JsonlLog(self.path)
        # A resumed session continues its file: count what is there (normally at most cap + 1 lines).
        self.count = 0
        self.stopped = False
        for _, record in LogReader(self.path):
            if record.get("kind") == TRUNCATED_KIND:
                self.stopped = True
                break
            self.count += 1
            if self.count > self.max_per_session:
                break  # over the cap already (foreign file): the next event writes the marker

    def __call__(self, event: Any) -> None:
        if self.stopped:
            return
        if not self.all_sessions and getattr(event, "session_id", self.session_id) != self.session_id:
            return
        record = event.to_dict() if hasattr(event, "to_dict") else dict(event)
        if self.count >= self.max_per_session:
            self.stopped = True
            record = {"kind": TRUNCATED_KIND, "session_id": self.session_id, "ts": time.time(),
                      "data": {"max_per_session": self.max_per_session, "first_dropped_kind": record.get("kind")}}
        self.write(record)

    def write(self, record: Dict[str, Any]) -> bool:
        try:
            self._log.append(record)
        except CorpusWriteError as exc:
            self.error = exc
            self.stopped = True
            print(f"ragix: trace writing stopped for session {self.session_id}: {exc}", file=sys.stderr)
            return False
        if record.get("kind") != TRUNCATED_KIND:
            self.count += 1
        return True


def read_trace(path: "Path | str") -> List[Dict[str, Any]]:
    """Every valid record of a trace file, in order (corrupt lines and a partial tail are skipped)."""
    return [record for _, record in LogReader(path)]


def find_trace(session_id: str, search_dirs: Iterable["Path | str"]) -> Optional[Path]:
    """The first ``{dir}/{session_id}.jsonl`` (or ``.ndjson``) that exists among ``search_dirs``, else None."""
    sid = validate_session_id(session_id)
    for directory in search_dirs:
        for suffix in TRACE_SUFFIXES:
            candidate = Path(directory).expanduser() / f"{sid}.{suffix}"
            if candidate.is_file():
                return candidate
    return None


def global_trace_dir() -> Path:
    """Spec 000 §5.1's global trace store: every run's trace is also written there (memory/global_traces.py)
    and ``trace show`` looks there after the project."""
    from ragix_core.core.home import ragix_home

    return ragix_home() / "experience" / "traces"


def default_trace_dirs(project_dir: "Path | str", traces_path: str = ".ragix/reasoning_traces") -> List[Path]:
    """Where traces live (spec 000 §5.1): the project's trace dir, then ``$RAGIX_HOME/experience/traces``."""

    p = Path(traces_path).expanduser()
    return [p if p.is_absolute() else Path(project_dir) / p, global_trace_dir()]



def trace_writer_from_config(section: Any, project_dir: "Path | str", session_id: str) -> Optional[TraceWriter]:
    """A writer per ``reasoning.traces`` (TracesSection): None when traces are disabled.

    ``path`` is relative to the project directory unless absolute; ``max_per_session`` caps the file;
    ``format`` is the file's suffix.
    """
    if not getattr(section, "enabled", True):
        return None
    p = Path(str(getattr(section, "path", ".ragix/reasoning_traces"))).expanduser()
    trace_dir = p if p.is_absolute() else Path(project_dir) / p
    return TraceWriter(trace_dir, session_id, max_per_session=int(getattr(section, "max_per_session", 1000)),
                       suffix=str(getattr(section, "format", "jsonl")))
