"""``reasoning.plan_format: text``: the plan written as a code block of commands.

The scripted model stands in for the planner (our parsing and stop logic); the text format's
effect on real plans is measured by the three-set eval (docs/RESULTS.md).
"""

from __future__ import annotations

import pytest

from ragix_core.config.reasoning import ReasoningConfig
from ragix_core.core.types import TaskComplexity
from ragix_core.reasoning_v30.graph import StopRun
from ragix_core.reasoning_v30.replies import plan_from_text
from tests.reasoning_v30.test_agent_fns import fns
from tests.scripted_llm import ScriptedLLM

TEXT_PLAN = ("Here is the plan.\n```sh\n# the line count of every Markdown file\n"
             "find . -name '*.md' | xargs wc -l | sort -n\n# where TODO is written\ngrep -rn 'TODO' .\n```\n"
             "This lists the files.")


def test_a_text_plan_becomes_the_plans_steps():
    llm = ScriptedLLM([TEXT_PLAN])
    f = fns(llm, plan_format="text")
    f.last_complexity = TaskComplexity.MODERATE
    plan = f.parse_plan(f.generate_plan("Which Markdown file is longest?", ""), "Which Markdown file is longest?")
    assert [(s.num, s.description, s.tool_call.tool, s.tool_call.args["command"]) for s in plan.steps] == [
        (1, "the line count of every Markdown file", "find", "find . -name '*.md' | xargs wc -l | sort -n"),
        (2, "where TODO is written", "grep", "grep -rn 'TODO' .")]
    assert plan.objective == "Which Markdown file is longest?" and plan.confidence == 0.5
    call = llm.calls[0]
    assert call["schema"] is None and call["max_tokens"] == 300  # free text, not the JSON grammar
    prompt = call["messages"][0]["content"]
    assert "```sh" in prompt and "Respond in JSON" not in prompt and "{{" not in prompt


def test_a_text_plan_keeps_the_step_budget_of_its_complexity():
    block = "```sh\n" + "\n".join(f"grep -rn 'word{i}' docs" for i in range(9)) + "\n```"
    f = fns(ScriptedLLM([block, block]), plan_format="text")
    f.last_complexity = TaskComplexity.MODERATE
    assert len(f.parse_plan(f.generate_plan("g", ""), "g").steps) == 4
    f.last_complexity = TaskComplexity.COMPLEX
    assert len(f.parse_plan(f.generate_plan("g", ""), "g").steps) == 7


def test_a_reply_without_a_command_is_asked_once_more_then_a_named_stop():
    llm = ScriptedLLM(["I would look at the files.", TEXT_PLAN])
    f = fns(llm, plan_format="text")
    assert len(f.parse_plan(f.generate_plan("g", ""), "g").steps) == 2
    assert llm.calls[1]["temperature"] >= 0.5  # sampled: the greedy reply would be the same

    f = fns(ScriptedLLM(["Nothing to run.", "```sh\n# no command\n```"]), plan_format="text")
    with pytest.raises(StopRun) as stop:
        f.generate_plan("g", "")
    assert stop.value.reason == "plan_generation_failed" and "no command" in str(stop.value)


def test_a_text_replan_that_repeats_a_failed_command_is_refused_like_a_json_one():
    first = "```sh\ngrep -rn 'server_port' .\n```"
    again = "```sh\ngrep -rn 'server_port' .\ngrep -rn 'port' config\n```"
    llm = ScriptedLLM([first, again])
    f = fns(llm, plan_format="text")
    f.empty_reflected.append("grep -rn 'server_port' .")
    plan = f.parse_plan(f.generate_plan("What port?", ""), "What port?")
    assert [s.tool_call.args["command"] for s in plan.steps] == ["grep -rn 'port' config"]
    assert "already failed or found nothing" in llm.calls[1]["messages"][0]["content"]


def test_plan_from_text_none_without_a_block():
    assert plan_from_text("just words", 4) is None
    assert plan_from_text("```\nls docs\n```", 4).steps[0].description == "ls docs"  # no comment: the command


def test_plan_format_is_a_checked_setting():
    assert ReasoningConfig().plan_format == "json"
    assert ReasoningConfig(plan_format="text").plan_format == "text"
    with pytest.raises(ValueError, match="plan_format"):
        ReasoningConfig(plan_format="yaml")
