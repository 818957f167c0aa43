"""Spec 000 §2's types, at the path the spec gives them.

They are shared by every engine, the tool layer and the memory, so they live
in ``ragix_core.core.types``; this module re-exports the same objects.
"""

from ragix_core.core.types import (  # noqa: F401
    Plan,
    PlanStep,
    ReasoningEvent,
    ReasoningState,
    ReflectionAttempt,
    StepStatus,
    TaskComplexity,
    ToolCall,
    ToolResult,
    TypeDecodeError,
)

__all__ = [
    "TaskComplexity",
    "StepStatus",
    "ToolCall",
    "ToolResult",
    "PlanStep",
    "Plan",
    "ReflectionAttempt",
    "ReasoningState",
    "ReasoningEvent",
    "TypeDecodeError",
]
