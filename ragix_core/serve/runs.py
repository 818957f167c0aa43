"""The server's runs: a bounded queue, a fixed number running at once, cancel, and what each ended with.

Every run goes through ``run_goal``, the CLI's own entry point, with the root as its working
directory, so confinement, profiles, traces and memory are exactly the CLI's. A run's session id is
chosen here, before it is queued, so its stream, its trace file and its page share one name.

Cancelling a queued run drops it. Cancelling a running one takes effect at its next model call,
which raises ``LLMUnavailable``: engines already end a run cleanly, through RESPOND, when the
model goes away, and a command in flight is bounded by its own time limit.
"""

from __future__ import annotations

import logging
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any, Callable, Dict, List, Optional

from ragix_core.core.events import EventBus
from ragix_core.llm.base import LLMUnavailable
from ragix_core.runtime.context import new_session_id

from .settings import ServeSettings
from .stream import RunStream

__all__ = ["RunRequest", "ServedRun", "RunManager", "RunRefused", "QueueFull"]

log = logging.getLogger("ragix.serve")

QUEUED, RUNNING, FINISHED, FAILED, CANCELLED = "queued", "running", "finished", "failed", "cancelled"


class RunRefused(ValueError):
    """The request asks for something the server does not allow (400)."""


class QueueFull(RuntimeError):
    """As many runs are running and waiting as the server allows (429)."""


@dataclass
class RunRequest:
    goal: str
    engine: str
    root: str
    profile: str


@dataclass
class ServedRun:
    id: str
    request: RunRequest
    status: str = QUEUED
    created: float = field(default_factory=time.time)
    started: Optional[float] = None
    ended: Optional[float] = None
    result: Optional[Dict[str, Any]] = None
    error: Optional[str] = None
    stream: RunStream = field(default_factory=RunStream)
    cancel_requested: threading.Event = field(default_factory=threading.Event)

    @property
    def active(self) -> bool:
        return self.status in (QUEUED, RUNNING)

    def summary(self) -> Dict[str, Any]:
        r = self.request
        return {"id": self.id, "goal": r.goal, "engine": r.engine, "root": r.root, "profile": r.profile,
                "status": self.status, "created": self.created, "started": self.started, "ended": self.ended,
                "stop_reason": (self.result or {}).get("stop_reason"), "error": self.error}


class _CancellableClient:
    """The role's model, refusing every call once the run is cancelled."""

    def __init__(self, inner: Any, cancelled: threading.Event) -> None:
        self._inner, self._cancelled = inner, cancelled
        self.backend = getattr(inner, "backend", "unknown")
        self.model = getattr(inner, "model", "unknown")

    def complete(self, *args: Any, **kwargs: Any) -> Any:
        if self._cancelled.is_set():
            raise LLMUnavailable("the run was cancelled from ragix serve")
        return self._inner.complete(*args, **kwargs)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._inner, name)


class RunManager:
    def __init__(self, settings: ServeSettings) -> None:
        self.settings = settings
        self._runs: Dict[str, ServedRun] = {}
        self._lock = threading.Lock()
        self._pool = ThreadPoolExecutor(max_workers=settings.max_active, thread_name_prefix="ragix-run")

    # -- what the routes ask -----------------------------------------------------------------

    def check(self, request: RunRequest) -> None:
        """``RunRefused`` naming the first thing the server does not allow."""
        from ragix_core.core.registry import engine_names

        s = self.settings
        if not request.goal.strip():
            raise RunRefused("the goal is empty")
        if len(request.goal) > s.max_goal_chars:
            raise RunRefused(f"the goal is {len(request.goal)} characters long; the limit is {s.max_goal_chars}")
        if request.engine not in engine_names():
            raise RunRefused(f"unknown engine {request.engine!r}; allowed: {', '.join(engine_names())}")
        if request.root not in s.roots:
            raise RunRefused(f"unknown root {request.root!r}; allowed: {', '.join(s.roots)}")
        if request.profile not in s.profiles:
            raise RunRefused(f"profile {request.profile!r} is not allowed by this server; allowed: "
                             f"{', '.join(s.profiles)}")

    def submit(self, request: RunRequest) -> ServedRun:
        self.check(request)
        with self._lock:
            active = sum(1 for r in self._runs.values() if r.active)
            limit = self.settings.max_active + self.settings.max_queued
            if active >= limit:
                raise QueueFull(f"{active} runs are running or waiting; the server allows {limit}")
            run = ServedRun(id=new_session_id(), request=request)
            self._runs[run.id] = run
            self._forget_old()
        self._pool.submit(self._execute, run)
        return run

    def get(self, run_id: str) -> Optional[ServedRun]:
        return self._runs.get(run_id)

    def list(self) -> List[ServedRun]:
        return sorted(self._runs.values(), key=lambda r: r.created, reverse=True)

    def cancel(self, run_id: str) -> Optional[ServedRun]:
        run = self._runs.get(run_id)
        if run is None:
            return None
        run.cancel_requested.set()
        with self._lock:
            if run.status == QUEUED:  # never started: it ends here
                self._end(run, CANCELLED)
        return run

    def shutdown(self) -> None:
        for run in list(self._runs.values()):
            if run.active:
                self.cancel(run.id)
        self._pool.shutdown(wait=True, cancel_futures=True)

    # -- the worker --------------------------------------------------------------------------

    def _client_factory(self, run: ServedRun) -> Callable[[Any], Any]:
        inner = self.settings.client_factory
        if inner is None:
            from ragix_core.llm.factory import build_client as inner
        return lambda role_settings: _CancellableClient(inner(role_settings), run.cancel_requested)

    def _execute(self, run: ServedRun) -> None:
        from ragix_core.config import ConfigError, load_config
        from ragix_core.profiles import ProfileError
        from ragix_core.runtime.run import run_goal

        with self._lock:
            if run.status != QUEUED:  # cancelled while it waited
                return
            run.status, run.started = RUNNING, time.time()
        req = run.request
        cwd = self.settings.roots[req.root]
        bus = EventBus()
        bus.subscribe(run.stream)
        status = FINISHED
        try:
            config = self.settings.config or load_config(cwd=cwd)
            result = run_goal(req.goal, cwd=cwd, config=config, strategy=req.engine, profile=req.profile,
                              events=bus, client_factory=self._client_factory(run), session_id=run.id)
            run.result = _result_of(result)
        except (ConfigError, ProfileError, ValueError) as exc:
            run.error, status = str(exc), FAILED
        except Exception as exc:  # an engine must never take the server down; the log keeps the traceback
            log.exception("run %s failed", run.id)
            run.error, status = f"{type(exc).__name__}: {exc}", FAILED
        if run.cancel_requested.is_set():
            status = CANCELLED
        with self._lock:
            self._end(run, status)

    def _end(self, run: ServedRun, status: str) -> None:
        run.status, run.ended = status, time.time()
        run.stream.close()

    def _forget_old(self) -> None:
        """Keep the newest finished runs in memory; older ones stay readable from their traces."""
        done = [r for r in sorted(self._runs.values(), key=lambda r: r.created) if not r.active]
        for run in done[: max(0, len(done) - self.settings.finished_kept)]:
            del self._runs[run.id]


def _result_of(result: Any) -> Dict[str, Any]:
    """What the API returns of a finished run: the CLI's ``--json`` record, plus what the views of
    other engines need from the final state (research Items, the tutor's report)."""
    out = result.to_dict()
    meta = result.state.meta
    for key in ("research_items", "tutor"):
        if key in meta:
            out[key] = meta[key]
    return out
