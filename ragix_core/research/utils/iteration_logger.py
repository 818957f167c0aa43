"""Per-query logs of every agent turn (spec 004 §3.3), for debugging and audit.

    <index folder>/research/<query_id>/iteration_0_search.json     the first search
                                        iteration_1_analyst.json
                                        iteration_1_search.json    a gap search it asked for
                                        iteration_1_critic.json
                                        iteration_2_analyst.json ...
                                        session_summary.json

Each file is written whole (temporary file, then rename), so a reader never sees half a
file. A write failure (read-only place, disk full) is reported once on stderr and stops
the logger; it never stops a run. ``ragix trace show <folder>`` renders a query's logs.
"""

from __future__ import annotations

import json
import os
import re
import sys
import time
from pathlib import Path
from typing import Any, Dict, List, Optional

__all__ = ["IterationLogger", "read_iteration_logs", "SUMMARY_FILE"]

SUMMARY_FILE = "session_summary.json"
_SAFE = re.compile(r"[^A-Za-z0-9._-]")
_ITER = re.compile(r"iteration_(\d+)_([A-Za-z0-9_-]+)\.json\Z")


class IterationLogger:
    def __init__(self, query_id: str, base_dir: "os.PathLike[str] | str") -> None:
        safe = _SAFE.sub("_", str(query_id))[:120].lstrip(".") or "query"
        self.query_id = safe
        self.dir = Path(base_dir) / safe
        self.stopped = False
        self.files: List[Path] = []

    def _write(self, name: str, record: Dict[str, Any]) -> Optional[Path]:
        if self.stopped:
            return None
        path = self.dir / name
        try:
            self.dir.mkdir(parents=True, exist_ok=True)
            tmp = path.with_suffix(f".tmp{os.getpid()}")
            tmp.write_text(json.dumps(record, ensure_ascii=False, indent=2, default=str), encoding="utf-8")
            os.replace(tmp, path)
        except OSError as exc:
            self.stopped = True
            print(f"ragix: research logs stopped for {self.query_id}: {exc}", file=sys.stderr)
            return None
        self.files.append(path)
        return path

    def log_agent_output(self, iteration: int, agent_name: str, input_prompt: Any, output_response: Any,
                         metadata: Optional[Dict[str, Any]] = None) -> Optional[Path]:
        agent = _SAFE.sub("_", agent_name)
        return self._write(f"iteration_{int(iteration)}_{agent}.json",
                           {"query_id": self.query_id, "iteration": int(iteration), "agent": agent_name,
                            "timestamp": time.time(), "input_prompt": input_prompt,
                            "output_response": output_response, "metadata": metadata or {}})

    def log_summary(self, total_iterations: int, final_status: str, mode: str,
                    metadata: Optional[Dict[str, Any]] = None) -> Optional[Path]:
        return self._write(SUMMARY_FILE, {"query_id": self.query_id, "total_iterations": int(total_iterations),
                                          "final_status": final_status, "mode": mode, "timestamp": time.time(),
                                          "metadata": metadata or {}})


def read_iteration_logs(folder: "os.PathLike[str] | str") -> Dict[str, Any]:
    """A query's logs, in order: ``{"summary": {...} | None, "turns": [record, ...]}``;
    unreadable files are listed as ``{"file", "error"}`` turns, never raised."""
    folder = Path(folder)
    turns = []
    order = {"clarification": 0, "analyst": 1, "search": 2, "critic": 3, "writer": 4}
    entries = []
    for path in folder.glob("iteration_*.json"):
        m = _ITER.match(path.name)
        if m:
            entries.append((int(m.group(1)), order.get(m.group(2), 9), path))
    for _, _, path in sorted(entries):
        try:
            turns.append(json.loads(path.read_text(encoding="utf-8")))
        except (OSError, ValueError) as exc:
            turns.append({"file": path.name, "error": str(exc)})
    summary = None
    try:
        summary = json.loads((folder / SUMMARY_FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        pass
    return {"summary": summary, "turns": turns}
