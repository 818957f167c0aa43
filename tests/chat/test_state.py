"""Messages are the single source of truth; the reducer merges partial states; counts are derived."""

from __future__ import annotations

import pytest

from ragix_core.chat import messages as M
from ragix_core.chat.state import ChatState, append_messages, merge, new_state, reducers


def test_a_new_thread_holds_only_the_question():
    state = new_state("s", "t", "What is 2+2?", [("q0", "a0")])
    assert [m.kind for m in state["messages"]] == ["human"]
    assert state["history"] == [("q0", "a0")]
    assert state["ready_to_answer"] is False
    assert set(state) == {"session_id", "thread_id", "messages", "history", "ready_to_answer"}


def test_only_human_ai_and_tool_messages_exist():
    with pytest.raises(ValueError, match="system"):
        M.ChatMessage("system", "You are...", "x")


def test_the_reducer_appends_new_messages_and_ignores_ones_it_has():
    q = M.human("t", "q")
    r1 = M.reasoning("t:001", "think", action="think", tool_name=None, tool_input={})
    r2 = M.reasoning("t:002", "more", action="think", tool_name=None, tool_input={})
    # A node may return only its new messages, or (spec 003's example) the old list plus them.
    assert append_messages([q], [r1]) == [q, r1]
    assert append_messages([q, r1], [q, r1, r2]) == [q, r1, r2]
    with pytest.raises(TypeError):
        append_messages([q], [{"kind": "ai"}])


def test_merge_returns_a_new_state_and_leaves_the_old_one_alone():
    state = new_state("s", "t", "q")
    new = merge(state, {"messages": [M.reasoning("t:001", "x", action="answer", tool_name=None, tool_input={})],
                        "ready_to_answer": True})
    assert len(state["messages"]) == 1 and state["ready_to_answer"] is False
    assert len(new["messages"]) == 2 and new["ready_to_answer"] is True
    with pytest.raises(KeyError, match="reasoning_count"):
        merge(state, {"reasoning_count": 3})  # counts are derived, never stored


def test_the_reducer_is_declared_on_the_state_type():
    assert reducers() == {"messages": append_messages}
    assert "reasoning_steps" not in ChatState.__annotations__ and "tool_count" not in ChatState.__annotations__


def test_counts_and_views_are_derived_from_messages():
    msgs = [M.human("t", "q"),
            M.reasoning("t:001", "compute", action="operator", tool_name="operator", tool_input={"expression": "1+1"}),
            M.tool_message("t:002", tool_call_id="t:001", tool="operator", tool_input={"expression": "1+1"},
                           output="2", error=None),
            M.reasoning("t:003", "done", action="answer", tool_name=None, tool_input={}),
            M.final_answer("t:004", "2 [1]", stop_reason="success")]
    assert M.reasoning_count(msgs) == 2 and M.tool_count(msgs) == 1
    assert M.final_message(msgs).content == "2 [1]" and M.question(msgs) == "q"
    assert M.tool_request(msgs[1]) == {"tool": "operator", "input": {"expression": "1+1"}}
    assert M.tool_request(msgs[3]) is None
    ai = [m for m in msgs if m.kind == "ai"]
    assert {(m.type, m.source) for m in ai} == {("reasoning", "orchestrator"), ("final_answer", "writer")}


def test_messages_are_immutable_and_round_trip():
    meta = {"action": "think"}
    m = M.reasoning("t:001", "x", **meta)
    meta["action"] = "answer"
    assert m.meta["action"] == "think"
    with pytest.raises(AttributeError):
        m.content = "changed"  # type: ignore[misc]
    assert M.ChatMessage.from_dict(m.to_dict()) == m
    with pytest.raises(ValueError, match="not a stored chat message"):
        M.ChatMessage.from_dict({"kind": "ai"})
