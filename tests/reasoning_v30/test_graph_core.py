"""The hardened graph: errors, budgets, events, timing, checkpoints, RESPOND's answers."""

from __future__ import annotations

import json
from pathlib import Path
from typing import List

import pytest

from ragix_core.core.events import EventBus, EventKind
from ragix_core.evidence.answers import REPORT_NOT_ANSWER
from ragix_core.reasoning_v30.graph import CheckpointError, GraphError, ReasoningGraph, StopRun, load_checkpoint
from ragix_core.reasoning_v30.nodes import (
    ClassifyNode,
    DirectExecNode,
    ExecuteNode,
    PlanNode,
    ReflectNode,
    RespondNode,
    VerifyNode,
)
from ragix_core.core.types import (
    Plan,
    PlanStep,
    ReasoningEvent,
    ReasoningState,
    StepStatus,
    TaskComplexity,
    ToolCall,
    ToolResult,
)

BUDGET = {TaskComplexity.BYPASS: 0, TaskComplexity.SIMPLE: 0, TaskComplexity.MODERATE: 1, TaskComplexity.COMPLEX: 3}


class NoExperience:
    def search(self, query: str, top_k: int = 5) -> str:
        return ""


def make_plan(*specs) -> Plan:
    return Plan(objective="o", steps=[PlanStep(num=i + 1, description=d, tool_call=ToolCall(t)) for i, (d, t) in enumerate(specs)])


def build(complexity: TaskComplexity, plans: List[Plan], step_fn, *, verify=None, events=None, compose=None,
          budget=BUDGET, checkpoint=None, reflect_shell=None, doubt=None):
    emitted: List[ReasoningEvent] = []
    plans = list(plans)

    def gen(goal, ctx):
        return {"ctx": ctx}

    def parse(raw, goal):
        return plans.pop(0) if plans else None

    nodes = {
        "CLASSIFY": ClassifyNode(lambda g: complexity),
        "DIRECT_EXEC": DirectExecNode(lambda g: {"answer": "direct", "confidence": 0.9}),
        "PLAN": PlanNode(gen, parse, emit_event_fn=emitted.append),
        "EXECUTE": ExecuteNode(step_fn, budget, emit_event_fn=emitted.append, doubt_fn=doubt),
        "REFLECT": ReflectNode(lambda p: {"diagnosis": f"wrong path at {p['failed_step_num']}", "new_plan_summary": "use find"},
                               NoExperience(), reflect_shell or (lambda c: ToolResult("ls", 0, stdout="a.py\n")),
                               emit_event_fn=emitted.append),
        "VERIFY": VerifyNode(verify or (lambda st: {"answer": "verified", "confidence": 0.7}), emit_event_fn=emitted.append,
                             on_fail="REFLECT", max_reflections_by_complexity=budget),
        "RESPOND": RespondNode(emitted.append, compose_answer_fn=compose),
    }
    graph = ReasoningGraph(nodes, events=events, checkpoint_path=checkpoint)
    return graph, emitted


def ok_step(step, state):
    step.result = ToolResult(step.tool_call.tool, 0, stdout=f"out{step.num}", command=step.tool_call.tool)
    step.status = StepStatus.SUCCESS
    return step


def state(goal="g") -> ReasoningState:
    return ReasoningState(goal=goal, session_id="s1")


def test_moderate_success_composes_answer_from_step_outputs():
    graph, emitted = build(TaskComplexity.MODERATE, [make_plan(("list", "ls"), ("count", "wc"))], ok_step)
    final = graph.run(state())
    assert final.stop_reason == "success"
    assert "out1" in final.final_answer and "out2" in final.final_answer
    assert graph.trace == ["CLASSIFY", "PLAN", "EXECUTE", "EXECUTE", "RESPOND"]
    kinds = [e.event_type for e in emitted]
    assert kinds == ["planning", "execution", "execution", "respond"]
    assert [e.step_num for e in emitted if e.event_type == "execution"] == [1, 2]


def test_injected_composer_is_used_and_its_failure_falls_back():
    graph, _ = build(TaskComplexity.MODERATE, [make_plan(("list", "ls"))], ok_step, compose=lambda st: "LLM answer")
    assert graph.run(state()).final_answer == "LLM answer"

    def broken(st):
        raise RuntimeError("model gone")

    graph, _ = build(TaskComplexity.MODERATE, [make_plan(("list", "ls"))], ok_step, compose=broken)
    final = graph.run(state())
    assert "out1" in final.final_answer
    assert "model gone" in final.meta["compose_error"]


