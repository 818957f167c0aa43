"""The hostile MCP server (hostile_server.py) failing in the middle of a run: it dies, hangs, or
answers garbage. Each failure is a failed step whose error names it; REFLECT sees it and the
replan may take another route. A server that died or hung is not offered again, a later call to
it is refused with that failure and no second process is started; a run that finds no other
way ends with the failure's name as its stop reason."""

from __future__ import annotations

import pytest

from ragix_core.core.events import EventKind
from ragix_core.core.types import StepStatus
from tests.mcp.conftest import needs_bwrap
from tests.mcp.routed_model import plan_of
from tests.mcp.test_hostile_server import project, run, server_processes  # noqa: F401 (a fixture)

pytestmark = needs_bwrap

ECHO = {"description": "ask the echo tool", "tool": "mcp.hostile.echo", "args": {"text": "hi"}}
ECHO_AGAIN = {"description": "ask the echo tool again", "tool": "mcp.hostile.echo", "args": {"text": "again"}}
READ = {"description": "read the notes", "tool": "cat", "args": {"command": "cat notes.txt"}}
UNAVAILABLE = "unavailable until it ends"  # prompts/mcp_unavailable.md, as the planner reads it
# mode -> the failure's name; garbage_call writes a line that is not JSON-RPC in place of the reply:
# the SDK drops it, and no MCP answer comes before the server's timeout.
FAILURES = [("die", "mcp_server_died"), ("hang", "mcp_server_timeout"), ("garbage_call", "mcp_server_timeout"),
            ("bad_reply", "mcp_bad_reply")]
# A server that died or hung is unavailable for the rest of the run; one bad reply breaks only its call.
DOWN_AFTER = {"die", "hang", "garbage_call"}


# The main path hands a failed goal to PLAN only when asked to (reasoning.plan_after_failure, off by default).
PLAN_AFTER_FAILURE = {"plan_after_failure": True}


def _starts(capfd) -> int:
    return capfd.readouterr().err.count("hostile server started")


def _reflect_prompts(model) -> list:
    return [p for p in model.prompts if "What ragix found about the failure" in p]


def _calls(res) -> list:
    return [e.data for e in res.events if e.kind == EventKind.TOOL_CALL and e.data["tool"].startswith("mcp.")]


@pytest.mark.parametrize("mode, kind", FAILURES)
def test_a_server_failure_is_a_failed_step_reflect_sees_and_the_replan_routes_around(project, capfd, mode, kind):
    res, model, _ = run(project, mode, plans=[plan_of(ECHO), plan_of(READ)])
    trace, steps = res.node_trace, res.state.executed_steps
    assert trace[trace.index("EXECUTE") + 1] == "REFLECT", trace  # not a stop: REFLECT is next
    failed = steps[0]
    assert failed.status == StepStatus.FAILED and failed.result.error.startswith(f"{kind}: server 'hostile'")
    reflected = _reflect_prompts(model)
    assert reflected and kind in reflected[0], "REFLECT was not shown the failure's name"
    replan = model.planner_prompts()[1]
    if mode in DOWN_AFTER:  # not offered again, and said why
        assert "- mcp.hostile.echo:" not in replan and UNAVAILABLE in replan and f"mcp.hostile: {kind}" in replan
    else:
        assert "- mcp.hostile.echo:" in replan and UNAVAILABLE not in replan
    assert steps[1].tool_call.args["command"] == "cat notes.txt" and steps[1].result.stdout == "the notes\n"
    assert res.state.stop_reason == "success", (res.state.stop_reason, res.state.last_error)
    assert _starts(capfd) == 1 and not server_processes(mode, project)


@pytest.mark.parametrize("mode, kind", FAILURES)
def test_when_no_other_route_works_the_run_stops_with_the_failures_name(project, capfd, mode, kind):
    res, model, _ = run(project, mode, plans=[plan_of(ECHO), plan_of(ECHO_AGAIN)])
    assert "REFLECT" in res.node_trace
    assert res.state.stop_reason == kind, (res.state.stop_reason, res.state.last_error)
    assert res.state.meta["stop_before_server_failure"] in ("max_reflections", "no_new_plan")
    assert "Partial Results" in res.state.final_answer and kind in res.state.final_answer
    first, second = _calls(res)[:2]
    assert not first["refused"] and first["reason"].startswith(kind)
    if mode in DOWN_AFTER:  # the second call never reached a server: refused with the first failure
        assert second["refused"] and second["reason"].startswith(f"{kind}: server 'hostile' is unavailable")
    else:  # a bad reply breaks its call only: the next call is made, and fails the same way
        assert not second["refused"] and second["reason"].startswith(kind)
    assert _starts(capfd) == 1, "the server was started again"
    # the run ended and the same dead call was not planned again (a replan may not repeat a failed call)
    assert [c["command"] for c in _calls(res)].count('mcp.hostile.echo {"text": "hi"}') == 1


@pytest.mark.parametrize("mode, kind", [("die", "mcp_server_died"), ("hang", "mcp_server_timeout")])
def test_on_the_main_path_a_server_failure_hands_the_goal_to_a_plan_that_reads_another_way(project, capfd,
                                                                                            mode, kind):
    res, model, _ = run(project, mode, plans=[plan_of(READ)], goal="What does the echo tool say about notes.txt?",
                        command='mcp.hostile.echo {"text": "notes.txt"}', reasoning=PLAN_AFTER_FAILURE)
    trace = res.node_trace
    assert trace[1] == "DIRECT_EXEC" and trace[2] == "PLAN", trace  # the failed one-command try escalates
    assert res.state.executed_steps[0].result.error.startswith(kind)
    plan_prompt = model.planner_prompts()[0]
    assert "- mcp.hostile.echo:" not in plan_prompt and f"mcp.hostile: {kind}" in plan_prompt
    assert any(s.result is not None and s.result.stdout == "the notes\n" for s in res.state.executed_steps)
    assert res.state.stop_reason == "success", (res.state.stop_reason, res.state.last_error)
    assert _starts(capfd) == 1


def test_on_the_main_path_by_default_a_server_failure_ends_the_run_with_its_name_and_no_plan(project):
    res, model, _ = run(project, "die", plans=[plan_of(READ)], goal="What does the echo tool say about notes.txt?",
                        command='mcp.hostile.echo {"text": "notes.txt"}')
    assert "PLAN" not in res.node_trace and res.state.stop_reason == "mcp_server_died", \
        (res.node_trace, res.state.stop_reason)
    assert not model.planner_prompts() and "Partial Results" in res.state.final_answer


def test_on_the_main_path_with_no_other_route_the_run_stops_with_the_failures_name(project):
    res, model, _ = run(project, "die", plans=[plan_of(ECHO_AGAIN)], goal="What does the echo tool say about notes.txt?",
                        command='mcp.hostile.echo {"text": "notes.txt"}', reasoning=PLAN_AFTER_FAILURE)
    assert res.node_trace[1] == "DIRECT_EXEC" and res.state.stop_reason == "mcp_server_died", \
        (res.node_trace, res.state.stop_reason)
    refused = [c for c in _calls(res) if c["refused"]]
    assert refused and all("is unavailable for the rest of this run" in c["reason"] for c in refused)
