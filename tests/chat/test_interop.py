"""The same node functions run by ragix's runner and by a LangGraph StateGraph give the same transcript."""

from __future__ import annotations

import pytest

from ragix_core.chat.graph import build_state_graph, langgraph_config, run_thread
from ragix_core.chat.messages import ChatMessage
from ragix_core.chat.state import new_state
from tests.chat.conftest import decision, deps_with

pytest.importorskip("langgraph")

# Recorded model responses of one thread: a failed repl call, a fix, a unit conversion, a thought, the answer.
ORCHESTRATOR = [
    decision("repl", "compute the distance", code="d = 26.2 * 1.609344\nprint(round(d, 2)"),
    decision("repl", "fix the parenthesis", code="d = 26.2 * 1.609344\nround(d, 2)"),
    decision("operator", "check with exact units", expression="26.2 mile", to="km"),
    decision("think", "both agree: 42.16 km"),
    decision("answer", "ready"),
]
WRITER = ["A marathon is about 42.16 km [2][3]."]
VOLATILE = {"duration"}  # wall time of a tool call: the only field that differs between two runs


def _transcript(messages):
    out = []
    for m in messages:
        assert isinstance(m, ChatMessage)
        out.append((m.id, m.kind, m.content, {k: v for k, v in m.meta.items() if k not in VOLATILE}))
    return out


def _run_both(tools_factory, history=()):
    ours_deps = deps_with(ORCHESTRATOR, WRITER, tools=tools_factory())
    ours = run_thread(new_state("s", "t", "How long is a marathon in km?", history), {"configurable": {"chat": ours_deps}})
    lg_deps = deps_with(ORCHESTRATOR, WRITER, tools=tools_factory())
    graph = build_state_graph()
    theirs = graph.invoke(new_state("s", "t", "How long is a marathon in km?", history), langgraph_config(lg_deps))
    return ours, theirs, ours_deps, lg_deps


def test_both_runners_give_the_same_transcript_with_real_tools(real_tools):
    ours, theirs, ours_deps, lg_deps = _run_both(lambda: real_tools, history=[("hi", "hello")])
    assert _transcript(ours["messages"]) == _transcript(theirs["messages"])
    assert ours["ready_to_answer"] is theirs["ready_to_answer"] is True
    # The same prompts reached the model, so the replay was faithful, not merely the replies.
    assert [c["messages"] for c in ours_deps.orchestrator.calls] == [c["messages"] for c in lg_deps.orchestrator.calls]
    kinds = [m.kind for m in ours["messages"]]
    assert kinds == ["human", "ai", "tool", "ai", "tool", "ai", "tool", "ai", "ai", "ai"]
    tools = [m for m in ours["messages"] if m.kind == "tool"]
    assert tools[0].meta["error"] and tools[1].content == "42.16" and tools[2].content.startswith("42.1648128")


def test_langgraph_checkpointer_keeps_the_thread(real_tools):
    from langgraph.checkpoint.memory import MemorySaver

    deps = deps_with(ORCHESTRATOR, WRITER, tools=real_tools)
    graph = build_state_graph(checkpointer=MemorySaver())
    config = langgraph_config(deps, thread_id="t")
    graph.invoke(new_state("s", "t", "How long is a marathon in km?"), config)
    saved = graph.get_state(config).values
    assert saved["messages"][-1].meta["type"] == "final_answer"
    assert len(saved["messages"]) == 10 and all(isinstance(m, ChatMessage) for m in saved["messages"])