def test_step_exception_becomes_failed_step_with_rc_minus_one_and_event():
    def boom(step, st):
        raise OSError("disk on fire")

    graph, emitted = build(TaskComplexity.SIMPLE, [], boom)
    graph, emitted = build(TaskComplexity.MODERATE, [make_plan(("x", "ls"))], boom, budget={})
    final = graph.run(state())
    step = final.executed_steps[0]
    assert step.status == StepStatus.FAILED and step.result.returncode == -1
    assert "disk on fire" in final.last_error
    ev = [e for e in emitted if e.event_type == "execution"][0]
    assert ev.outcome_status == "failure" and ev.returncode == -1 and "disk on fire" in ev.error
    assert final.stop_reason == "max_reflections"
    assert final.final_answer.startswith("## Partial Results")


def test_failed_step_reflects_then_replans_and_recovers():
    calls = []

    def step_fn(step, st):
        calls.append(step.description)
        if step.description == "bad":
            step.result = ToolResult("cat", 1, stderr="cat: nope.md: No such file or directory")
            return step  # status left RUNNING: the node judges from the result
        return ok_step(step, st)

    graph, emitted = build(TaskComplexity.MODERATE, [make_plan(("bad", "cat")), make_plan(("good", "find"))], step_fn)
    final = graph.run(state())
    assert final.stop_reason == "success"
    assert final.reflection_count == 1
    assert "No such file" in final.reflection_attempts[0].error
    assert graph.trace == ["CLASSIFY", "PLAN", "EXECUTE", "REFLECT", "PLAN", "EXECUTE", "RESPOND"]
    assert [s.description for s in final.executed_steps] == ["bad", "good"]
    assert any(e.event_type == "reflection" and "wrong path" in e.llm_critique for e in emitted)


def test_a_doubted_plan_of_any_complexity_reflects_while_the_budget_lasts():
    doubts = []

    def doubt(st):
        doubts.append(st.reflection_count)
        return "every command found nothing" if st.reflection_count == 0 else None

    graph, emitted = build(TaskComplexity.MODERATE, [make_plan(("grep", "grep")), make_plan(("read", "cat"))],
                           ok_step, doubt=doubt)
    final = graph.run(state())
    assert graph.trace == ["CLASSIFY", "PLAN", "EXECUTE", "REFLECT", "PLAN", "EXECUTE", "RESPOND"]
    assert final.stop_reason == "success" and final.reflection_count == 1 and doubts == [0]
    assert final.reflection_attempts[0].error == "every command found nothing"
    assert final.reflection_attempts[0].failed_step == 1  # the doubted plan's last step, not "None"
    checked = [e for e in emitted if e.event_type == "verification"]
    assert len(checked) == 1 and checked[0].meta["checked_by"] == "evidence" and checked[0].outcome_status == "failure"

    # no reflection left to spend (SIMPLE's budget is 0): the doubt is not even asked, the answer stands
    graph, _ = build(TaskComplexity.MODERATE, [make_plan(("grep", "grep"))], ok_step, doubt=doubt,
                     budget={**BUDGET, TaskComplexity.MODERATE: 0})
    doubts.clear()
    final = graph.run(state())
    assert final.stop_reason == "success" and "REFLECT" not in graph.trace and doubts == []


def _empty_or_failing(found_by_cat=""):
    """grep finds nothing; cat fails unless ``found_by_cat`` (then it succeeds with that output)."""
    def step_fn(step, st):
        tool = step.tool_call.tool
        if tool == "cat" and not found_by_cat:
            step.result, step.status = ToolResult(tool, 1, stderr="No such file or directory"), StepStatus.FAILED
        else:
            out = found_by_cat if tool == "cat" else ""
            step.result, step.status = ToolResult(tool, 0, stdout=out, command=tool), StepStatus.SUCCESS
        return step
    return step_fn


def _doubt_once(st):
    return "every command found nothing" if st.reflection_count == 0 else None


