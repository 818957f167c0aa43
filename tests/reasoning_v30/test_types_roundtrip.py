"""Every spec type survives to_dict -> JSON -> from_dict unchanged."""

import json

import pytest

from ragix_core.reasoning_v30.types import (
    Plan, PlanStep, ReasoningEvent, ReasoningState, ReflectionAttempt, StepStatus, TaskComplexity, ToolCall,
    ToolResult, TypeDecodeError,
)


def full_state() -> ReasoningState:
    step = PlanStep(num=1, description="count lines", tool_call=ToolCall("wc", {"args": ["-l", "a.md"]}),
                    status=StepStatus.FAILED,
                    result=ToolResult("wc", 1, stdout="", stderr="wc: a.md: No such file", error=None, duration=0.01,
                                      truncated=True, refused=False, command="wc -l a.md"))
    return ReasoningState(
        goal="g", session_id="s", complexity=TaskComplexity.COMPLEX,
        plan=Plan(objective="o", steps=[step], validation="v", confidence=0.4),
        current_step_index=0, last_error="boom", reflection_count=1,
        reflection_attempts=[ReflectionAttempt("2026-01-01T00:00:00", 1, "e", "d", "n")],
        final_answer="a", stop_reason="max_reflections", confidence=0.3,
        executed_steps=[step], meta={"usage": {"prompt_tokens": 3}},
    )


def test_state_round_trip_through_json():
    st = full_state()
    again = ReasoningState.from_dict(json.loads(json.dumps(st.to_dict())))
    assert again == st
    assert isinstance(again.plan.steps[0].result, ToolResult)
    assert again.plan.steps[0].status is StepStatus.FAILED


@pytest.mark.parametrize("obj", [
    ToolCall("grep", {"pattern": "x"}),
    ToolResult("ls", 0, stdout="a"),
    PlanStep(3, "d"),
    ReflectionAttempt("t", 1, "e", "d", "n"),
    ReasoningEvent("t", "s", "execution", "g", step_num=2, meta={"k": 1}),
])
def test_each_type_round_trips(obj):
    assert type(obj).from_dict(json.loads(json.dumps(obj.to_dict()))) == obj


def test_unknown_keys_are_ignored_missing_required_named():
    assert ToolResult.from_dict({"tool": "ls", "returncode": 0, "future_field": 1}).tool == "ls"
    with pytest.raises(TypeDecodeError, match="returncode"):
        ToolResult.from_dict({"tool": "ls"})
    with pytest.raises(TypeDecodeError, match="StepStatus|status"):
        PlanStep.from_dict({"num": 1, "description": "d", "status": "exploded"})
