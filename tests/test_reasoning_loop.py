"""ReasoningLoop v1 on the shared node functions (scripted model, fake tool box)."""

from __future__ import annotations

from ragix_core.core.events import EventBus, EventKind
from ragix_core.reasoning import ReasoningLoop
from ragix_core.core.types import ReasoningState, TaskComplexity, ToolResult
from tests.reasoning_v30.test_agent_fns import FakeToolBox, ScriptedLLM, fns


def plan(command: str) -> dict:
    return {"objective": "o", "steps": [{"num": 1, "description": "run", "tool": command.split()[0],
                                          "args": {"command": command}}], "validation": "v", "confidence": 0.5}


def loop(replies, toolbox=None, retries=1):
    bus = EventBus()
    seen = []
    bus.subscribe(seen.append)
    lp = ReasoningLoop(fns(ScriptedLLM(replies), toolbox), max_retries=retries, events=bus)
    return lp, seen


def test_success_path_runs_every_phase():
    tb = FakeToolBox({"wc -l a.md": ToolResult("wc", 0, stdout="3 a.md\n", command="wc -l a.md")})
    lp, seen = loop([{"complexity": "MODERATE"}, plan("wc -l a.md"), "b.md has 3 lines",
                     {"verdict": "pass", "issues": "", "answer": "a.md: 3 lines", "confidence": 0.9}], tb)
    st = lp.run(ReasoningState(goal="count lines of a.md", session_id="s"))
    assert st.stop_reason == "success" and st.final_answer == "a.md: 3 lines"  # the verifier's answer
    assert lp.trace == ["CLASSIFY", "PLAN", "EXECUTE", "VERIFY", "RESPOND"]
    assert [e.data["node"] for e in seen if e.kind == EventKind.NODE_ENTER] == lp.trace


def test_an_answer_quoted_from_the_outputs_passes_verify_without_the_model():
    tb = FakeToolBox({"wc -l a.md": ToolResult("wc", 0, stdout="3 a.md\n", command="wc -l a.md")})
    lp, _ = loop([{"complexity": "MODERATE"}, plan("wc -l a.md"), "a.md has 3 lines"], tb)
    st = lp.run(ReasoningState(goal="count lines of a.md", session_id="s"))
    assert st.stop_reason == "success" and st.final_answer == "a.md has 3 lines"
    assert lp.trace == ["CLASSIFY", "PLAN", "EXECUTE", "VERIFY", "RESPOND"] and len(lp.f.planner.calls) == 3


def test_failed_step_retries_with_feedback_then_succeeds(tmp_path):
    tb = FakeToolBox({"cat nope.md": ToolResult("cat", 1, stderr="cat: nope.md: No such file or directory")})
    tb.root = tmp_path  # no file with a close name: ragix cannot re-run it by itself, the loop must retry
    llm_replies = [{"complexity": "MODERATE"}, plan("cat nope.md"), plan("cat a.md"), "done",
                   {"verdict": "pass", "answer": "ok", "confidence": 0.8}]
    lp, _ = loop(llm_replies, tb)
    st = lp.run(ReasoningState(goal="show the notes file", session_id="s"))
    assert st.stop_reason == "success" and st.reflection_count == 1
    assert [s.tool_call.args["command"] for s in st.executed_steps] == ["cat nope.md", "cat a.md"]
    plan_prompt = lp.f.planner.calls[2]["messages"][0]["content"]
    assert "No such file" in plan_prompt  # the retry saw the error


def test_exhausted_retries_end_with_partial_results():
    tb = FakeToolBox({"cat nope.md": ToolResult("cat", 1, stderr="No such file or directory"),
                      "cat nope2.md": ToolResult("cat", 1, stderr="No such file or directory")})
    lp, _ = loop([{"complexity": "MODERATE"}, plan("cat nope.md"), plan("cat nope2.md")], tb)
    st = lp.run(ReasoningState(goal="show the notes file", session_id="s"))
    assert st.stop_reason == "max_retries"
    assert st.final_answer.startswith("## Partial Results")


def test_a_replan_that_repeats_a_failed_command_is_refused_and_resampled():
    tb = FakeToolBox({"cat nope.md": ToolResult("cat", 1, stderr="No such file or directory")})
    llm_replies = [{"complexity": "MODERATE"}, plan("cat nope.md"), plan("cat  nope.md"), plan("cat a.md"), "done",
                   {"verdict": "pass", "answer": "a.md holds the notes", "confidence": 0.8}]
    lp, _ = loop(llm_replies, tb)
    st = lp.run(ReasoningState(goal="show the notes file", session_id="s"))
    assert st.stop_reason == "success"
    assert [s.tool_call.args["command"] for s in st.executed_steps] == ["cat nope.md", "cat a.md"]
    resample = lp.f.planner.calls[3]
    assert "already failed" in resample["messages"][0]["content"] and resample["temperature"] > 0


def test_a_replan_that_only_repeats_failures_is_a_named_stop():
    tb = FakeToolBox({"cat nope.md": ToolResult("cat", 1, stderr="No such file or directory")})
    lp, _ = loop([{"complexity": "MODERATE"}, plan("cat nope.md"), plan("cat nope.md"), plan("cat nope.md")], tb)
    st = lp.run(ReasoningState(goal="show the notes file", session_id="s"))
    assert st.stop_reason == "no_new_plan" and st.final_answer.startswith("## Partial Results")


def test_model_unreachable_is_a_named_stop_with_answer():
    from ragix_core.llm.base import LLMUnavailable

    lp, _ = loop([{"complexity": "COMPLEX"}, LLMUnavailable("cannot reach http://127.0.0.1:1")])
    st = lp.run(ReasoningState(goal="count files in this repo", session_id="s"))
    assert st.stop_reason == "llm_unavailable"
    assert "127.0.0.1:1" in st.final_answer


def test_bypass_answers_directly():
    lp, _ = loop([{"answer": "A closure captures variables.", "confidence": 0.9}])
    st = lp.run(ReasoningState(goal="What is a closure in programming?", session_id="s"))
    assert st.complexity == TaskComplexity.BYPASS and st.stop_reason == "success"
    assert lp.trace == ["CLASSIFY", "DIRECT_EXEC", "RESPOND"]