def test_a_failed_second_look_after_a_doubt_lets_the_doubted_absence_stand():
    # grep finds nothing -> doubted -> REFLECT (the only reflection) -> the replan greps again (nothing), then fails
    plans = [make_plan(("grep", "grep")), make_plan(("grep again", "grep"), ("read", "cat"))]
    graph, _ = build(TaskComplexity.MODERATE, plans, _empty_or_failing(), doubt=_doubt_once)
    final = graph.run(state())
    assert final.stop_reason == "success", final.final_answer
    assert "Partial Results" not in final.final_answer and REPORT_NOT_ANSWER not in final.meta
    assert final.meta["doubted_evidence_stands"] == 2  # the failed step of the second look
    assert graph.trace[-2:] == ["EXECUTE", "RESPOND"]

    # COMPLEX: the standing evidence is still verified, as the doubted plan would have been
    plans = [make_plan(("grep", "grep")), make_plan(("read", "cat"))]
    graph, _ = build(TaskComplexity.COMPLEX, plans, _empty_or_failing(), doubt=_doubt_once,
                     budget={**BUDGET, TaskComplexity.COMPLEX: 1})
    final = graph.run(state())
    assert final.stop_reason == "success" and graph.trace[-2:] == ["VERIFY", "RESPOND"]


def test_a_failed_step_without_an_earlier_doubt_still_exhausts_the_budget():
    # the same failure with no doubt before it: nothing stood, the budget ran out
    plans = [make_plan(("read", "cat")), make_plan(("read again", "cat"))]
    graph, _ = build(TaskComplexity.MODERATE, plans, _empty_or_failing(), doubt=_doubt_once)
    assert graph.run(state()).stop_reason == "max_reflections"


def test_a_second_look_that_found_something_does_not_let_the_absence_stand():
    plans = [make_plan(("grep", "grep")), make_plan(("read", "cat"), ("grep", "grep"))]

    def step_fn(step, st):  # the second look's cat finds a line, then its grep... fails
        if st.reflection_count and step.tool_call.tool == "grep":
            step.result, step.status = ToolResult("grep", 2, stderr="grep: bad regex"), StepStatus.FAILED
            return step
        return _empty_or_failing(found_by_cat="redis: 6379")(step, st)

    graph, _ = build(TaskComplexity.MODERATE, plans, step_fn, doubt=_doubt_once)
    final = graph.run(state())
    assert final.stop_reason == "max_reflections" and "doubted_evidence_stands" not in final.meta


def test_max_reflections_writes_partial_results_with_recommendation():
    def fail(step, st):
        step.result = ToolResult("cat", 1, stderr="No such file or directory")
        step.status = StepStatus.FAILED
        return step

    plans = [make_plan(("first", "cat")), make_plan(("second", "cat"))]
    graph, _ = build(TaskComplexity.MODERATE, plans, fail)
    final = graph.run(state())
    assert final.stop_reason == "max_reflections"
    assert final.reflection_count == 1
    text = final.final_answer
    for heading in ("## Partial Results", "### What Was Tried", "### Recommendation", "### Partial Output"):
        assert heading in text
    assert final.meta[REPORT_NOT_ANSWER]  # a scorer reads the report as no answer (eval/evaluate.py)
    assert "may not exist" in text  # recommendation derived from the error
    assert "wrong path at 1" in text


def test_complex_goes_through_verify_and_verify_fail_reflects():
    verdicts = iter([{"verdict": "fail", "issues": "count missing", "answer": "x"},
                     {"verdict": "pass", "answer": "final ok", "confidence": 0.8, "checked_by": "evidence"}])
    graph, emitted = build(TaskComplexity.COMPLEX, [make_plan(("a", "ls")), make_plan(("b", "ls"))], ok_step,
                           verify=lambda st: next(verdicts))
    final = graph.run(state())
    assert final.stop_reason == "success"
    assert final.final_answer == "final ok" and final.confidence == 0.8
    assert graph.trace.count("VERIFY") == 2 and "REFLECT" in graph.trace
    assert [(e.meta["verdict"], e.meta["checked_by"]) for e in emitted if e.event_type == "verification"] == \
        [("fail", "model"), ("pass", "evidence")]


def test_after_a_failed_verification_the_next_round_is_judged_on_a_fresh_answer():
    seen = []

    def verify(st):
        seen.append(st.final_answer)
        return {"verdict": "fail", "issues": "count missing", "answer": "doubted"} if len(seen) == 1 else \
            {"verdict": "pass", "answer": "ok", "confidence": 0.9}

    graph, _ = build(TaskComplexity.COMPLEX, [make_plan(("a", "ls")), make_plan(("b", "ls"))], ok_step, verify=verify)
    graph.run(state())
    assert seen == [None, None]  # the doubted answer of round 1 is not carried into round 2


