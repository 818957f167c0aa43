"""How a command shows its progress: a Rich Live view on a terminal, one plain line per event elsewhere."""

from __future__ import annotations

import sys
from typing import Any, Callable, Optional

from rich.console import Console
from rich.live import Live

from ragix_core.core.events import Event

__all__ = ["follow_run"]


def follow_run(bus: Any, console: Console, view: Any, line_of: Callable[[Event], Optional[str]], *,
               transient: bool = False) -> Optional[Live]:
    """Progress for the person at the terminal. On a terminal: ``view`` (a Rich renderable fed by the
    bus) in a Live display, returned not started. Elsewhere (a pipe, a CI log): one plain line per event
    on stderr, ``line_of(event)``, None skipping it; returns None."""
    if console.is_terminal:
        bus.subscribe(view)
        return Live(view, console=console, refresh_per_second=4, transient=transient)

    def plain(event: Event) -> None:
        line = line_of(event)
        if line:
            print(line, file=sys.stderr, flush=True)

    bus.subscribe(plain)
    return None
