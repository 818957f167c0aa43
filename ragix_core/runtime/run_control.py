"""Run control for ``ragix run``: a run's record and checkpoint, resuming it, its dry-run report.

``ragix run`` keeps, per run, ``$RAGIX_HOME/runs/{session}/run.json`` (how it was started: goal,
directory, strategy, profile, models, config file, --yes) and, for the graph engines,
``checkpoint.json`` (written by the graph after every node: ReasoningGraph._checkpoint). ``ragix
run --resume SESSION`` reads both and continues from the checkpoint, in the same session (its
trace file and corpus events continue too). In the user's ragix directory rather than the
project, so that a run is resumed from anywhere, as its session id is all the user has. The newest
``KEEP_RUNS`` runs are kept: saving a record removes the oldest beyond that (a run's directory holds
only what this module writes, a few kilobytes, so a count is the bound a user can reason about).
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, Dict, List, Optional

from ragix_core.core.home import ragix_home

__all__ = ["RunRecord", "ResumeError", "runs_dir", "run_dir", "save_record", "prune_runs", "resume_point",
           "plan_previews", "KEEP_RUNS"]

RECORD = "run.json"
CHECKPOINT = "checkpoint.json"
KEEP_RUNS = 500  # runs kept to resume; the oldest beyond this are removed when a new run is saved


class ResumeError(ValueError):
    """A run cannot be resumed; the message says why and what to do instead."""


@dataclass
class RunRecord:
    session_id: str
    goal: str
    cwd: str
    strategy: str
    profile: Optional[str] = None
    model: Optional[str] = None
    planner_model: Optional[str] = None
    config_path: Optional[str] = None
    assume_yes: bool = False
    started: float = 0.0
    seed: Optional[int] = None  # the sampled calls' seed (--seed): a resumed run draws as the first did

    @classmethod
    def from_dict(cls, data: Any, where: Path) -> "RunRecord":
        if not isinstance(data, dict):
            raise ResumeError(f"{where}: expected a JSON object")
        try:
            record = cls(**{k: data[k] for k in cls.__dataclass_fields__ if k in data})
        except TypeError as exc:
            raise ResumeError(f"{where}: {exc}") from None
        if not all(isinstance(getattr(record, k), str) and getattr(record, k) for k in ("session_id", "goal", "cwd", "strategy")):
            raise ResumeError(f"{where}: session_id, goal, cwd and strategy must be non-empty strings")
        if record.seed is not None and (not isinstance(record.seed, int) or isinstance(record.seed, bool)):
            raise ResumeError(f"{where}: seed must be a whole number or null, not {record.seed!r}")
        return record


def runs_dir() -> Path:
    return ragix_home() / "runs"


def run_dir(session_id: str) -> Path:
    from ragix_core.memory.traces import InvalidSessionId, validate_session_id

    try:
        return runs_dir() / validate_session_id(session_id)
    except InvalidSessionId as exc:
        raise ResumeError(str(exc)) from None


def save_record(record: RunRecord, keep: int = KEEP_RUNS) -> Path:
    """Write the run's record (atomically), then remove the oldest runs beyond ``keep``; returns where
    the checkpoint goes."""
    directory = run_dir(record.session_id)
    directory.mkdir(parents=True, exist_ok=True)
    record.started = record.started or time.time()
    fd, tmp = tempfile.mkstemp(prefix=RECORD + ".", dir=directory)
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        json.dump(asdict(record), f, ensure_ascii=False, indent=1)
    os.replace(tmp, directory / RECORD)
    prune_runs(keep, protect=record.session_id)
    return directory / CHECKPOINT


def prune_runs(keep: int, protect: Optional[str] = None) -> List[Path]:
    """Remove the oldest run directories (by when their record or checkpoint was last written, so a
    resumed run counts as recent) beyond ``keep``, never ``protect``. Only a directory holding nothing
    but what this module writes (a record, a checkpoint, their temporary files) is removed: anything
    else there is the user's. Another process pruning at the same time, or a directory vanishing, is
    not an error."""
    from ragix_core.memory.traces import InvalidSessionId, validate_session_id

    runs = []
    try:
        entries = list(os.scandir(runs_dir()))
    except FileNotFoundError:
        return []
    for entry in entries:
        try:
            validate_session_id(entry.name)
            if not entry.is_dir(follow_symlinks=False) or entry.name == protect:
                continue
            written = os.stat(Path(entry.path) / RECORD).st_mtime_ns
            try:
                written = max(written, os.stat(Path(entry.path) / CHECKPOINT).st_mtime_ns)
            except FileNotFoundError:
                pass  # stopped before its first checkpoint
            runs.append((written, Path(entry.path)))
        except (InvalidSessionId, FileNotFoundError, NotADirectoryError):
            continue  # not a run this module keeps, or gone meanwhile
    runs.sort(reverse=True)  # newest first
    removed = []
    for _, path in runs[max(keep - (1 if protect else 0), 0):]:
        try:
            names = os.listdir(path)
        except FileNotFoundError:
            continue
        if all(n in (RECORD, CHECKPOINT) or n.startswith((RECORD + ".", CHECKPOINT + ".")) for n in names):
            shutil.rmtree(path, ignore_errors=True)
            removed.append(path)
    return removed


def resume_point(session_id: str) -> "tuple[RunRecord, Path]":
    """The record and checkpoint of a run that can be resumed; ResumeError saying why not otherwise."""
    from ragix_core.core.registry import UnknownEngine, get_engine

    directory = run_dir(session_id)
    path = directory / RECORD
    if not path.is_file():
        known = sorted(p.name for p in runs_dir().glob("*") if (p / RECORD).is_file())[-5:] if runs_dir().is_dir() else []
        hint = f"; the latest: {', '.join(known)}" if known else ""
        raise ResumeError(f"no run {session_id!r} in {runs_dir()} (only `ragix run` keeps runs to resume){hint}")
    try:
        record = RunRecord.from_dict(json.loads(path.read_text(encoding="utf-8")), path)
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ResumeError(f"{path} cannot be read: {exc}") from None
    try:
        spec = get_engine(record.strategy)
    except UnknownEngine as exc:
        raise ResumeError(f"run {session_id}: {exc}") from None
    if not spec.resumable:
        raise ResumeError(f"run {session_id} used strategy {record.strategy}, which keeps no checkpoint; "
                          f"start it again: ragix run {json.dumps(record.goal)} --strategy {record.strategy}")
    checkpoint = directory / CHECKPOINT
    if not checkpoint.is_file():
        raise ResumeError(f"run {session_id} has no checkpoint yet (it stopped before its first step ended); "
                          f"start it again: ragix run {json.dumps(record.goal)}")
    # Only where it stands; the graph validates the whole checkpoint when it resumes (CheckpointError).
    try:
        payload = json.loads(checkpoint.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ResumeError(f"checkpoint {checkpoint} cannot be read: {exc}") from None
    if isinstance(payload, dict) and payload.get("next_node") == "END":
        stop = (payload.get("state") or {}).get("stop_reason") if isinstance(payload.get("state"), dict) else None
        raise ResumeError(f"run {session_id} finished (stop reason: {stop}); there is nothing to resume")
    if not Path(record.cwd).is_dir():
        raise ResumeError(f"run {session_id} worked in {record.cwd}, which is no longer a directory")
    return record, checkpoint


def plan_previews(state: Any, box: Any, previewed: List[Any]) -> List[Dict[str, Any]]:
    """A dry run's plan: each step with the preview of its command (the first is the one the run
    stopped at), or a note when the worker writes the command only when the step runs."""
    from ragix_core.tools.preview import preview_command

    if state.plan is None:
        return []
    done = {p.command: p for p in previewed}
    out = []
    for step in state.plan.steps:
        command = str(step.tool_call.args.get("command") or "") if step.tool_call else ""
        entry: Dict[str, Any] = {"num": step.num, "description": step.description, "tool":
                                 step.tool_call.tool if step.tool_call else None}
        if command:
            preview = done.get(command) or preview_command(box, command)
            entry["preview"] = preview.to_dict()
        else:
            entry["note"] = "no command yet: the worker writes it when the step runs"
        out.append(entry)
    return out