def test_verify_fail_without_budget_stops_with_named_reason():
    graph, _ = build(TaskComplexity.COMPLEX, [make_plan(("a", "ls"))], ok_step,
                     verify=lambda st: {"verdict": "fail", "issues": "wrong", "answer": "cautious"},
                     budget={TaskComplexity.COMPLEX: 0})
    final = graph.run(state())
    assert final.stop_reason == "verification_failed"
    assert final.final_answer == "cautious"


def test_node_exception_ends_run_named_and_respond_still_answers():
    bus = EventBus()
    seen = []
    bus.subscribe(seen.append)

    def bad_parse(raw, goal):
        raise ValueError("bad plan json")

    graph, _ = build(TaskComplexity.MODERATE, [], ok_step, events=bus)
    graph.nodes["PLAN"] = PlanNode(lambda g, c: {}, bad_parse)
    final = graph.run(state())
    assert final.stop_reason == "node_exception:PLAN"
    assert "bad plan json" in final.last_error
    assert "ValueError" in final.meta["error"]["traceback"]
    assert final.final_answer and "Partial Results" in final.final_answer
    assert graph.trace == ["CLASSIFY", "PLAN", "RESPOND"]
    errors = [e for e in seen if e.kind == EventKind.NODE_ERROR]
    assert errors and errors[0].data["node"] == "PLAN"


def test_stop_run_gives_named_stop_reason():
    def refuse(goal, ctx):
        raise StopRun("plan_generation_failed", "model output invalid twice")

    graph, _ = build(TaskComplexity.MODERATE, [], ok_step)
    graph.nodes["PLAN"] = PlanNode(refuse, lambda r, g: None)
    final = graph.run(state())
    assert final.stop_reason == "plan_generation_failed"
    assert "invalid twice" in final.final_answer


def test_respond_crash_does_not_loop():
    class Crash(RespondNode):
        def run(self, state):
            raise RuntimeError("respond broke")

    graph, _ = build(TaskComplexity.BYPASS, [], ok_step)
    graph.nodes["RESPOND"] = Crash(None)
    final = graph.run(state())
    assert final.stop_reason == "node_exception:RESPOND"
    assert graph.trace == ["CLASSIFY", "DIRECT_EXEC", "RESPOND"]


def test_unknown_node_is_named_not_keyerror():
    graph, _ = build(TaskComplexity.MODERATE, [], ok_step)

    class Lost(ClassifyNode):
        def run(self, state):
            return state, "PLANN"

    graph.nodes["CLASSIFY"] = Lost(lambda g: TaskComplexity.MODERATE)
    final = graph.run(state())
    assert final.stop_reason == "unknown_node:PLANN"
    assert "'PLANN'" in final.last_error and "CLASSIFY" in final.last_error
    assert final.final_answer

    with pytest.raises(GraphError, match="NOPE"):
        ReasoningGraph({"A": graph.nodes["RESPOND"]}, start="NOPE")


def test_max_iterations_overrides_stale_reason_and_answers():
    def fail(step, st):
        step.status = StepStatus.FAILED
        step.result = ToolResult("ls", 2, stderr="boom")
        return step

    budget = {TaskComplexity.COMPLEX: 99}
    plans = [make_plan(("loop", "ls")) for _ in range(50)]
    graph, _ = build(TaskComplexity.COMPLEX, plans, fail, budget=budget)
    final = graph.run(state(), max_iterations=7)
    assert final.stop_reason == "max_iterations"
    assert graph.trace[-1] == "RESPOND" and len(graph.trace) == 8
    assert "## Partial Results" in final.final_answer and "iteration limit" in final.final_answer


def test_events_and_timings_cover_every_node():
    bus = EventBus()
    stream = bus.stream()
    graph, _ = build(TaskComplexity.BYPASS, [], ok_step, events=bus)
    final = graph.run(state())
    bus.close()
    events = list(stream)
    assert final.final_answer == "direct" and final.stop_reason == "success"
    enters = [e.data["node"] for e in events if e.kind == EventKind.NODE_ENTER]
    assert enters == graph.trace == ["CLASSIFY", "DIRECT_EXEC", "RESPOND"]
    assert events[0].kind == EventKind.RUN_START and events[-1].kind == EventKind.RUN_END
    assert [name for name, _ in graph.timings] == graph.trace
    assert all(sec >= 0 for _, sec in graph.timings)


