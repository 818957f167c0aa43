"""The orchestrator and writer nodes, the routes and the stop reasons, on scripted model replies."""

from __future__ import annotations

import json

import pytest

from ragix_core.chat.decision import Decision, decision_schema
from ragix_core.chat.graph import run_thread
from ragix_core.chat.messages import final_message, reasoning_count, reasoning_steps, tool_messages
from ragix_core.chat.nodes import (citations, without_dangling_labels, orchestrate, route_after_orchestrator, route_after_tools, run_tools,
                                   write)
from ragix_core.chat.state import merge, new_state
from ragix_core.llm.base import LLMTimeout, LLMUnavailable
from tests.chat.conftest import FakeTools, config_for, decision, deps_with


def test_orchestrator_returns_only_its_new_message_and_the_flag():
    deps = deps_with([decision("operator", "multiply", expression="347*29")])
    state = new_state("s", "t", "What is 347 times 29?")
    partial = orchestrate(state, config_for(deps))
    assert set(partial) == {"messages", "ready_to_answer"}
    (msg,) = partial["messages"]
    assert msg.kind == "ai" and msg.type == "reasoning" and msg.source == "orchestrator"
    assert msg.content == "multiply" and msg.meta["tool_input"] == {"expression": "347*29"}
    assert partial["ready_to_answer"] is False
    assert len(state["messages"]) == 1  # the input state is untouched


def test_system_prompt_and_history_are_added_at_call_time_only():
    deps = deps_with([decision("answer", "easy")])
    state = new_state("s", "t", "and in feet?", [("How far is 3 km in miles?", "3 km is 1.864 miles.")])
    partial = orchestrate(state, config_for(deps))
    sent = deps.orchestrator.calls[0]["messages"]
    assert sent[0]["role"] == "system" and "thinks before it answers" in sent[0]["content"]
    assert "1.864 miles" in sent[1]["content"] and "and in feet?" in sent[1]["content"]
    assert all(m.kind != "system" for m in merge(state, partial)["messages"])
    assert not any("1.864" in m.content for m in merge(state, partial)["messages"])


def test_the_schema_offers_only_the_tools_this_chat_has():
    deps = deps_with([decision("answer")], tools=FakeTools(names=("search",)))
    orchestrate(new_state("s", "t", "q"), config_for(deps))
    schema = deps.orchestrator.calls[0]["schema"]
    assert schema["properties"]["action"]["enum"] == ["think", "search", "answer"]
    assert schema["required"][0] == "thinking"
    assert decision_schema(["repl", "operator", "search"])["properties"]["tool_name"]["enum"] == [
        "repl", "operator", "search", "none"]


def test_action_wins_over_a_contradicting_tool_name():
    reply = decision("operator", expression="2*3")
    reply["tool_name"] = "repl"
    deps = deps_with([reply])
    (msg,) = orchestrate(new_state("s", "t", "q"), config_for(deps))["messages"]
    assert msg.meta["tool_name"] == "operator" and msg.meta["tool_name_given"] == "repl"


def test_an_invalid_decision_is_repaired_once_then_ends_with_a_named_reason():
    deps = deps_with(["not json", {"thinking": "x", "action": "dance"}], writer_replies=["Sorry."])
    partial = orchestrate(new_state("s", "t", "q"), config_for(deps))
    (msg,) = partial["messages"]
    assert partial["ready_to_answer"] is True and msg.meta["stop_reason"] == "chat_decision_failed"
    assert "invalid" in deps.orchestrator.calls[1]["messages"][-1]["content"]


def test_no_minimum_number_of_steps():
    deps = deps_with([decision("answer", "Paris is the capital of France.")], ["Paris."])
    state = run_thread(new_state("s", "t", "Capital of France?"), config_for(deps))
    assert reasoning_count(state["messages"]) == 1 and len(deps.orchestrator.calls) == 1
    final = final_message(state["messages"])
    assert final.content == "Paris." and final.meta["stop_reason"] == "success" and final.source == "writer"


def test_max_reasoning_steps_ends_thinking_and_the_writer_still_answers():
    deps = deps_with([decision("think", f"thought {i}") for i in range(3)], ["Best effort."],
                     max_reasoning_steps=3)
    state = run_thread(new_state("s", "t", "q"), config_for(deps))
    assert reasoning_count(state["messages"]) == 3
    assert final_message(state["messages"]).meta["stop_reason"] == "max_reasoning_steps"
    # Each thought is followed by a user turn, so the roles alternate for every chat template.
    roles = [m["role"] for m in deps.orchestrator.calls[-1]["messages"]]
    assert roles == ["system", "user", "assistant", "user", "assistant", "user"]


