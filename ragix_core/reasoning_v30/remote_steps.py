"""Plan steps that call a tool of an MCP server (``mcp.<server>.<tool>``), for the planner and EXECUTE.

The planner is shown each remote tool with its quoted description and input schema (prompt
plan_mcp_tools.md) and may name it as a step's tool with the tool's arguments as ``args``. Such a
step goes to the tool box as that ToolCall (schema check, bounded result, TOOL_CALL event); a
server failure ends the run with the failure's name as its stop reason. The worker, which writes
command lines, is shown them too (worker_mcp_tools.md) and writes ``mcp.S.T {JSON}``: the tool box
reads that line as the same ToolCall (ToolBox.run_command).
"""

from __future__ import annotations

import json
from typing import Any, Dict, List, Sequence

from ragix_core import prompts
from ragix_core.core.stop import StopRun
from ragix_core.core.types import PlanStep, StepStatus, ToolCall
from ragix_core.tools.mcp_tools import PREFIX, failure_kind

__all__ = ["is_remote", "remote_tools_block", "run_remote_step"]


def is_remote(tool: str) -> bool:
    return tool.startswith(PREFIX)


def remote_tools_block(offers: Sequence[Any], prompt: str = "plan_mcp_tools") -> str:
    """The part of the planner's prompt (or, with ``prompt="worker_mcp_tools"``, of the worker's
    command request) for the run's remote tools; "" when there are none."""
    if not offers:
        return ""
    lines = [f"- {o.name}: {json.dumps(o.description, ensure_ascii=False)}; input schema: "
             f"{json.dumps(o.input_schema, ensure_ascii=False, sort_keys=True)}" for o in offers]
    return prompts.render(prompt, tool_list="\n".join(lines))


def _arguments(args: Dict[str, Any], schema: Dict[str, Any]) -> Dict[str, Any]:
    """The plan step's args as the tool's arguments: the plan schema's own ``command`` key is left
    out unless the tool declares one."""
    declared: List[str] = list((schema.get("properties") or {}).keys())
    return {k: v for k, v in args.items() if k != "command" or "command" in declared}


def run_remote_step(toolbox: Any, step: PlanStep) -> PlanStep:
    call = step.tool_call
    assert call is not None
    offers = {o.name: o for o in getattr(toolbox, "remote_offers", [])}
    schema = offers[call.tool].input_schema if call.tool in offers else {}
    step.tool_call = ToolCall(call.tool, _arguments(dict(call.args), schema))
    step.result = toolbox.run(step.tool_call)
    step.status = StepStatus.SUCCESS if step.result.ok else StepStatus.FAILED
    kind = failure_kind(step.result)
    if kind:
        raise StopRun(kind, step.result.error or kind)
    return step