def test_broken_subscriber_is_removed_not_fatal(capsys):
    bus = EventBus()

    def bad(event):
        raise RuntimeError("viewer crashed")

    bus.subscribe(bad)
    graph, _ = build(TaskComplexity.BYPASS, [], ok_step, events=bus)
    assert graph.run(state()).stop_reason == "success"
    assert "viewer crashed" in capsys.readouterr().err
    assert not bus.active


def test_checkpoint_after_each_node_and_resume(tmp_path: Path):
    ck = tmp_path / "ck.json"

    class Interrupt(Exception):
        pass

    calls = {"n": 0}

    def flaky(step, st):
        calls["n"] += 1
        if calls["n"] == 2:
            raise KeyboardInterrupt  # simulates the process being stopped mid-run
        return ok_step(step, st)

    graph, _ = build(TaskComplexity.MODERATE, [make_plan(("a", "ls"), ("b", "wc"))], flaky, checkpoint=ck)
    aborted = graph.run(state())  # Ctrl-C ends the run as user_abort (issue 40), with what was found
    assert aborted.stop_reason == "user_abort" and "out1" in aborted.final_answer
    assert graph.trace == ["CLASSIFY", "PLAN", "EXECUTE", "EXECUTE", "RESPOND"]
    saved, next_node, iterations, trace = load_checkpoint(ck)  # the last checkpoint is before the interrupt
    assert next_node == "EXECUTE" and saved.current_step_index == 1
    assert saved.plan.steps[0].result.stdout == "out1"  # ToolResult survived the round trip

    graph2, _ = build(TaskComplexity.MODERATE, [], ok_step)
    final = graph2.resume(ck)
    assert final.stop_reason == "success"
    assert "out1" in final.final_answer and "out2" in final.final_answer
    assert graph2.trace == ["CLASSIFY", "PLAN", "EXECUTE", "EXECUTE", "RESPOND"]


def test_a_checkpoint_that_cannot_be_written_costs_the_resume_not_the_run(tmp_path: Path, capsys):
    blocker = tmp_path / "file"
    blocker.write_text("not a directory")
    graph, _ = build(TaskComplexity.MODERATE, [make_plan(("a", "ls"))], ok_step, checkpoint=blocker / "ck.json")
    final = graph.run(state())
    assert final.stop_reason == "success" and "out1" in final.final_answer
    assert str(blocker / "ck.json") in final.meta["checkpoint_error"]
    assert "cannot be resumed" in capsys.readouterr().err


@pytest.mark.parametrize("content,match", [
    ("{not json", "not valid JSON"),
    ('{"version": 1, "next_node": "EXECUTE", "iterations": 2, "state": {"goal": "g"}}', "session_id"),
    ('{"version": 9}', "unsupported version"),
    ('[1,2]', "expected a JSON object"),
    ('{"version": 1, "next_node": "EXECUTE", "iterations": 1, "state": {"goal": "g", "session_id": "s", "complexity": "huge"}}', "huge"),
])
def test_garbled_checkpoint_is_a_clear_error(tmp_path: Path, content, match):
    ck = tmp_path / "ck.json"
    ck.write_text(content)
    graph, _ = build(TaskComplexity.MODERATE, [], ok_step)
    with pytest.raises(CheckpointError, match=match):
        graph.resume(ck)


def test_missing_checkpoint_and_unknown_next_node(tmp_path: Path):
    graph, _ = build(TaskComplexity.MODERATE, [], ok_step)
    with pytest.raises(CheckpointError, match="does not exist"):
        graph.resume(tmp_path / "none.json")
    ck = tmp_path / "ck.json"
    ck.write_text(json.dumps({"version": 1, "next_node": "GONE", "iterations": 1, "state": state().to_dict()}))
    with pytest.raises(CheckpointError, match="GONE"):
        graph.resume(ck)


def test_reflect_blocks_disallowed_tools_and_tolerates_broken_shell():
    node = ReflectNode(lambda p: {}, NoExperience(), lambda c: None)
    assert node._safe_shell("rm -rf /").refused
    assert node._safe_shell("ls").error  # executor returned nothing: reported, not raised


def test_classify_accepts_labels_in_any_form():
    for raw in ("MODERATE", "moderate", TaskComplexity.MODERATE):
        st, nxt = ClassifyNode(lambda g, r=raw: r).run(state())
        assert st.complexity == TaskComplexity.MODERATE and nxt == "PLAN"
    with pytest.raises(ValueError, match="allowed"):
        ClassifyNode(lambda g: "HARD").run(state())

