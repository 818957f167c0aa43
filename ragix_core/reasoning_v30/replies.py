"""The shapes of the model's replies, validated with pydantic (and given to the backend as a
JSON Schema for constrained decoding). The plan's schema is built per run: its tool enum is
exactly what the active profile allows."""

from __future__ import annotations

from typing import Any, Dict, List, Literal, Optional, Sequence

from pydantic import BaseModel, Field, field_validator

from ragix_core.core.text import bounded, json_command
from ragix_core.llm.codeblock import extract_commands

__all__ = ["ClassifyReply", "AnswerReply", "CommandReply", "REFLECT_FIELD_CHARS", "REFLECT_MAX_TOKENS", "ReflectReply",
           "VerifyReply", "PlanStepReply", "PlanReply", "PLAN_TEXT_MAX_TOKENS", "plan_from_text", "plan_schema"]


class ClassifyReply(BaseModel):
    complexity: Literal["BYPASS", "SIMPLE", "MODERATE", "COMPLEX"]


class AnswerReply(BaseModel):
    answer: str = Field(min_length=1, max_length=8000)
    confidence: float = Field(ge=0, le=1)


class CommandReply(BaseModel):
    command: str = Field(min_length=1, max_length=1000)

    @field_validator("command")
    @classmethod
    def _unescaped(cls, command: str) -> str:
        return json_command(command)


# What the grammar lets the embedded model write in each REFLECT field: both fit in REFLECT_MAX_TOKENS
# with the JSON around them, so a verbose reflection is cut short instead of left unclosed (measured
# at 3e65034: 2 of 15 replies ran past 400 tokens, were not JSON, and cost a repair call each). A
# backend that does not enforce it is still accepted up to 4000 characters.
REFLECT_FIELD_CHARS = 900
REFLECT_MAX_TOKENS = 700


class ReflectReply(BaseModel):
    diagnosis: str = Field(max_length=4000, json_schema_extra={"maxLength": REFLECT_FIELD_CHARS})
    new_plan_summary: str = Field(max_length=4000, json_schema_extra={"maxLength": REFLECT_FIELD_CHARS})


class VerifyReply(BaseModel):
    verdict: Literal["pass", "fail"]
    issues: str = Field(default="", max_length=4000)
    answer: str = Field(min_length=1, max_length=8000)
    confidence: float = Field(ge=0, le=1)


# A plan's strings are bounded by the grammar (the embedded backend enforces maxLength) so that a
# runaway string is closed instead of cut by max_tokens: measured at 8f9031a, AgentBench test-61's first
# command enumerated `touch logs/2021-01-01.log logs/2021-01-02.log ...` until the 700 tokens ran out,
# twice, and the run ended plan_generation_failed. Of 1,978 planned commands in the stored traces the
# longest sound one had 278 characters, the only longer one (627) was a runaway grep chain; the longest
# description had 305.
PLAN_COMMAND_CHARS = 400
PLAN_TEXT_CHARS = 400
# A text plan is its commands and a comment each (~20 tokens a step at most steps); 300 leaves room
# for seven steps, and a reply cut there still yields the commands before the cut.
PLAN_TEXT_MAX_TOKENS = 300


def plan_schema(tools: List[str], max_steps: int, remote: Sequence[str] = ()) -> Dict[str, Any]:
    """The plan's JSON Schema; the tool enum is exactly what the active profile allows. With
    ``remote`` (MCP) tools, whose args are their own arguments, ``args.command`` is not required."""
    def text() -> Dict[str, Any]:  # a fresh dict each time: callers may edit the schema they get
        return {"type": "string", "maxLength": PLAN_TEXT_CHARS}

    return {
        "type": "object",
        "properties": {
            "objective": text(),
            "steps": {
                "type": "array",
                "minItems": 1,
                "maxItems": max_steps,
                "items": {
                    "type": "object",
                    "properties": {
                        "num": {"type": "integer"},
                        "description": text(),
                        "tool": {"type": "string", "enum": sorted(set(tools) | set(remote)) + ["none"]},
                        "args": {
                            "type": "object",
                            "properties": {"command": {"type": "string", "maxLength": PLAN_COMMAND_CHARS}},
                            "required": [] if remote else ["command"],
                        },
                    },
                    "required": ["num", "description", "tool", "args"],
                },
            },
            "validation": text(),
            "confidence": {"type": "number", "minimum": 0, "maximum": 1},
        },
        "required": ["objective", "steps", "validation", "confidence"],
    }


class PlanStepReply(BaseModel):
    num: int
    description: str = Field(min_length=1, max_length=1000)
    tool: str
    args: Dict[str, Any] = Field(default_factory=dict)

    @field_validator("args")
    @classmethod
    def _unescaped(cls, args: Dict[str, Any]) -> Dict[str, Any]:
        return {k: json_command(v) if k == "command" else v for k, v in args.items()}


class PlanReply(BaseModel):
    objective: str = Field(max_length=2000)
    steps: List[PlanStepReply] = Field(min_length=1, max_length=10)
    validation: str = Field(default="", max_length=2000)
    confidence: float = Field(default=0.5, ge=0, le=1)


def plan_from_text(text: str, max_steps: int) -> Optional[PlanReply]:
    """A plan written as a code block of commands (plan_text.md), as the plan JSON's reply: one
    step a command, its ``#`` comment the description, the command's first word the step's tool
    (the executor checks it; parse_plan's with_tool_name only fills a missing one). The reply
    states no objective, validation or confidence: the goal, "" and 0.5 (the schema's default)
    stand in. None when the reply holds no command in a code block."""
    found = extract_commands(text, max_steps)
    if not found:
        return None
    steps = [PlanStepReply(num=i, description=bounded(comment or command, PLAN_TEXT_CHARS),
                           tool=command.split(None, 1)[0], args={"command": command})
             for i, (comment, command) in enumerate(found, 1)]
    return PlanReply(objective="", steps=steps)
