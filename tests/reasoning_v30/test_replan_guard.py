"""A replan may not run again a command that already failed, also when compaction builds it."""

from __future__ import annotations

import pytest

from ragix_core.core.types import PlanStep, StepStatus, ToolCall
from ragix_core.reasoning_v30.graph import StopRun
from tests.reasoning_v30.test_agent_fns import fns
from tests.scripted_llm import ScriptedLLM


def _plan(*commands):
    return {"objective": "o", "validation": "v", "confidence": 0.5,
            "steps": [{"num": i, "description": "d", "tool": c.split()[0], "args": {"command": c}}
                      for i, c in enumerate(commands, 1)]}


def _failed(command, status=StepStatus.FAILED):
    step = PlanStep(1, "d", ToolCall("shell", {"command": command}))
    step.status = status
    return step


def test_split_steps_compacted_into_a_failed_pipeline_are_dropped():
    # measured (missing-setup-py-1, d506eb6): `touch setup.py` and `cat setup.py` (a missing file, so it
    # reads stdin) were joined into the refused `touch setup.py | cat setup.py` in three plans in a row
    f = fns(ScriptedLLM([]))
    f.failed.append(_failed("touch setup.py | cat setup.py"))
    plan = f.parse_plan(_plan("find . -name 'setup.py'", "touch setup.py", "cat setup.py"), "g")
    assert [(s.num, s.tool_call.args["command"]) for s in plan.steps] == [(1, "find . -name 'setup.py'")]


def test_a_plan_of_nothing_but_a_failed_pipeline_is_no_new_plan():
    f = fns(ScriptedLLM([]))
    f.failed.append(_failed("touch setup.py | cat setup.py"))
    with pytest.raises(StopRun) as stop:
        f.parse_plan(_plan("touch setup.py", "cat setup.py"), "g")
    assert stop.value.reason == "no_new_plan"


def test_a_command_that_failed_then_was_fixed_may_run_again():
    f = fns(ScriptedLLM([]))
    f.failed.append(_failed("grep -rn 'x' docs", status=StepStatus.SUCCESS))  # its fix succeeded
    assert len(f.parse_plan(_plan("grep -rn 'x' docs"), "g").steps) == 1
