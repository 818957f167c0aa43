"""The graph orchestrator (spec 000 §3), hardened.

Beyond the spec's loop:
- an exception inside a node ends the run with ``stop_reason = "node_exception:<NODE>"``;
  the error is kept in ``state.last_error`` / ``state.meta["error"]`` and in the
  events, and no traceback escapes ``run``;
- a node may raise ``StopRun(reason)`` to end the run with a named stop reason
  (e.g. ``plan_generation_failed`` when the model's output stays invalid);
- after either, or when ``max_iterations`` is reached, the run passes once
  through the fallback node (RESPOND) so that it always leaves an answer;
- a node returning a name that is not in the graph is reported by name;
- per-node timing (``timings``) and typed events on an ``EventBus``;
- an optional checkpoint file written after every node, from which
  ``resume`` continues the run;
- Ctrl-C (``KeyboardInterrupt``) ends the run with ``stop_reason = "user_abort"``:
  no checkpoint is written after it (the last one is where ``resume`` continues)
  and RESPOND, run once, leaves the partial answer (core/interrupt.py);
- node functions may be ``async``: ``run`` awaits them on one event loop of its
  own, ``await arun(state)`` on the caller's (node_calls.py).
"""

from __future__ import annotations

import asyncio
import json
import os
import sys
import tempfile
import time
import traceback
from abc import ABC, abstractmethod
from pathlib import Path
from typing import Any, Dict, List, Optional, Tuple

from ragix_core.core.events import RUN_END_ANSWER_CHARS, EventBus, EventKind
from ragix_core.core.interrupt import USER_ABORT, finishing, no_interrupt
from ragix_core.core.text import bounded
from ragix_core.core.stop import StopRun

from ragix_core.core.types import ReasoningState, TypeDecodeError

from .node_calls import event_loop_for_run, on_loop

__all__ = [
    "BaseNode",
    "ReasoningGraph",
    "StopRun",
    "GraphError",
    "CheckpointError",
    "load_checkpoint",
]

CHECKPOINT_VERSION = 1


class GraphError(ValueError):
    """The graph is wired wrongly (e.g. its start node does not exist)."""


class CheckpointError(ValueError):
    """A checkpoint file cannot be used to resume a run; the message says why."""


class BaseNode(ABC):
    name: str

    @abstractmethod
    def run(self, state: ReasoningState) -> Tuple[ReasoningState, str]:
        ...