def test_a_tool_step_goes_to_the_tools_then_back_to_the_orchestrator():
    tools = FakeTools(outputs={"operator": "10063"})
    deps = deps_with([decision("operator", expression="347*29"), decision("answer", "done")],
                     ["347 × 29 = 10063 [1]."], tools=tools)
    config = config_for(deps)
    state = new_state("s", "t", "347*29?")
    state = merge(state, orchestrate(state, config))
    assert route_after_orchestrator(state, config) == "tools"
    partial = run_tools(state, config)
    (tool_msg,) = partial["messages"]
    assert tool_msg.kind == "tool" and tool_msg.meta["tool_call_id"] == state["messages"][-1].id
    state = merge(state, partial)
    assert route_after_tools(state, config) == "orchestrator"
    # The tool result reaches the orchestrator's next call.
    state = merge(state, orchestrate(state, config))
    assert "10063" in deps.orchestrator.calls[1]["messages"][-1]["content"]
    assert route_after_orchestrator(state, config) == "writer"
    final = write(state, config)["messages"][0]
    assert final.meta["citations"] == [{"label": 1, "tool": "operator", "tool_message_id": tool_msg.id,
                                        "by": "writer"}]
    writer_prompt = deps.writer.calls[0]["messages"]
    assert "Result [1] of operator" in writer_prompt[3]["content"] and "10063" in writer_prompt[3]["content"]
    assert "Now write the reply" in writer_prompt[-1]["content"]


def test_the_writer_extends_the_orchestrators_prompt_so_the_prefix_cache_holds():
    """llama.cpp reuses a cached prefix: the writer's call must start with the last orchestrator call's
    messages (all but that call's closing turn), or it re-processes the whole system prompt."""
    deps = deps_with([decision("search", query="zephyr port"), decision("think", "7421 it is"),
                      decision("answer", "done")], ["Port 7421 [1]."], tools=FakeTools(outputs={"search": "7421"}))
    run_thread(new_state("s", "t", "Zephyr port?", [("hi", "hello")]), config_for(deps))
    last_orchestrator = deps.orchestrator.calls[-1]["messages"]
    writer = deps.writer.calls[0]["messages"]
    assert writer[:len(last_orchestrator) - 1] == last_orchestrator[:-1]
    assert [m["role"] for m in writer] == ["system", "user", "assistant", "user", "assistant", "user",
                                           "assistant", "user"]


def test_a_tool_failure_is_a_message_the_orchestrator_reacts_to():
    tools = FakeTools(outputs={"repl": RuntimeError("NameError (line 1): name 'y' is not defined")})
    deps = deps_with([decision("repl", code="print(y)"), decision("think", "the code failed; reason instead"),
                      decision("answer", "done")], ["Answer by reasoning."], tools=tools)
    state = run_thread(new_state("s", "t", "q"), config_for(deps))
    (tool_msg,) = tool_messages(state["messages"])
    assert tool_msg.meta["error"].startswith("NameError")
    assert "the call failed: NameError" in deps.orchestrator.calls[1]["messages"][-1]["content"]
    assert final_message(state["messages"]).meta["stop_reason"] == "success"


def test_a_repeated_tool_call_is_not_run_again_and_ends_thinking():
    tools = FakeTools(outputs={"search": "port 7421"})
    deps = deps_with([decision("search", query="zephyr port"), decision("search", query="zephyr port")],
                     ["It listens on port 7421 [1]."], tools=tools)
    state = run_thread(new_state("s", "t", "Zephyr port?"), config_for(deps))
    assert len(tools.calls) == 1
    last = reasoning_steps(state["messages"])[-1]
    assert last.meta["forced_answer"].startswith("repeated_call:")
    assert final_message(state["messages"]).meta["stop_reason"] == "success"


@pytest.mark.parametrize("failure,reason", [(LLMTimeout("slow"), "llm_timeout"),
                                            (LLMUnavailable("down"), "llm_unavailable")])
def test_a_writer_without_its_model_leaves_the_tool_results(failure, reason):
    tools = FakeTools(outputs={"operator": "10063"})
    deps = deps_with([decision("operator", expression="347*29"), decision("answer")], [failure], tools=tools)
    state = run_thread(new_state("s", "t", "347*29?"), config_for(deps))
    final = final_message(state["messages"])
    assert final.meta["stop_reason"] == reason and "10063" in final.content and reason in final.content


def test_an_orchestrator_backend_failure_still_gets_an_answer():
    deps = deps_with([LLMUnavailable("server down")], ["I could not think this through."])
    state = run_thread(new_state("s", "t", "q"), config_for(deps))
    final = final_message(state["messages"])
    assert final.meta["stop_reason"] == "llm_unavailable" and final.content == "I could not think this through."


def test_a_node_that_raises_ends_the_thread_with_a_named_reason():
    class Broken(FakeTools):
        @property
        def names(self):
            raise RuntimeError("bug")

    deps = deps_with([], tools=Broken())
    state = run_thread(new_state("s", "t", "q"), config_for(deps))
    assert final_message(state["messages"]).meta["stop_reason"] == "node_exception:orchestrator"


