"""Ctrl-C during a run: the run ends as ``user_abort`` and its files stay whole.

Python raises ``KeyboardInterrupt`` wherever the main thread happens to be when SIGINT arrives,
which may be in the middle of writing a line of the trace or of the experience corpus, or a
checkpoint. ``ragix run`` installs ``sigint_ends_run()``: while one of those writes is under way
(inside ``no_interrupt()``) the interrupt waits until the write is done; after the run has begun
to finish (``finishing()``: RESPOND's partial answer, the last events) further Ctrl-Cs are ignored,
so the second press a user makes while waiting does not tear the files the first one kept whole.
Without the handler (a library caller, a worker thread) nothing changes: ``no_interrupt`` costs
two integer updates.
"""

from __future__ import annotations

import signal
import sys
import threading
from contextlib import contextmanager
from typing import Any, Iterator

__all__ = ["USER_ABORT", "no_interrupt", "finishing", "sigint_ends_run"]

USER_ABORT = "user_abort"  # the stop reason of a run ended by the user (spec 001's name)

_depth = 0  # writes under way that an interrupt must not tear
_pending = False  # an interrupt arrived during such a write
_finishing = False  # the run is already ending: further interrupts are ignored
_installed = False


def _main_thread() -> bool:
    return threading.current_thread() is threading.main_thread()


@contextmanager
def no_interrupt() -> Iterator[None]:
    """A write that must complete: an interrupt arriving meanwhile is raised when it is done."""
    global _depth, _pending
    if not (_installed and _main_thread()):
        yield
        return
    _depth += 1
    try:
        yield
    finally:
        _depth -= 1
        if _depth == 0 and _pending and not _finishing:
            _pending = False
            raise KeyboardInterrupt


@contextmanager
def finishing() -> Iterator[None]:
    """The run is ending after an interrupt: ignore further ones until it has."""
    global _finishing
    if not _installed:
        yield
        return
    before = _finishing
    _finishing = True
    try:
        yield
    finally:
        _finishing = before


def _on_sigint(signum: int, frame: Any) -> None:
    global _pending
    if _finishing:
        sys.stderr.write("\nragix: already stopping; writing the trace and the partial answer\n")
        return
    if _depth > 0:
        _pending = True
        return
    raise KeyboardInterrupt


@contextmanager
def sigint_ends_run() -> Iterator[None]:
    """Install the handler for the duration of a run (main thread only; elsewhere a no-op)."""
    global _installed, _pending, _finishing, _depth
    if not _main_thread() or _installed:
        yield
        return
    previous = signal.signal(signal.SIGINT, _on_sigint)
    _installed, _pending, _finishing, _depth = True, False, False, 0
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
        _installed, _pending, _finishing = False, False, False
