"""Baseline ``s0``: one model-written command, run it, one answer from its output.

Spec 002 §11 lists S0 ("brute force, no reasoning") as the reference every
engine is compared with. Here it gets the same tools and confinement as the
engines (``ToolBox`` with the read-only ``reflect`` profile) and the same
worker model, so the difference in a report is the reasoning, nothing else.
It has the signature of ``ragix_core.runner.run_goal`` and returns the same
kind of result, so the harness measures it exactly like an engine.

The LLM layer and the tool box are imported lazily: this module must import
(and its logic be tested with injected doubles) wherever they are missing.
"""

from __future__ import annotations

import time
import uuid
from pathlib import Path
from typing import Any, Callable, Dict, List, Optional

from ragix_core import prompts
from ragix_core.core.events import Event, EventBus, EventKind
from ragix_core.core.types import PlanStep, ReasoningState, StepStatus, ToolCall, ToolResult

__all__ = ["run_s0", "make_s0_runner", "COMMAND_SCHEMA"]

COMMAND_SCHEMA: Dict[str, Any] = {
    "type": "object",
    "properties": {"command": {"type": "string", "maxLength": 400}},
    "required": ["command"],
}
_OUTPUT_CHARS = 6000  # what of the command's output the answer prompt sees


def _worker_client(config: Any, model: Optional[str], bus: EventBus, session_id: str) -> Any:
    from ragix_core.llm.config import LLMConfig
    from ragix_core.llm.roles import Roles

    if config is None:
        from ragix_core.config import load_config

        config = load_config()  # same lookup as run_goal: ./ragix.yaml, then $RAGIX_HOME
    llm_cfg = getattr(config, "llm", None) or LLMConfig()
    if model:
        llm_cfg = llm_cfg.model_copy(deep=True)
        llm_cfg.default.model = model
        llm_cfg.worker.model = None  # --model means every role
    return Roles(llm_cfg, bus=bus, session_id=session_id).get("worker")


def _toolbox(cwd: Path, bus: EventBus, session_id: str, profile: Optional[str]) -> Any:
    from ragix_core.tools import ToolBox

    return ToolBox(cwd, profile="reflect", events=bus, session_id=session_id)


def _extract_command(completion: Any) -> str:
    """The command from an untrusted reply: the JSON field, else the first non-empty text line."""
    data = getattr(completion, "data", None)
    if isinstance(data, dict) and isinstance(data.get("command"), str):
        return data["command"].strip()
    text = str(getattr(completion, "text", "") or "")
    for line in text.splitlines():
        line = line.strip().strip("`").strip()
        if line and not line.startswith("{"):
            return line
    return ""


def make_s0_runner(client_factory: Callable[..., Any] = _worker_client,
                   toolbox_factory: Callable[..., Any] = _toolbox) -> Callable[..., Any]:
    """A ``run_goal``-compatible runner; tests inject a scripted client and a fake tool box."""

    def run_s0(goal: str, *, cwd: Path, config: Any = None, strategy: Optional[str] = None,
               model: Optional[str] = None, corpus: Any = None, events: Optional[EventBus] = None,
               profile: Optional[str] = None, **_: Any) -> Any:
        started = time.monotonic()
        session_id = f"s0-{uuid.uuid4().hex[:12]}"
        bus = events or EventBus()
        collected: List[Event] = []
        unsubscribe = bus.subscribe(collected.append)
        state = ReasoningState(goal=goal, session_id=session_id)
        state.meta["strategy"] = "s0"
        state.meta["complexity_classified"] = False  # s0 has no classifier
        usage = {"llm_calls": 0, "prompt_tokens": 0, "completion_tokens": 0}

        def ask(messages: List[Dict[str, str]], **kw: Any) -> Any:
            reply = client.complete(messages, **kw)
            usage["llm_calls"] += 1
            usage["prompt_tokens"] += int(getattr(reply.usage, "prompt_tokens", 0) or 0)
            usage["completion_tokens"] += int(getattr(reply.usage, "completion_tokens", 0) or 0)
            return reply

        bus.publish(EventKind.RUN_START, session_id, goal=goal, strategy="s0")
        try:
            client = client_factory(config, model, bus, session_id)
            reply = ask([{"role": "system", "content": prompts.load("s0_command").strip()}, {"role": "user", "content": goal}],
                        schema=COMMAND_SCHEMA, max_tokens=160)
            command = _extract_command(reply)
            step = PlanStep(num=1, description="s0: one model-written command",
                            tool_call=ToolCall("shell", {"command": command}))
            if command:
                n_calls = sum(e.kind == EventKind.TOOL_CALL for e in collected)
                result: ToolResult = toolbox_factory(cwd, bus, session_id, profile).run_command(command)
                if sum(e.kind == EventKind.TOOL_CALL for e in collected) == n_calls:
                    # The tool box did not publish: record the call so the trace shows what ran.
                    bus.publish(EventKind.TOOL_CALL, session_id, tool=result.tool, command=command, argv=None,
                                returncode=result.returncode, refused=result.refused)
                step.result = result
                step.status = StepStatus.SUCCESS if result.ok else StepStatus.FAILED
                output = (result.stdout or "") + (("\n[stderr]\n" + result.stderr) if result.stderr else "")
                if result.refused:
                    output = f"[refused] {result.error or result.stderr}"
            else:
                step.status = StepStatus.FAILED
                output = "(the model wrote no command)"
            state.executed_steps.append(step)
            bus.publish(EventKind.STEP_EXECUTED, session_id, step=step.to_dict())
            answer = ask([
                {"role": "system", "content": prompts.load("s0_answer").strip()},
                {"role": "user", "content": f"Request: {goal}\n\n$ {command or '(no command)'}\n"
                                            f"{output[:_OUTPUT_CHARS]}\n\nAnswer to the request:"},
            ], max_tokens=300)
            state.final_answer = str(answer.text or "").strip()
            state.stop_reason = "success" if state.final_answer else "respond_failed"
        except Exception as exc:  # LLM/tool failure: a finished run with a reason, like the engines
            state.stop_reason = f"s0_failed: {type(exc).__name__}: {exc}"
            state.last_error = str(exc)
        finally:
            bus.publish(EventKind.RUN_END, session_id, stop_reason=state.stop_reason)
            unsubscribe()
        return _result(state, session_id, time.monotonic() - started, collected, usage)

    return run_s0


def _result(state: ReasoningState, session_id: str, wall: float, events: List[Event], usage: Dict[str, int]) -> Any:
    from ragix_core.runner import RunResult

    return RunResult(state=state, session_id=session_id, wall_time=wall, strategy="s0", trace_path=None,
                     events=events, usage=usage)


run_s0 = make_s0_runner()
