"""Spec 002 §4.4's node functions in every form the nodes accept: sync or async, spec 002's
signatures or spec 000's, through ``graph.run`` or ``await graph.arun``; and GraphBuilder's errors."""

from __future__ import annotations

import asyncio
import functools

import pytest

from ragix_core.reasoning_v30 import (
    ClassifyNode, DirectExecNode, ExecuteNode, GraphBuilder, Plan, PlanNode, PlanStep, ReasoningState,
    ReflectNode, RespondNode, TaskComplexity, ToolCall, ToolResult, VerifyNode,
)
from ragix_core.reasoning_v30.graph import GraphError


class _NoMemory:
    def search(self, query, top_k=5):
        return ""


def _plan(raw, goal):
    return Plan(objective=goal, steps=[PlanStep(1, "echo", ToolCall("shell", {"command": raw}))])


def _graph(make, verdict=True):
    """The quick start's graph with every function made by ``make`` (identity: sync; async wrapper)."""
    return (GraphBuilder()
            .add_node(ClassifyNode(make(lambda q: TaskComplexity.COMPLEX if "plan" in q else TaskComplexity.BYPASS)))
            .add_node(DirectExecNode(make(lambda q: f"hello: {q}")))
            .add_node(PlanNode(make(lambda q, ctx: "echo 42"), make(_plan)))
            .add_node(ExecuteNode(make(lambda step: ToolResult("shell", 0, stdout="42\n", command="echo 42"))))
            .add_node(ReflectNode(make(lambda state: "unused"), _NoMemory(), make(lambda cmd: "")))
            .add_node(VerifyNode(make(lambda answer, goal: verdict and "42" in answer)))
            .add_node(RespondNode())
            .build())


def _sync(fn):
    return fn


def _async(fn):
    @functools.wraps(fn)  # the nodes tell the forms apart by the signature: keep fn's
    async def wrapped(*args):
        await asyncio.sleep(0)
        return fn(*args)
    return wrapped


@pytest.mark.parametrize("make", [_sync, _async], ids=["sync", "async"])
def test_a_plan_runs_with_sync_and_async_functions(make):
    graph = _graph(make)
    final = graph.run(ReasoningState(goal="plan the answer", session_id="s"))
    assert final.stop_reason == "success"
    assert graph.trace == ["CLASSIFY", "PLAN", "EXECUTE", "VERIFY", "RESPOND"]
    assert "42" in final.final_answer and final.executed_steps[0].result.stdout == "42\n"


@pytest.mark.parametrize("make", [_sync, _async], ids=["sync", "async"])
def test_a_string_answer_is_the_answer(make):
    final = _graph(make).run(ReasoningState(goal="hi", session_id="s"))
    assert (final.final_answer, final.stop_reason) == ("hello: hi", "success")


def test_a_false_verdict_fails_verification():
    final = _graph(_async, verdict=False).run(ReasoningState(goal="plan it", session_id="s"))
    assert final.stop_reason == "verification_failed"
    assert "rejected" in final.last_error


def test_arun_awaits_the_functions_on_the_callers_loop():
    loops = []

    def make(fn):
        @functools.wraps(fn)
        async def wrapped(*args):
            loops.append(asyncio.get_running_loop())
            return fn(*args)
        return wrapped

    async def main():
        final = await _graph(make).arun(ReasoningState(goal="plan it", session_id="s"))
        return final, asyncio.get_running_loop()

    final, caller = asyncio.run(main())
    assert final.stop_reason == "success"
    assert loops and all(loop is caller for loop in loops)


def test_one_loop_serves_a_whole_run():
    loops = []

    def make(fn):
        @functools.wraps(fn)
        async def wrapped(*args):
            loops.append(asyncio.get_running_loop())
            return fn(*args)
        return wrapped

    _graph(make).run(ReasoningState(goal="plan it", session_id="s"))
    assert len(loops) >= 5 and len(set(map(id, loops))) == 1


def test_run_inside_an_event_loop_names_arun():
    async def main():
        return _graph(_async).run(ReasoningState(goal="plan it", session_id="s"))

    final = asyncio.run(main())
    assert final.stop_reason == "node_exception:CLASSIFY"
    assert "await graph.arun(state)" in final.last_error


def test_builder_refuses_a_node_twice_and_a_non_node():
    builder = GraphBuilder().add_node(RespondNode())
    with pytest.raises(GraphError, match="already has a RESPOND node"):
        builder.add_node(RespondNode())
    with pytest.raises(GraphError, match="takes a node.*got function"):
        builder.add_node(lambda state: state)
    with pytest.raises(GraphError, match="start node 'CLASSIFY' is not in the graph"):
        builder.build()


def test_spec_000_forms_still_work_through_the_builder():
    """The 8.3 test's functions (dict answers, two-argument steps) in the builder's graph."""
    graph = (GraphBuilder()
             .add_node(ClassifyNode(lambda g: TaskComplexity.BYPASS))
             .add_node(DirectExecNode(lambda goal: {"answer": "dummy", "confidence": 0.8}))
             .add_node(RespondNode(lambda ev: None))
             .build())
    final = graph.run(ReasoningState(goal="Explain", session_id="t"))
    assert (final.final_answer, final.confidence, final.stop_reason) == ("dummy", 0.8, "success")