class ReasoningGraph:
    def __init__(
        self,
        nodes: Dict[str, BaseNode],
        start: str = "CLASSIFY",
        end: str = "END",
        *,
        events: Optional[EventBus] = None,
        checkpoint_path: Optional[os.PathLike | str] = None,
        fallback: str = "RESPOND",
        max_iterations: int = 50,
    ):
        if start not in nodes and start != end:
            known = ", ".join(sorted(nodes)) or "(none)"
            raise GraphError(f"start node {start!r} is not in the graph; known nodes: {known}")
        self.nodes = nodes
        self.start = start
        self.end = end
        self.trace: List[str] = []
        # (node name, seconds spent in it), one entry per visit, aligned with `trace`.
        self.timings: List[Tuple[str, float]] = []
        self.events = events if events is not None else EventBus()
        self.checkpoint_path = Path(checkpoint_path) if checkpoint_path else None
        self.fallback = fallback
        self.max_iterations = max_iterations  # when run() is not given one (config graph.max_iterations)

    # -- running -----------------------------------------------------------------

    def run(self, state: ReasoningState, max_iterations: Optional[int] = None, *, start_at: Optional[str] = None,
            iterations_done: int = 0) -> ReasoningState:
        with event_loop_for_run():
            try:
                return self._run(state, max_iterations, start_at, iterations_done)
            except KeyboardInterrupt:  # between nodes (an event being published): the same stop
                with finishing():
                    return self._abort(state, self.trace[-1] if self.trace else (start_at or self.start), 0)

    async def arun(self, state: ReasoningState, max_iterations: Optional[int] = None) -> ReasoningState:
        """``run`` from async code: the nodes run in a worker thread, their async functions on this loop."""
        loop = asyncio.get_running_loop()

        def in_thread() -> ReasoningState:
            with on_loop(loop):
                return self.run(state, max_iterations)

        return await asyncio.to_thread(in_thread)

    def _run(self, state: ReasoningState, max_iterations: Optional[int], start_at: Optional[str],
             iterations_done: int) -> ReasoningState:
        if max_iterations is None:
            max_iterations = self.max_iterations
        current = start_at or self.start
        iterations = iterations_done
        fell_back = False
        publish = self.events.publish
        sid = state.session_id
        publish(EventKind.RUN_START, sid, goal=state.goal, start=current)

        while current != self.end:
            if iterations >= max_iterations:
                # The run did not reach END: whatever stop_reason an earlier node
                # left is stale, and RESPOND gets one pass to write the summary.
                state.stop_reason = "max_iterations"
                if fell_back or self.fallback not in self.nodes or current == self.fallback:
                    break
                fell_back = True
                current = self.fallback
            node = self.nodes.get(current)
            if node is None:
                self._fail(state, current, f"unknown_node:{current}",
                           f"node {current!r} is not in the graph (returned by {self.trace[-1] if self.trace else 'start'}); "
                           f"known nodes: {', '.join(sorted(self.nodes))}")
                if fell_back or self.fallback not in self.nodes:
                    break
                fell_back, current = True, self.fallback
                continue

            self.trace.append(current)
            publish(EventKind.NODE_ENTER, sid, node=current)
            t0 = time.perf_counter()
            try:
                result = node.run(state)
                if not (isinstance(result, tuple) and len(result) == 2 and isinstance(result[0], ReasoningState)
                        and isinstance(result[1], str)):
                    raise TypeError(f"node {current} returned {type(result).__name__}; expected (ReasoningState, next node name)")
                state, next_node = result
            except StopRun as stop:
                next_node = self._stop(state, current, stop)
            except KeyboardInterrupt:
                with finishing():
                    self.timings.append((current, time.perf_counter() - t0))
                    publish(EventKind.NODE_EXIT, sid, node=current, next=None, seconds=time.perf_counter() - t0)
                    return self._abort(state, current, iterations + 1)
            except Exception as exc:  # the run must end cleanly whatever a node does
                next_node = self._crash(state, current, exc)
            elapsed = time.perf_counter() - t0
            self.timings.append((current, elapsed))
            publish(EventKind.NODE_EXIT, sid, node=current, next=next_node, seconds=elapsed)
            iterations += 1

            if next_node is None:  # an error path with nowhere left to go
                break
            if next_node == self.fallback and state.stop_reason and state.stop_reason.startswith(("node_exception:", "unknown_node:")):
                if fell_back:
                    break
                fell_back = True
            current = next_node
            if self.checkpoint_path is not None:
                try:
                    self._checkpoint(state, current, iterations)
                except OSError as exc:  # a full or read-only disk costs the resume, not the run
                    state.meta["checkpoint_error"] = f"{self.checkpoint_path}: {exc}"
                    print(f"ragix: checkpoints stopped (the run goes on, but cannot be resumed): "
                          f"{self.checkpoint_path}: {exc}", file=sys.stderr)
                    self.checkpoint_path = None

        publish(EventKind.RUN_END, sid, stop_reason=state.stop_reason, iterations=iterations,
                answer=bounded(str(state.final_answer or ""), RUN_END_ANSWER_CHARS),
                **({"caveat": bounded(str(state.meta["caveat"]), RUN_END_ANSWER_CHARS)}
                   if state.meta.get("caveat") else {}))
        return state

    def _abort(self, state: ReasoningState, node: str, iterations: int) -> ReasoningState:
        """The user pressed Ctrl-C in ``node``: the stop is named, RESPOND writes what was found
        (without a model: ``user_abort`` is a partial stop) and the run ends; no checkpoint."""
        self._fail(state, node, USER_ABORT, f"interrupted by the user (Ctrl-C) in {node}")
        state.final_answer = None  # an answer half-made in the interrupted node is not the run's answer
        respond = self.nodes.get(self.fallback)
        if respond is not None:  # again if it was RESPOND that was interrupted: now it asks no model
            self.trace.append(self.fallback)
            try:
                state, _ = respond.run(state)
            except Exception as exc:  # the partial answer is a courtesy; the stop stands
                state.meta["respond_error"] = f"{type(exc).__name__}: {exc}"
        if not state.final_answer:
            from ragix_core.evidence.answers import partial_results  # (graph.py stays cheap to import)

            state.final_answer = partial_results(state)
        state.stop_reason = USER_ABORT
        self.events.publish(EventKind.RUN_END, state.session_id, stop_reason=state.stop_reason, iterations=iterations,
                            answer=bounded(str(state.final_answer or ""), RUN_END_ANSWER_CHARS))
        return state

    def _fail(self, state: ReasoningState, node: str, reason: str, message: str, **extra: Any) -> None:
        state.stop_reason = reason
        state.last_error = message
        state.meta["error"] = {"node": node, "reason": reason, "message": message, **extra}
        self.events.publish(EventKind.NODE_ERROR, state.session_id, node=node, reason=reason, message=message)

    def _stop(self, state: ReasoningState, node: str, stop: StopRun) -> Optional[str]:
        self._fail(state, node, stop.reason, stop.message)
        return self.fallback if (node != self.fallback and self.fallback in self.nodes) else None

    def _crash(self, state: ReasoningState, node: str, exc: Exception) -> Optional[str]:
        message = f"{type(exc).__name__}: {exc}"
        tb = "".join(traceback.format_exception(type(exc), exc, exc.__traceback__, limit=8))
        self._fail(state, node, f"node_exception:{node}", message, traceback=tb)
        return self.fallback if (node != self.fallback and self.fallback in self.nodes) else None

    # -- checkpoints -------------------------------------------------------------

    def _checkpoint(self, state: ReasoningState, next_node: str, iterations: int) -> None:
        assert self.checkpoint_path is not None
        payload = {
            "version": CHECKPOINT_VERSION,
            "next_node": next_node,
            "iterations": iterations,
            "trace": self.trace,
            "state": state.to_dict(),
        }
        path = self.checkpoint_path
        path.parent.mkdir(parents=True, exist_ok=True)
        # Write-then-rename: a crash leaves either the previous checkpoint or this one, never half.
        with no_interrupt():
            fd, tmp = tempfile.mkstemp(prefix=path.name + ".", suffix=".tmp", dir=path.parent)
            try:
                with os.fdopen(fd, "w", encoding="utf-8") as f:
                    json.dump(payload, f, ensure_ascii=False, default=str)
                os.replace(tmp, path)
            except BaseException:
                try:
                    os.unlink(tmp)
                except FileNotFoundError:
                    pass
                raise
        self.events.publish(EventKind.CHECKPOINT, state.session_id, path=str(path), next=next_node)

    def resume(self, checkpoint_path: os.PathLike | str, max_iterations: Optional[int] = None) -> ReasoningState:
        """Continue a run from a checkpoint written by this graph (or an identical one)."""
        state, next_node, iterations, trace = load_checkpoint(checkpoint_path)
        if next_node != self.end and next_node not in self.nodes:
            raise CheckpointError(f"checkpoint {checkpoint_path}: next node {next_node!r} is not in this graph")
        self.trace = list(trace)
        if next_node == self.end:
            return state
        return self.run(state, max_iterations=max_iterations, start_at=next_node, iterations_done=iterations)


