"""Baseline ``s0``: one model-written command, run it, one answer from its output.

Spec 002 §11 lists S0 ("brute force, no reasoning") as the reference every
engine is compared with. It is built from the same ``RunContext`` as the
engines — the profile's tools and confinement, the worker role, the same
judgement of a command's result (no-match, close-name hints) and the same
excerpt of its output — and ends through the same RESPOND, so the difference
in a report is the reasoning, nothing else. It has no classifier, no plan, no
recovery and no memory.
"""

from __future__ import annotations

from typing import Any, Tuple

from pydantic import BaseModel, Field, field_validator

from ragix_core import prompts
from ragix_core.core.text import bounded, json_command
from ragix_core.core.types import PlanStep, ReasoningState, ToolCall
from ragix_core.evidence.steps import evidence_block, run_command_step
from ragix_core.llm.structured import ask_json, ask_text
from ragix_core.reasoning_v30.build import make_emitter
from ragix_core.reasoning_v30.graph import BaseNode, ReasoningGraph
from ragix_core.reasoning_v30.nodes import RespondNode, execute_step
from ragix_core.tools.policy import STRUCTURED_TOOLS

__all__ = ["s0", "S0CommandNode", "S0Command"]


class S0Command(BaseModel):
    command: str = Field(min_length=1, max_length=400)

    @field_validator("command")
    @classmethod
    def _unescaped(cls, command: str) -> str:
        return json_command(command)


class S0CommandNode(BaseNode):
    """Ask the worker for one command and run it; the step is the run's only evidence."""

    name = "COMMAND"

    def __init__(self, worker: Any, toolbox: Any, emit: Any):
        self.worker, self.toolbox, self.emit = worker, toolbox, emit
        self.tools = [t for t in (getattr(toolbox, "allowed_tools", []) or []) if t not in STRUCTURED_TOOLS]

    def run(self, state: ReasoningState) -> Tuple[ReasoningState, str]:
        system = prompts.render("s0_command", tools=", ".join(self.tools) or "(none)")
        reply, _ = ask_json(self.worker, [{"role": "system", "content": system},
                                          {"role": "user", "content": bounded(state.goal, 4000)}],
                            S0Command, stop_reason="command_generation_failed", max_tokens=160)
        step = PlanStep(num=1, description="s0: one model-written command",
                        tool_call=ToolCall("shell", {"command": reply.command.strip()}))

        def run(s: PlanStep, _state: ReasoningState) -> PlanStep:
            run_command_step(self.toolbox, s, self.toolbox.root)
            return s

        state.executed_steps.append(execute_step(run, step, state, self.emit))
        return state, "RESPOND"


def s0(ctx: Any) -> ReasoningGraph:
    """The registry's entry for ``s0``."""
    worker = ctx.roles.get("worker")
    emit = make_emitter(ctx.bus)  # no memory: s0 neither reads nor writes experience

    def answer(state: ReasoningState) -> str:
        text = prompts.render("s0_answer", goal=bounded(state.goal, 2000),
                              evidence=evidence_block(state.executed_steps, state.goal))
        return ask_text(worker, [{"role": "user", "content": text}], max_tokens=300).text.strip()

    nodes = {"COMMAND": S0CommandNode(worker, ctx.toolbox, emit),
             "RESPOND": RespondNode(emit, compose_answer_fn=answer)}
    return ReasoningGraph(nodes, start="COMMAND", end="END", events=ctx.bus,
                          max_iterations=ctx.config.reasoning.graph.max_iterations)
