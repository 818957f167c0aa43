"""What writer processes do (started with ``spawn``: each opens its own store from a spec)."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone
from typing import Any, Dict

from .backends import open_spec

_BASE = datetime.now(timezone.utc) - timedelta(days=1)


def event_for(writer: int, seq: int, filler: int = 0) -> Dict[str, Any]:
    """A distinct, fresh event; ``meta`` says who wrote it, so losses and duplicates can be counted."""
    return {
        "timestamp": (_BASE + timedelta(seconds=writer * 100_000 + seq)).isoformat(),
        "session_id": f"writer{writer}",
        "event_type": "execution",
        "step_num": seq,
        "goal": f"writer{writer} seq{seq} build the project with make",
        "error": "make: *** No rule to make target 'all'" + " padding" * filler,
        "outcome_status": "failure" if seq % 3 else "success",
        "meta": {"writer": writer, "seq": seq},
    }


def write_events(spec: Dict[str, Any], writer: int, count: int) -> None:
    store = open_spec(spec)
    try:
        for seq in range(count):
            store.append(event_for(writer, seq))
    finally:
        store.close()


def write_until_killed(spec: Dict[str, Any], acked: Any) -> None:
    """Append large events one by one forever, publishing how many were acknowledged."""
    store = open_spec(spec)
    seq = 0
    while True:
        store.append(event_for(7, seq, filler=20_000))  # ~180 kB each: a kill often lands mid-write
        seq += 1
        acked.value = seq