def load_checkpoint(path: os.PathLike | str) -> Tuple[ReasoningState, str, int, List[str]]:
    """Read a checkpoint file: (state, next node, iterations done, trace). Raises CheckpointError."""
    p = Path(path)
    try:
        raw = p.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise CheckpointError(f"checkpoint {p} does not exist") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise CheckpointError(f"checkpoint {p} cannot be read: {exc}") from None
    try:
        payload = json.loads(raw)
    except json.JSONDecodeError as exc:
        raise CheckpointError(f"checkpoint {p} is not valid JSON (garbled or truncated): {exc}") from None
    if not isinstance(payload, dict):
        raise CheckpointError(f"checkpoint {p}: expected a JSON object")
    if payload.get("version") != CHECKPOINT_VERSION:
        raise CheckpointError(f"checkpoint {p}: unsupported version {payload.get('version')!r} (expected {CHECKPOINT_VERSION})")
    next_node = payload.get("next_node")
    iterations = payload.get("iterations")
    if not isinstance(next_node, str) or not isinstance(iterations, int):
        raise CheckpointError(f"checkpoint {p}: missing or invalid 'next_node'/'iterations'")
    try:
        state = ReasoningState.from_dict(payload.get("state"))
    except (TypeDecodeError, TypeError, ValueError) as exc:
        raise CheckpointError(f"checkpoint {p}: invalid state: {exc}") from None
    trace = payload.get("trace") or []
    return state, next_node, iterations, [str(t) for t in trace]
