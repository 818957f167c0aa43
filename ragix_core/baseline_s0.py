"""Baselines: ``s0``, the plain call a user could make without ragix, and ``s0_json``, its JSON variant.

Spec 002 §11 lists S0 ("brute force, no reasoning") as the reference every engine is compared with.
``s0`` is the strongest plain call: the same free-text request the main path's worker gets
(llm/command_prompt.py), the first fenced command of the reply, run once through the same
confined tool box, and one answer written from its output (head and tail of a long one). No vote,
no retry, no mend, no binding, no plan, no memory: what a report shows against it is what ragix adds.
A command refused only for a form bash runs (`find … -exec X {} +`, `X $(Y)`) is run in the form ragix
runs with the same meaning (evidence/steps.py ``SAME_MEANING``), since outside ragix it would have run.

``s0_json`` asks for the command as JSON (``{"command": ...}``) under a schema, as s0 did before the
main path; kept, named as such, because earlier reports were measured against it (this model handles
JSON commands badly: it escapes quotes wrongly, so more of them are refused).
"""

from __future__ import annotations

from typing import Any, Callable, Tuple

from pydantic import BaseModel, Field, field_validator

from ragix_core import prompts
from ragix_core.core.text import bounded, json_command
from ragix_core.core.types import PlanStep, ReasoningState, StepStatus, ToolCall
from ragix_core.evidence.excerpt import excerpt
from ragix_core.evidence.steps import EVIDENCE_CHARS, SAME_MEANING, evidence_block, run_command_step, step_output
from ragix_core.llm.structured import ask_json, ask_text
from ragix_core.reasoning_v30.build import make_emitter
from ragix_core.llm.command_prompt import ask_free_command, command_request
from ragix_core.reasoning_v30.graph import BaseNode, ReasoningGraph
from ragix_core.reasoning_v30.nodes import RespondNode, execute_step
from ragix_core.evidence.path_hints import project_listing
from ragix_core.tools.policy import MODEL_COMMANDS, STRUCTURED_TOOLS

__all__ = ["s0", "s0_json", "S0CommandNode", "S0Command", "plain_output"]


class S0Command(BaseModel):
    command: str = Field(min_length=1, max_length=400)

    @field_validator("command")
    @classmethod
    def _unescaped(cls, command: str) -> str:
        return json_command(command)


def _tools(toolbox: Any) -> list:
    """The profile's programs; not ragix's own commands designed for the model (a plain call
    without ragix has none: they are part of what a report measures against it)."""
    return [t for t in (getattr(toolbox, "allowed_tools", []) or []) if t not in STRUCTURED_TOOLS + MODEL_COMMANDS]


class S0CommandNode(BaseNode):
    """Ask the worker for one command and run it; the step is the run's only evidence.
    ``ask(goal) -> command`` is the plain free-text request or the JSON one."""

    name = "COMMAND"

    def __init__(self, ask: Callable[[str], str], toolbox: Any, emit: Any):
        self.ask, self.toolbox, self.emit = ask, toolbox, emit

    def run(self, state: ReasoningState) -> Tuple[ReasoningState, str]:
        command = self.ask(state.goal)
        step = PlanStep(num=1, description="s0: one model-written command",
                        tool_call=ToolCall("shell", {"command": command.strip()}))

        def run(s: PlanStep, _state: ReasoningState) -> PlanStep:
            fix = run_command_step(self.toolbox, s, self.toolbox.root)
            if fix is not None and fix.kind in SAME_MEANING:
                # Refused here only for its form (`find … -exec X {} +`, `X $(Y)`), which bash runs: a user
                # without ragix gets its output, so the plain call does too. No other mend is run.
                s.tool_call = ToolCall("shell", {"command": fix.command, fix.key: fix.note, "planned": command})
                run_command_step(self.toolbox, s, self.toolbox.root)
            return s

        state.executed_steps.append(execute_step(run, step, state, self.emit))
        return state, "RESPOND"


def plain_output(steps: list) -> str:
    """The command and its output as a user would paste them: head and tail of a long output."""
    parts = []
    for s in steps:
        status = "" if s.status == StepStatus.SUCCESS else f"   [failed, exit code {s.result.returncode if s.result else '?'}]"
        out = excerpt(step_output(s, limit=1 << 20), "", EVIDENCE_CHARS)
        parts.append(f"$ {s.tool_call.args.get('command')}{status}\n{out or '(no output)'}")
    return "\n\n".join(parts) or "(no command was run)"


def _graph(ctx: Any, ask: Callable[[str], str], evidence: Callable[[ReasoningState], str]) -> ReasoningGraph:
    worker = ctx.roles.get("worker")
    emit = make_emitter(ctx.bus)  # no memory: s0 neither reads nor writes experience

    def answer(state: ReasoningState) -> str:
        text = prompts.render("s0_answer", goal=bounded(state.goal, 2000), evidence=evidence(state))
        return ask_text(worker, [{"role": "user", "content": text}], max_tokens=300).text.strip()

    nodes = {"COMMAND": S0CommandNode(ask, ctx.toolbox, emit),
             "RESPOND": RespondNode(emit, compose_answer_fn=answer)}
    return ReasoningGraph(nodes, start="COMMAND", end="END", events=ctx.bus, checkpoint_path=ctx.checkpoint_path,
                          max_iterations=ctx.config.reasoning.graph.max_iterations)


def s0(ctx: Any) -> ReasoningGraph:
    """The registry's entry for ``s0``: the plain call."""
    worker, tools = ctx.roles.get("worker"), _tools(ctx.toolbox)
    listing = project_listing(ctx.toolbox.root, ctx.config.reasoning.reflect.max_context_chars)

    def ask(goal: str) -> str:
        return ask_free_command(worker, command_request(goal, tools, listing,
                                                        home_is_root=ctx.toolbox.home_is_root))

    return _graph(ctx, ask, lambda state: plain_output(state.executed_steps))


def s0_json(ctx: Any) -> ReasoningGraph:
    """The registry's entry for ``s0_json``: the command as schema-constrained JSON, the engines'
    excerpt of its output (s0 before the main path)."""
    worker, tools = ctx.roles.get("worker"), _tools(ctx.toolbox)

    def ask(goal: str) -> str:
        system = prompts.render("s0_command", tools=", ".join(tools) or "(none)")
        reply, _ = ask_json(worker, [{"role": "system", "content": system},
                                     {"role": "user", "content": bounded(goal, 4000)}],
                            S0Command, stop_reason="command_generation_failed", max_tokens=160)
        return reply.command

    return _graph(ctx, ask, lambda state: evidence_block(state.executed_steps, state.goal))
