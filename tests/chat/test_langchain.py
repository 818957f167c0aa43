"""LangChain messages in and out of the chat graph, with the real langchain-core types and a real LangGraph."""

from __future__ import annotations

import pytest

lc = pytest.importorskip("langchain_core.messages")

from ragix_core.chat.graph import build_state_graph, langchain_node, langgraph_config, run_thread  # noqa: E402
from ragix_core.chat.lc_messages import (MessageConversionError, from_langchain, from_langchain_all,  # noqa: E402
                                         to_langchain, to_langchain_all)
from ragix_core.chat.messages import ChatMessage  # noqa: E402
from ragix_core.chat.state import new_state  # noqa: E402
from tests.chat.conftest import FakeTools, decision, deps_with  # noqa: E402

# Recorded orchestrator decisions of one thread: a failing operator call, a search, a thought, the answer.
ORCHESTRATOR = [
    decision("operator", "convert the distance", expression="26.2 mile", to="km"),
    decision("search", "check the official distance", query="marathon distance km"),
    decision("think", "both agree: 42.16 km"),
    decision("answer", "ready"),
]
WRITER = ["A marathon is about 42.16 km [2]."]


def _tools():
    from ragix_core.chat.tools import ToolOutcome

    return FakeTools(outputs={"operator": ToolOutcome("", "units: unknown unit 'mile'", 0.01),
                              "search": "1. Marathon (docs: sports.md)\n42.195 km"})


def _thread():
    state = new_state("s", "t", "How long is a marathon in km?", [("hi", "hello")])
    return run_thread(state, {"configurable": {"chat": deps_with(ORCHESTRATOR, WRITER, tools=_tools())}})


def _same(a: ChatMessage, b: ChatMessage) -> bool:
    return (a.id, a.kind, a.content, dict(a.meta)) == (b.id, b.kind, b.content, dict(b.meta))


def test_a_thread_round_trips_through_langchain_messages():
    messages = _thread()["messages"]
    converted = to_langchain_all(messages)
    assert [type(m).__name__ for m in converted] == ["HumanMessage", "AIMessage", "ToolMessage", "AIMessage",
                                                     "ToolMessage", "AIMessage", "AIMessage", "AIMessage"]
    back = from_langchain_all(converted)
    assert len(back) == len(messages) and all(_same(a, b) for a, b in zip(messages, back))


def test_tool_calls_pair_with_tool_messages_and_tags_travel_in_kwargs():
    converted = to_langchain_all(_thread()["messages"])
    operator_step, operator_result = converted[1], converted[2]
    assert operator_step.tool_calls == [{"name": "operator", "args": {"expression": "26.2 mile", "to": "km"},
                                         "id": operator_step.id, "type": "tool_call"}]
    assert operator_step.additional_kwargs["type"] == "reasoning"
    assert operator_step.additional_kwargs["source"] == "orchestrator"
    assert operator_result.tool_call_id == operator_step.id and operator_result.name == "operator"
    assert operator_result.status == "error" and "unknown unit" in operator_result.content
    assert converted[4].status == "success" and "42.195" in converted[4].content
    thought, final = converted[5], converted[-1]
    assert thought.tool_calls == [] and final.tool_calls == []
    assert final.additional_kwargs["type"] == "final_answer" and final.content.startswith("A marathon")


def test_a_foreign_conversation_converts_and_keeps_its_call_pairing():
    foreign = [
        lc.HumanMessage("What is 6*7?"),
        lc.AIMessage("", tool_calls=[{"name": "operator", "args": {"expression": "6*7"}, "id": "call_9"}]),
        lc.ToolMessage("42", tool_call_id="call_9", name="operator"),
        lc.AIMessage("It is 42."),
    ]
    ours = from_langchain_all(foreign, thread_id="x")
    assert [m.kind for m in ours] == ["human", "ai", "tool", "ai"]
    assert [m.id for m in ours] == ["x:000", "x:001", "x:002", "x:003"]  # no LangChain ids: ragix's own
    step, result = ours[1], ours[2]
    assert step.meta["tool_name"] == "operator" and step.meta["tool_input"] == {"expression": "6*7"}
    assert step.meta["source"] == "langchain" and step.type == "reasoning"
    assert result.meta["tool_call_id"] == step.id and result.meta["output"] == "42"
    again = to_langchain_all(ours)
    assert again[2].tool_call_id == again[1].tool_calls[0]["id"]
    assert [m.content for m in again] == [m.content for m in foreign]


@pytest.mark.parametrize("message, named", [
    (lc.SystemMessage("be brief"), "SystemMessage"),
    (lc.ChatMessage("hello", role="critic"), "ChatMessage"),
    (lc.FunctionMessage("1", name="f"), "FunctionMessage"),
    (lc.HumanMessage([{"type": "image_url", "image_url": {"url": "data:x"}}]), "'image_url' content block"),
    (lc.AIMessage("", tool_calls=[{"name": "repl", "args": {}, "id": "a"}, {"name": "search", "args": {}, "id": "b"}]),
     "2 tool calls"),
])
def test_messages_a_thread_cannot_hold_are_refused_by_name(message, named):
    with pytest.raises(MessageConversionError, match=named):
        from_langchain(message, fallback_id="t:000")


