"""Shared helpers for the memory tests."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone
from typing import Any, Dict

import pytest

NOW = datetime(2026, 11, 26, 12, 0, 0, tzinfo=timezone.utc)


def event(goal: str, *, days_ago: float = 0.0, outcome: str = "failure", error: str = None,
          critique: str = None, event_type: str = "execution", session: str = "s1", **extra: Any) -> Dict[str, Any]:
    rec = {
        "timestamp": (NOW - timedelta(days=days_ago)).isoformat(),
        "session_id": session,
        "event_type": event_type,
        "goal": goal,
        "step_description": extra.pop("step", None),
        "outcome_status": outcome,
        "error": error,
        "llm_critique": critique,
        "meta": extra.pop("meta", {}),
    }
    rec.update(extra)
    return rec


@pytest.fixture
def ragix_home(tmp_path, monkeypatch):
    home = tmp_path / "home"
    monkeypatch.setenv("RAGIX_HOME", str(home))
    return home
