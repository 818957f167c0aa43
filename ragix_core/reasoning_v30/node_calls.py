"""Calling a node's injected function in either of the specs' forms.

Spec 000 §4 injects plain functions with its own signatures (``llm_reflect_fn(payload) -> dict``,
``llm_verify_fn(state) -> dict``, ``execute_step_fn(step, state) -> PlanStep``). Spec 002 §4.4's
quick start injects ``async`` functions with others (``llm_reflect_fn(state) -> str``,
``llm_verify_fn(answer, goal) -> bool``, ``execute_step_fn(step) -> ToolResult``). The nodes accept
both: this module awaits what a function returns when it is awaitable and tells the forms apart
by the function's parameters, so there is one set of nodes and one graph for both specs.

Awaiting: inside ``ReasoningGraph.run`` a coroutine runs on the event loop the run opened (one
loop for the whole run, so async functions may share a client across nodes); inside
``ReasoningGraph.arun`` on the caller's own loop; a node called on its own gets a fresh loop.
"""

from __future__ import annotations

import asyncio
import inspect
import threading
from contextlib import contextmanager
from typing import Any, Callable, Iterator, Optional

__all__ = ["resolve", "call", "positional_arity", "takes_state", "event_loop_for_run", "on_loop"]

_local = threading.local()  # .runner: Callable[[awaitable], value] while a graph run is active


def resolve(value: Any) -> Any:
    """``value``, or what it resolves to when it is awaitable (an ``async def`` function's result)."""
    if not inspect.isawaitable(value):
        return value
    runner: Optional[Callable[[Any], Any]] = getattr(_local, "runner", None)
    if runner is not None:
        return runner(value)
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return asyncio.run(_awaited(value))
    if inspect.iscoroutine(value):
        value.close()  # never awaited: close it so Python does not warn about it later
    raise RuntimeError("an async node function was called inside a running event loop: "
                       "use `await graph.arun(state)` there instead of `graph.run(state)`")


def call(fn: Callable[..., Any], *args: Any) -> Any:
    """``fn(*args)``, awaited when ``fn`` is async."""
    return resolve(fn(*args))


async def _awaited(value: Any) -> Any:
    return await value


@contextmanager
def event_loop_for_run() -> Iterator[None]:
    """One event loop for a synchronous run's async functions (none is created unless one is needed)."""
    if getattr(_local, "runner", None) is not None:  # a nested run shares the outer run's loop
        yield
        return
    loop: Optional[asyncio.AbstractEventLoop] = None

    def run(awaitable: Any) -> Any:
        nonlocal loop
        if loop is None:
            try:
                asyncio.get_running_loop()
            except RuntimeError:
                loop = asyncio.new_event_loop()
            else:
                if inspect.iscoroutine(awaitable):
                    awaitable.close()
                raise RuntimeError("an async node function was called inside a running event loop: "
                                   "use `await graph.arun(state)` there instead of `graph.run(state)`")
        return loop.run_until_complete(_awaited(awaitable))

    _local.runner = run
    try:
        yield
    finally:
        _local.runner = None
        if loop is not None:
            loop.run_until_complete(loop.shutdown_asyncgens())
            loop.close()


@contextmanager
def on_loop(loop: asyncio.AbstractEventLoop) -> Iterator[None]:
    """In a worker thread: run the node functions' coroutines on ``loop`` (the caller's, waiting in ``arun``)."""
    _local.runner = lambda awaitable: asyncio.run_coroutine_threadsafe(_awaited(awaitable), loop).result()
    try:
        yield
    finally:
        _local.runner = None


def _parameters(fn: Callable[..., Any]) -> list:
    try:
        return list(inspect.signature(fn).parameters.values())
    except (TypeError, ValueError):  # a builtin without a signature: assume the spec 000 form
        return []


def positional_arity(fn: Callable[..., Any]) -> Optional[int]:
    """How many positional arguments ``fn`` takes; None when it takes any number (``*args``) or is unknown."""
    params = _parameters(fn)
    if not params or any(p.kind == p.VAR_POSITIONAL for p in params):
        return None
    return sum(1 for p in params if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD) and p.default is p.empty)


def takes_state(fn: Callable[..., Any]) -> bool:
    """Whether ``fn``'s one parameter is the run's state (spec 002: annotated ``ReasoningState`` or
    named ``state``), rather than spec 000's payload dict."""
    params = _parameters(fn)
    if len(params) != 1:
        return False
    p = params[0]
    annotation = p.annotation if isinstance(p.annotation, str) else getattr(p.annotation, "__name__", "")
    return p.name == "state" or annotation.rsplit(".", 1)[-1] == "ReasoningState"
