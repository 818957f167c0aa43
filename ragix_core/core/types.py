"""Core types shared by every engine, the tool layer and the memory (spec 000 §2).

Every field of the spec is kept as written. Fields added beyond the spec have
defaults, so code written against the spec constructs these types unchanged.
Each type round-trips through ``to_dict`` / ``from_dict`` (plain JSON values),
which is what checkpoints, traces and the experience corpus store.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from enum import Enum
from typing import Any, Dict, List, Literal, Optional

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


class TypeDecodeError(ValueError):
    """A stored dict does not describe a valid instance of the named type."""


class TaskComplexity(Enum):
    BYPASS = "bypass"  # no tools, no plan, direct answer
    SIMPLE = "simple"
    MODERATE = "moderate"
    COMPLEX = "complex"

    @classmethod
    def parse(cls, value: "str | TaskComplexity") -> "TaskComplexity":
        """Accept the enum, its value or its name in any case ("MODERATE", "moderate")."""
        if isinstance(value, cls):
            return value
        text = str(value).strip().lower()
        for member in cls:
            if member.value == text:
                return member
        allowed = ", ".join(m.name for m in cls)
        raise ValueError(f"unknown complexity {value!r}; allowed: {allowed}")


class StepStatus(Enum):
    PENDING = "pending"
    RUNNING = "running"
    SUCCESS = "success"
    FAILED = "failed"
    SKIPPED = "skipped"


def _require(data: Any, type_name: str, *keys: str) -> Dict[str, Any]:
    if not isinstance(data, dict):
        raise TypeDecodeError(f"{type_name}: expected an object, got {type(data).__name__}")
    missing = [k for k in keys if k not in data]
    if missing:
        raise TypeDecodeError(f"{type_name}: missing field(s) {', '.join(missing)}")
    return data


def _known(cls: type, data: Dict[str, Any]) -> Dict[str, Any]:
    # Unknown keys are dropped so that newer writers stay readable by older readers.
    names = {f.name for f in fields(cls)}
    return {k: v for k, v in data.items() if k in names}


def _enum(enum_cls: type, value: Any, type_name: str) -> Any:
    try:
        return enum_cls(value)
    except ValueError:
        allowed = ", ".join(m.value for m in enum_cls)
        raise TypeDecodeError(f"{type_name}: {value!r} is not one of {allowed}") from None


@dataclass
class ToolCall:
    """Unified schema for tool invocations."""

    tool: str
    args: Dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> Dict[str, Any]:
        return {"tool": self.tool, "args": dict(self.args)}

    @classmethod
    def from_dict(cls, data: Dict[str, Any]) -> "ToolCall":
        d = _require(data, "ToolCall", "tool")
        return cls(tool=d["tool"], args=dict(d.get("args") or {}))


@dataclass
class ToolResult:
    """Unified schema for tool results.

    ``duration``, ``truncated``, ``refused``, ``command``, ``written`` and ``no_match``
    extend the spec: the executor records how long a call took, whether its output
    was capped, whether the confinement layer refused it, the command as it was run
    (absolute programs, the options that hide ragix's state), the command as written
    (globs expanded, nothing added: what the output answers), and whether a search
    found nothing (exit 1 without an error: an answer, so the call is ``ok``; see
    ``ragix_core.tools.policy.is_no_match``); ``answer_exit``: the command's exit 1 is its answer (diff: the
    inputs differ; ``policy.is_answer_exit``), so the call is ``ok`` too. ``writes``: the command had a stage
    that writes to the project (or a redirection); ``changed``: it did change the project (the tree differs after it,
    ragix_core.tools.tree_state), so its success is the change, not what it printed.
    ``mistake``: the command ran, but its shape cannot compute what it was written for, said as a
    sentence for the model (ragix_core.evidence.pipe_mistakes); ``doubt``: its shape is right for
    some other question than the likely one (evidence/path_as_text.py). Both set by the engine that checked.
    ``piped_lines``: how many lines a pipeline's last stage read from the stage before it (None for one command).
    """

    tool: str
    returncode: int
    stdout: str = ""
    stderr: str = ""
    error: Optional[str] = None  # Python exception, if any
    duration: Optional[float] = None  # seconds
    truncated: bool = False
    refused: bool = False
    command: Optional[str] = None
    no_match: bool = False
    answer_exit: bool = False
    written: Optional[str] = None
    writes: bool = False
    changed: bool = False
    mistake: Optional[str] = None
    doubt: Optional[str] = None
    piped_lines: Optional[int] = None

    @property
    def ok(self) -> bool:
        return (self.returncode == 0 or self.no_match or self.answer_exit) and not self.error and not self.refused

    def to_dict(self) -> Dict[str, Any]:
        return {f.name: getattr(self, f.name) for f in fields(self)}

    @classmethod
    def from_dict(cls, data: Dict[str, Any]) -> "ToolResult":
        d = _require(data, "ToolResult", "tool", "returncode")
        return cls(**_known(cls, d))


@dataclass
class PlanStep:
    num: int
    description: str
    tool_call: Optional[ToolCall] = None
    status: StepStatus = StepStatus.PENDING
    result: Optional[ToolResult] = None

    def to_dict(self) -> Dict[str, Any]:
        return {
            "num": self.num,
            "description": self.description,
            "tool_call": self.tool_call.to_dict() if self.tool_call else None,
            "status": self.status.value,
            "result": self.result.to_dict() if self.result else None,
        }

    @classmethod
    def from_dict(cls, data: Dict[str, Any]) -> "PlanStep":
        d = _require(data, "PlanStep", "num", "description")
        return cls(
            num=d["num"],
            description=d["description"],
            tool_call=ToolCall.from_dict(d["tool_call"]) if d.get("tool_call") else None,
            status=_enum(StepStatus, d.get("status", "pending"), "PlanStep.status"),
            result=ToolResult.from_dict(d["result"]) if d.get("result") else None,
        )


@dataclass
class Plan:
    objective: str
    steps: List[PlanStep] = field(default_factory=list)
    validation: str = ""
    confidence: Optional[float] = None  # 0.0–1.0 (LLM self-estimate)

    def get_current_step(self, index: int) -> Optional[PlanStep]:
        return self.steps[index] if 0 <= index < len(self.steps) else None

    def is_complete(self) -> bool:
        return all(s.status in (StepStatus.SUCCESS, StepStatus.SKIPPED) for s in self.steps)

    def to_dict(self) -> Dict[str, Any]:
        return {
            "objective": self.objective,
            "steps": [s.to_dict() for s in self.steps],
            "validation": self.validation,
            "confidence": self.confidence,
        }

    @classmethod
    def from_dict(cls, data: Dict[str, Any]) -> "Plan":
        d = _require(data, "Plan", "objective")
        steps = d.get("steps") or []
        if not isinstance(steps, list):
            raise TypeDecodeError("Plan.steps: expected a list")
        return cls(
            objective=d["objective"],
            steps=[PlanStep.from_dict(s) for s in steps],
            validation=d.get("validation", ""),
            confidence=d.get("confidence"),
        )


@dataclass
class ReflectionAttempt:
    timestamp: str
    failed_step: int
    error: str
    diagnosis: str
    new_plan_summary: str
    # Beyond the spec: which evidence the diagnosis was given (exit code, stderr, nearest directory,
    # close names, project search...), so a recovery can be audited and its evidence compared.
    evidence: List[str] = field(default_factory=list)

    def to_dict(self) -> Dict[str, Any]:
        d = {f.name: getattr(self, f.name) for f in fields(self)}
        d["evidence"] = list(self.evidence)
        return d

    @classmethod
    def from_dict(cls, data: Dict[str, Any]) -> "ReflectionAttempt":
        d = _require(data, "ReflectionAttempt", "timestamp", "failed_step", "error", "diagnosis", "new_plan_summary")
        out = cls(**_known(cls, d))
        out.evidence = [str(e) for e in (out.evidence or [])]
        return out


@dataclass
class ReasoningState:
    goal: str
    session_id: str
    complexity: TaskComplexity = TaskComplexity.MODERATE
    plan: Optional[Plan] = None
    current_step_index: int = 0
    last_error: Optional[str] = None
    reflection_count: int = 0
    reflection_attempts: List[ReflectionAttempt] = field(default_factory=list)
    final_answer: Optional[str] = None
    # "success", "max_reflections", "max_iterations", "no_plan", "bypass",
    # "node_exception:<NODE>", "user_abort", "<node>_failed" (LLM output unusable)
    stop_reason: Optional[str] = None
    confidence: Optional[float] = None  # State-level confidence for the overall answer
    # Beyond the spec: every step executed, across replans (a replan replaces
    # `plan`, so the evidence of earlier attempts would otherwise be lost), and
    # free-form data that node functions share (LLM usage totals, ...).
    executed_steps: List[PlanStep] = field(default_factory=list)
    meta: Dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> Dict[str, Any]:
        return {
            "goal": self.goal,
            "session_id": self.session_id,
            "complexity": self.complexity.value,
            "plan": self.plan.to_dict() if self.plan else None,
            "current_step_index": self.current_step_index,
            "last_error": self.last_error,
            "reflection_count": self.reflection_count,
            "reflection_attempts": [a.to_dict() for a in self.reflection_attempts],
            "final_answer": self.final_answer,
            "stop_reason": self.stop_reason,
            "confidence": self.confidence,
            "executed_steps": [s.to_dict() for s in self.executed_steps],
            "meta": dict(self.meta),
        }

    @classmethod
    def from_dict(cls, data: Dict[str, Any]) -> "ReasoningState":
        d = _require(data, "ReasoningState", "goal", "session_id")
        return cls(
            goal=d["goal"],
            session_id=d["session_id"],
            complexity=_enum(TaskComplexity, d.get("complexity", "moderate"), "ReasoningState.complexity"),
            plan=Plan.from_dict(d["plan"]) if d.get("plan") else None,
            current_step_index=int(d.get("current_step_index", 0)),
            last_error=d.get("last_error"),
            reflection_count=int(d.get("reflection_count", 0)),
            reflection_attempts=[ReflectionAttempt.from_dict(a) for a in d.get("reflection_attempts") or []],
            final_answer=d.get("final_answer"),
            stop_reason=d.get("stop_reason"),
            confidence=d.get("confidence"),
            executed_steps=[PlanStep.from_dict(s) for s in d.get("executed_steps") or []],
            meta=dict(d.get("meta") or {}),
        )


@dataclass
class ReasoningEvent:
    timestamp: str
    session_id: str
    event_type: Literal["planning", "execution", "reflection", "verification", "respond"]
    goal: str
    step_num: Optional[int] = None
    step_description: Optional[str] = None
    tool: Optional[str] = None
    tool_input: Optional[str] = None
    outcome_status: Optional[str] = None  # "success", "failure", "skipped" (a plan step not run); a stop reason
    stdout: Optional[str] = None
    stderr: Optional[str] = None
    returncode: Optional[int] = None
    error: Optional[str] = None
    llm_critique: Optional[str] = None
    context_used: Optional[str] = None  # RAG / experience context
    meta: Dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> Dict[str, Any]:
        d = {f.name: getattr(self, f.name) for f in fields(self)}
        d["meta"] = dict(self.meta)
        return d

    @classmethod
    def from_dict(cls, data: Dict[str, Any]) -> "ReasoningEvent":
        d = _require(data, "ReasoningEvent", "timestamp", "session_id", "event_type", "goal")
        out = cls(**_known(cls, d))
        out.meta = dict(out.meta or {})
        return out