def test_a_tool_message_answering_no_call_is_refused():
    with pytest.raises(MessageConversionError, match="'call_1', which no earlier AIMessage made"):
        from_langchain_all([lc.HumanMessage("q"), lc.ToolMessage("out", tool_call_id="call_1")])


def test_text_blocks_are_joined_and_a_non_ragix_message_is_refused_on_the_way_out():
    assert from_langchain(lc.HumanMessage([{"type": "text", "text": "How "}, "far?"]), fallback_id="t:0").content \
        == "How far?"
    with pytest.raises(MessageConversionError, match="expected a ragix ChatMessage, got HumanMessage"):
        to_langchain(lc.HumanMessage("q"))


def test_both_runners_accept_a_langchain_question():
    question = lc.HumanMessage("How long is a marathon in km?", id="q1")
    state = {"session_id": "s", "thread_id": "t", "messages": [question], "history": [], "ready_to_answer": False}
    ours = run_thread(state, {"configurable": {"chat": deps_with(ORCHESTRATOR, WRITER, tools=_tools())}})
    assert ours["messages"][0].kind == "human" and ours["messages"][0].id == "q1"
    assert ours["messages"][-1].content == WRITER[0]
    pytest.importorskip("langgraph")
    theirs = build_state_graph().invoke(state, langgraph_config(deps_with(ORCHESTRATOR, WRITER, tools=_tools())))
    assert [m.content for m in theirs["messages"]] == [m.content for m in ours["messages"]]
    assert all(isinstance(m, ChatMessage) for m in theirs["messages"])


# -- ragix's chat as a node of someone else's LangGraph graph -------------------------


def _user_graph(deps, **options):
    pytest.importorskip("langgraph")
    from langgraph.checkpoint.memory import MemorySaver
    from langgraph.graph import END, START, MessagesState, StateGraph

    graph = StateGraph(MessagesState)
    graph.add_node("ragix", langchain_node(deps, **options))
    graph.add_edge(START, "ragix")
    graph.add_edge("ragix", END)
    return graph.compile(checkpointer=MemorySaver())


def test_ragix_chat_is_a_node_of_a_messages_state_graph_across_two_turns():
    second = [decision("answer", "known from the history")]
    deps = deps_with(ORCHESTRATOR + second, WRITER + ["Still 42.16 km."], tools=_tools())
    graph = _user_graph(deps)
    config = {"configurable": {"thread_id": "conv-1"}}
    first = graph.invoke({"messages": [lc.HumanMessage("How long is a marathon in km?")]}, config)
    out = first["messages"]
    assert [type(m).__name__ for m in out] == ["HumanMessage", "AIMessage", "ToolMessage", "AIMessage",
                                               "ToolMessage", "AIMessage", "AIMessage", "AIMessage"]
    assert out[-1].content == WRITER[0] and out[-1].additional_kwargs["type"] == "final_answer"
    assert out[2].tool_call_id == out[1].tool_calls[0]["id"]
    then = graph.invoke({"messages": [lc.HumanMessage("And in metres?")]}, config)["messages"]
    assert len({m.id for m in then}) == len(then)  # the second turn replaced none of the first
    assert then[-1].content == "Still 42.16 km." and then[:len(out)] == out
    # The second question saw the first as history: its answer reached the orchestrator's prompt.
    last_prompt = "\n".join(str(m["content"]) for m in deps.orchestrator.calls[-1]["messages"])
    assert WRITER[0] in last_prompt and "And in metres?" in last_prompt


def test_the_node_returns_only_the_answer_when_asked_and_refuses_or_skips_system_messages():
    graph = _user_graph(deps_with([decision("answer", "easy")], ["4."]), steps=False)
    with pytest.raises(MessageConversionError, match="SystemMessage"):
        graph.invoke({"messages": [lc.SystemMessage("be brief"), lc.HumanMessage("2+2?")]},
                     {"configurable": {"thread_id": "a"}})
    graph = _user_graph(deps_with([decision("answer", "easy")], ["4."]), steps=False, system_messages="skip")
    out = graph.invoke({"messages": [lc.SystemMessage("be brief"), lc.HumanMessage("2+2?")]},
                       {"configurable": {"thread_id": "b"}})["messages"]
    assert [type(m).__name__ for m in out] == ["SystemMessage", "HumanMessage", "AIMessage"]
    assert out[-1].content == "4."
    with pytest.raises(ValueError, match="'refuse' or 'skip'"):
        langchain_node(deps_with([]), system_messages="keep")
