"""Test doubles: RunResult-like objects built from real ragix types."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Dict, List, Optional

from ragix_core.core.events import Event, EventKind
from ragix_core.core.types import PlanStep, ReasoningState, StepStatus, TaskComplexity, ToolCall


@dataclass
class FakeRunResult:
    state: ReasoningState
    session_id: str = "s"
    wall_time: float = 0.5
    trace_path: Optional[Path] = None
    events: List[Event] = field(default_factory=list)
    usage: Dict[str, int] = field(default_factory=lambda: {"llm_calls": 2, "prompt_tokens": 100, "completion_tokens": 20})


def tool_event(command: str, refused: bool = False, tool: str = "shell") -> Event:
    """One event as the tool box publishes it: a refusal has an empty argv; a process, the argv it ran."""
    argv = [] if refused else command.split()
    return Event(EventKind.TOOL_CALL, "s", {"tool": tool, "command": command, "argv": argv,
                                            "returncode": 126 if refused else 0, "refused": refused})


def process_events(command: str) -> List[Event]:
    """The events of one ragix command line: one per process started, as the tool box publishes them.

    Pipeline stages are split on ' | ' (test commands quote no pipe); an xargs stage is run
    by ragix itself, so it publishes its target program (xargs options are dropped), never xargs.
    """
    events = []
    for stage in command.split(" | "):
        words = stage.split()
        if words and words[0] == "xargs":
            words = words[1:]
            while words and words[0].startswith("-"):
                words = words[2:] if words[0] in ("-n", "-I", "-L", "-P", "-d") else words[1:]
        events.append(Event(EventKind.TOOL_CALL, "s", {"tool": words[0], "command": " ".join(words), "argv": words,
                                                       "returncode": 0, "refused": False}))
    return events


def make_result(answer: str = "", commands=(), refused=(), complexity: str = "MODERATE", reflections: int = 0,
                stop_reason: str = "success", steps: Optional[int] = None, **kw: Any) -> FakeRunResult:
    state = ReasoningState(goal="g", session_id="s", complexity=TaskComplexity.parse(complexity))
    state.final_answer = answer
    state.reflection_count = reflections
    state.stop_reason = stop_reason
    n = len(commands) if steps is None else steps
    state.executed_steps = [PlanStep(num=i + 1, description="d", tool_call=ToolCall("shell"), status=StepStatus.SUCCESS)
                            for i in range(n)]
    events = [e for c in commands for e in process_events(c)] + [tool_event(c, refused=True) for c in refused]
    return FakeRunResult(state=state, events=events, **kw)
