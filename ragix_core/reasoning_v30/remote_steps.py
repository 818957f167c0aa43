"""Plan steps that call a tool of an MCP server (``mcp.<server>.<tool>``), for the planner and EXECUTE.

The planner is shown each remote tool with its quoted description and input schema (prompt
plan_mcp_tools.md) and may name it as a step's tool with the tool's arguments as ``args``. Such a
step goes to the tool box as that ToolCall (schema check, bounded result, TOOL_CALL event). The
worker, which writes command lines, is shown them too (worker_mcp_tools.md) and writes
``mcp.S.T {JSON}``: the tool box reads that line as the same ToolCall (ToolBox.run_command).

A server that dies, hangs or answers garbage fails its step, with the failure's name first in the
step's error: REFLECT sees it and the planner may take another route. A server that died or hung
is no longer offered to the planner or the worker; they are told it is unavailable and why
(mcp_unavailable.md). A run that ends without an answer after such a failure stops with the
failure's name (RespondNode).
"""

from __future__ import annotations

import json
from typing import Any, Dict, List, Sequence

from ragix_core import prompts
from ragix_core.core.types import PlanStep, StepStatus, ToolCall
from ragix_core.tools.mcp_tools import PREFIX

__all__ = ["is_remote", "remote_tools_block", "available_offers", "unavailable_block", "run_remote_step"]


def is_remote(tool: str) -> bool:
    return tool.startswith(PREFIX)


def available_offers(toolbox: Any) -> List[Any]:
    """The remote tools of ``toolbox`` whose server has not died or hung in this run."""
    sets = getattr(toolbox, "remote_sets", None)
    if sets is None:  # a box that only lists offers (unit tests)
        return list(getattr(toolbox, "remote_offers", []) or [])
    return [offer for s in sets if s.unavailable is None for offer in s.offers()]


def unavailable_block(toolbox: Any) -> str:
    """What the planner and the worker are told of the servers that died or hung: "" when none did."""
    down = [f"- {PREFIX}{s.server}: {s.unavailable}" for s in getattr(toolbox, "remote_sets", None) or []
            if s.unavailable is not None]
    return prompts.render("mcp_unavailable", server_list="\n".join(down)) if down else ""


def remote_tools_block(offers: Sequence[Any], prompt: str = "plan_mcp_tools", toolbox: Any = None) -> str:
    """The part of the planner's prompt (or, with ``prompt="worker_mcp_tools"``, of the worker's
    command request) for the run's remote tools; "" when there are none. With ``toolbox``, the
    servers that died or hung in this run are named after them."""
    down = unavailable_block(toolbox) if toolbox is not None else ""
    if not offers:
        return down
    lines = [f"- {o.name}: {json.dumps(o.description, ensure_ascii=False)}; input schema: "
             f"{json.dumps(o.input_schema, ensure_ascii=False, sort_keys=True)}" for o in offers]
    return prompts.render(prompt, tool_list="\n".join(lines)) + down


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
    return step