def test_citations_by_label_and_by_quoted_number():
    from ragix_core.chat import messages as M

    msgs = [M.human("t", "q"),
            M.tool_message("t:002", tool_call_id="t:001", tool="operator", tool_input={}, output="42.1648128 kilometer",
                           error=None),
            M.tool_message("t:004", tool_call_id="t:003", tool="search", tool_input={}, output="port 7421", error=None),
            M.tool_message("t:006", tool_call_id="t:005", tool="repl", tool_input={}, output="", error="boom 99")]
    got = citations("About 42.16 km [2], not [9].", msgs)
    assert [(c["label"], c["by"]) for c in got] == [(2, "writer"), (1, "quoted")]
    assert citations("No numbers here, 99 problems.", msgs) == []  # a failed call is never a source


def test_citation_marks_that_name_no_working_tool_result_are_taken_out_of_the_answer():
    from ragix_core.chat import messages as M

    # Measured on MT-Bench's math: "... is [1] 1.5 square units." with no tool call in the turn.
    assert without_dangling_labels("The area is [1] 1.5 square units.", [M.human("t", "q")]) == \
        "The area is 1.5 square units."
    msgs = [M.human("t", "q"),
            M.tool_message("t:002", tool_call_id="t:001", tool="operator", tool_input={}, output="3", error=None),
            M.tool_message("t:004", tool_call_id="t:003", tool="repl", tool_input={}, output="", error="boom")]
    assert without_dangling_labels("It is 3 [1], not 4 [2]. See [7].", msgs) == "It is 3 [1], not 4. See."
    assert without_dangling_labels("It is 3 [1].", msgs) == "It is 3 [1]."  # nothing to take out: unchanged
    assert without_dangling_labels("", msgs) == ""
    # Not citation marks: indexes, code, a reply that is nothing but a mark.
    code = "Use `arr[0]` then x[1] and A[1][2].\n```python\nprint(a [4], b)\n```"
    assert without_dangling_labels(code, msgs) == code
    assert without_dangling_labels(" [2]", msgs) == " [2]"
    # A mark opening a line (the free-text orchestrator's "[1] 5" with no tool call) goes with its space.
    assert without_dangling_labels("[2] 5\n[1] 3 stays", msgs) == "5\n[1] 3 stays"
    assert without_dangling_labels("[2]", msgs) == "[2]"  # nothing but a mark: kept whole


def test_the_written_answer_keeps_no_dangling_mark():
    deps = deps_with([decision("answer")], ["The capital is Tokyo [1]."])
    state = run_thread(new_state("s", "t", "What is the capital of Japan?"), config_for(deps))
    final = final_message(state["messages"])
    assert final.content == "The capital is Tokyo." and final.meta["citations"] == []


def test_decision_validation_bounds_untrusted_fields():
    d = Decision.model_validate({"thinking": "x", "action": "repl", "tool_input": {"code": 5}, "confidence": 70,
                                 "missing_info": "one thing"})
    assert d.tool_input == {"code": "5"} and d.missing_info == ["one thing"]
    with pytest.raises(ValueError):
        Decision.model_validate({"thinking": "x", "action": "repl", "tool_input": {"code": {"nested": 1}}})
    with pytest.raises(ValueError):
        Decision.model_validate({"thinking": "x", "action": "answer", "confidence": 250})
    json.dumps(decision_schema(["repl"]))  # plain JSON: every backend can take it


def test_a_tool_that_found_nothing_three_times_is_not_called_a_fourth_time():
    # Measured on the chat benchmark: after "no results" the orchestrator searched 23 times, each with new words.
    from ragix_core.chat.tools import ToolOutcome

    tools = FakeTools(outputs={"search": ToolOutcome("no results", None, 0.01, {"sources": []})})
    searches = [decision("search", query=f"pride prejudice year {i}") for i in range(6)]
    deps = deps_with(searches, ["I could not find it in the documents; it was first published in 1813."], tools=tools)
    state = run_thread(new_state("s", "t", "In which year was it first published?"), config_for(deps))
    assert len(tools.calls) == 3
    last = reasoning_steps(state["messages"])[-1]
    assert last.meta["forced_answer"] == "fruitless:search"
    assert final_message(state["messages"]).meta["stop_reason"] == "success"


def test_a_search_that_finds_something_resets_the_count():
    from ragix_core.chat.tools import ToolOutcome

    nothing = ToolOutcome("no results", None, 0.01, {"sources": []})
    hit = ToolOutcome("1. Zephyr (docs: zephyr.md)\nport 7421", None, 0.01, {"sources": [{"ref": "zephyr.md"}]})

    class Alternating(FakeTools):
        def run(self, name, tool_input, earlier):
            super().run(name, tool_input, earlier)
            return hit if len(self.calls) == 3 else nothing

    tools = Alternating()
    deps = deps_with([decision("search", query=f"q{i}") for i in range(5)] + [decision("answer", "done")],
                     ["Port 7421 [3]."], tools=tools)
    run_thread(new_state("s", "t", "Zephyr port?"), config_for(deps))
    assert len(tools.calls) == 5  # nothing, nothing, a hit, nothing, nothing: never three empty in a row
