"""The one way a node reports a ``ReasoningEvent`` (plan, step, reflection, verification, answer)."""

from __future__ import annotations

from datetime import datetime, timezone
from typing import Any, Callable, Optional

from ragix_core.core.types import ReasoningEvent, ReasoningState

__all__ = ["EmitFn", "emit_event", "utc_now"]

EmitFn = Callable[[ReasoningEvent], None]


def utc_now() -> str:
    return datetime.now(timezone.utc).replace(tzinfo=None).isoformat()


def emit_event(fn: Optional[EmitFn], state: ReasoningState, event_type: str, **fields: Any) -> None:
    if fn is not None:
        fn(ReasoningEvent(timestamp=utc_now(), session_id=state.session_id, event_type=event_type,  # type: ignore[arg-type]
                          goal=state.goal, **fields))
