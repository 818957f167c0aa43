"""Which callable runs a goal for a strategy, and run-level record / replay.

Every strategy, the ``s0`` baseline included, runs through
``ragix_core.runtime.run.run_goal`` (names from the engine registry). Recording stores each RunResult (state, events,
usage) as JSON keyed by strategy and goal, so a full scenario set recorded once
with the real model can be re-judged in CI in seconds: this replays *runs*; the
LLM layer's cassettes (backend ``replay``) replay *model replies* under a live engine.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any, Callable, Dict, Optional

from ragix_core.core.events import Event
from ragix_core.core.registry import DEFAULT_ENGINE, engine_names
from ragix_core.core.types import ReasoningState, TypeDecodeError

__all__ = ["EngineUnavailable", "get_runner", "recording_runner", "replay_runner", "run_key"]


class EngineUnavailable(RuntimeError):
    """The engine for a strategy cannot be imported, or a replay has no recording."""


def get_runner(strategy: Optional[str]) -> Callable[..., Any]:
    if strategy is not None and strategy not in engine_names():
        raise EngineUnavailable(f"unknown strategy {strategy!r}; choose one of {', '.join(engine_names())}")
    try:
        from ragix_core.runtime.run import run_goal
    except ImportError as exc:
        raise EngineUnavailable(f"the runtime (ragix_core.runtime.run.run_goal) cannot be imported: {exc}") from None
    return run_goal


def run_key(strategy: Optional[str], goal: str) -> str:
    return hashlib.sha256(f"{strategy or DEFAULT_ENGINE}\n{goal}".encode("utf-8")).hexdigest()[:20]


def _encode(result: Any, strategy: Optional[str], goal: str) -> Dict[str, Any]:
    return {
        "strategy": strategy or DEFAULT_ENGINE,
        "goal": goal,
        "state": result.state.to_dict(),
        "session_id": result.session_id,
        "wall_time": result.wall_time,
        "events": [e.to_dict() for e in (result.events or [])],
        "usage": dict(result.usage or {}),
    }


def recording_runner(inner: Callable[..., Any], directory: Path) -> Callable[..., Any]:
    """Wrap ``inner``: every run is also written to ``directory/<key>.json``."""
    directory = Path(directory)

    def run(goal: str, *, strategy: Optional[str] = None, **kw: Any) -> Any:
        result = inner(goal, strategy=strategy, **kw)
        directory.mkdir(parents=True, exist_ok=True)
        path = directory / f"{run_key(strategy, goal)}.json"
        path.write_text(json.dumps(_encode(result, strategy, goal), indent=1, default=str) + "\n", encoding="utf-8")
        return result

    return run


def replay_runner(directory: Path) -> Callable[..., Any]:
    """A runner that returns recorded runs; a missing recording is an error naming the goal."""
    directory = Path(directory)

    def run(goal: str, *, strategy: Optional[str] = None, **_: Any) -> Any:
        path = directory / f"{run_key(strategy, goal)}.json"
        if not path.is_file():
            raise EngineUnavailable(f"{directory}: no recorded run for strategy {strategy or DEFAULT_ENGINE} and goal "
                                    f"{goal[:60]!r}; record with --record {directory}")
        try:
            d = json.loads(path.read_text(encoding="utf-8"))
            from ragix_core.runtime.run import RunResult

            return RunResult(
                state=ReasoningState.from_dict(d["state"]), session_id=d.get("session_id", ""),
                wall_time=float(d.get("wall_time", 0.0)), strategy=d.get("strategy") or strategy or DEFAULT_ENGINE,
                events=[Event.from_dict(e) for e in d.get("events", [])], usage=dict(d.get("usage") or {}),
            )
        except (OSError, ValueError, KeyError, TypeError, TypeDecodeError) as exc:
            raise EngineUnavailable(f"{path}: unreadable recording: {exc}") from None

    return run
