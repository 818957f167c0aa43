"""Running the chat graph: ragix's own small runner, and the same nodes as a LangGraph ``StateGraph``.

``run_thread`` is a loop over the node table: call the node, merge its partial
state with the reducer, follow the route. It publishes NODE_ENTER / NODE_EXIT
(with the node's new messages) on the event bus, hands every partial state to
``on_update`` (the session store persists messages as they appear), and turns a
node that raises into a final answer with ``stop_reason = node_exception:<node>``.
``KeyboardInterrupt`` is not caught: Ctrl-C stops the thread, the caller decides.

``build_state_graph`` wires the same functions into LangGraph (the optional
``langgraph`` package, imported only there) for people who run LangGraph with
its checkpointers; ``langgraph_config`` gives the run configuration both use.
``langchain_node`` is the whole chat as one node of someone else's LangGraph graph
whose state holds LangChain ``messages`` (``MessagesState``): it answers the last
HumanMessage and returns the thread's messages as LangChain messages.
"""

from __future__ import annotations

from typing import Any, Callable, Dict, List, Mapping, Optional, Tuple

from ragix_core.core.events import EventBus, EventKind
from ragix_core.core.text import one_line
from ragix_core.tools.preview import DryRunStop

from .lc_messages import FOREIGN_SOURCE
from .messages import FINAL_ANSWER, final_answer, message_id
from .nodes import (DEPS_KEY, END_NODE, ORCHESTRATOR_NODE, TOOLS_NODE, WRITER_NODE, ChatDeps, RunnableConfig, deps_of,
                    fallback_answer, orchestrate, route_after_orchestrator, route_after_tools, run_tools, write)
from .state import ChatState, merge

__all__ = ["NODES", "ROUTES", "run_thread", "build_state_graph", "langgraph_config", "node_limit", "langchain_node"]

NODES: Dict[str, Callable[[ChatState, Mapping[str, Any]], Dict[str, Any]]] = {
    ORCHESTRATOR_NODE: orchestrate,
    TOOLS_NODE: run_tools,
    WRITER_NODE: write,
}
ROUTES: Dict[str, Optional[Callable[[ChatState, Mapping[str, Any]], str]]] = {
    ORCHESTRATOR_NODE: route_after_orchestrator,
    TOOLS_NODE: route_after_tools,
    WRITER_NODE: None,  # the writer ends the thread
}
Update = Callable[[str, Dict[str, Any]], None]


def node_limit(deps: ChatDeps) -> int:
    """Node calls a thread can take: every step may call a tool, plus the writer (LangGraph's recursion_limit)."""
    return 2 * deps.max_reasoning_steps + 2


def _crashed(state: ChatState, node: str, exc: Exception) -> Dict[str, Any]:
    messages = state["messages"]
    reason = f"node_exception:{node}"
    text = fallback_answer(messages, f"{reason}: {type(exc).__name__}")
    return {"messages": [final_answer(message_id(state["thread_id"], len(messages)), text, stop_reason=reason,
                                      citations=[], error=f"{type(exc).__name__}: {one_line(exc, 500)}")]}


def run_thread(state: ChatState, config: RunnableConfig, *, bus: Optional[EventBus] = None,
               event_session: str = "", on_update: Optional[Update] = None) -> ChatState:
    """Run one thread from its question to its final answer; returns the final state."""
    limit = node_limit(deps_of(config))
    state = merge({**state, "messages": []}, {"messages": state.get("messages", [])})  # LangChain ones converted
    node = ORCHESTRATOR_NODE
    calls = 0
    while node != END_NODE:
        calls += 1
        if calls > limit and node != WRITER_NODE:  # cannot happen with the routes above; a guard, not a rule
            node = WRITER_NODE
        if bus is not None:
            bus.publish(EventKind.NODE_ENTER, event_session, node=node, engine="chat")
        try:
            partial = NODES[node](state, config)
            next_node = ROUTES[node](merge(state, partial), config) if ROUTES[node] else END_NODE
        except DryRunStop:
            raise  # a dry run ends at its first tool call: runtime/run.py reports what it would have run
        except Exception as exc:  # a bug in a node ends the thread with what it has, never a traceback
            partial, next_node = _crashed(state, node, exc), END_NODE
            if bus is not None:
                bus.publish(EventKind.NODE_ERROR, event_session, node=node, message=f"{type(exc).__name__}: {exc}")
        state = merge(state, partial)
        if on_update is not None:
            on_update(node, partial)
        if bus is not None:
            bus.publish(EventKind.NODE_EXIT, event_session, node=node, engine="chat", next=next_node,
                        messages=[m.to_dict() for m in partial.get("messages", [])])
        node = next_node
    return state


def langgraph_config(deps: ChatDeps, **configurable: Any) -> Dict[str, Any]:
    """The configuration both runners take; extra keys (``thread_id`` for a checkpointer) go beside the deps."""
    return {"configurable": {DEPS_KEY: deps, **configurable}, "recursion_limit": node_limit(deps) + 1}


def build_state_graph(checkpointer: Any = None) -> Any:
    """The chat graph as a compiled LangGraph ``StateGraph`` over the same node and route functions."""
    try:
        from langgraph.graph import END, START, StateGraph
    except ImportError as exc:
        raise ImportError("the LangGraph builder needs the optional 'langgraph' package "
                          f"(pip install 'ragix[dev]' or 'langgraph>=0.2'): {exc}") from None
    graph = StateGraph(ChatState)
    for name, fn in NODES.items():
        graph.add_node(name, fn)
    graph.add_edge(START, ORCHESTRATOR_NODE)
    targets: List[str] = [ORCHESTRATOR_NODE, TOOLS_NODE, WRITER_NODE]
    for name, route in ROUTES.items():
        if route is None:
            graph.add_edge(name, END)
        else:
            graph.add_conditional_edges(name, route, {t: t for t in targets})
    return graph.compile(checkpointer=checkpointer)


def _conversation(messages: List[Any], system_messages: str) -> Tuple[str, List[Tuple[str, str]], int]:
    """The question (the last HumanMessage), the earlier (question, answer) pairs, the number of questions."""
    from .lc_messages import MessageConversionError, from_langchain_all

    kept = []
    for m in messages:
        if type(m).__name__ == "SystemMessage" and system_messages == "skip":
            continue
        kept.append(m)
    converted = from_langchain_all(kept)  # refuses what a thread cannot hold, naming the type
    if not converted or converted[-1].kind != "human":
        last = type(kept[-1]).__name__ if kept else "nothing"
        raise MessageConversionError("the ragix chat node answers the last HumanMessage; "
                                     f"the messages end with {last}")
    history: List[Tuple[str, str]] = []
    humans = [i for i, m in enumerate(converted) if m.kind == "human"]
    for start, end in zip(humans, humans[1:]):
        answers = [m for m in converted[start + 1:end] if m.kind == "ai" and
                   (m.type == FINAL_ANSWER or (m.source == FOREIGN_SOURCE and not m.meta.get("tool_name")))]
        if answers:
            history.append((converted[start].content, answers[-1].content))
    return converted[-1].content, history, len(humans)


def langchain_node(deps: ChatDeps, *, system_messages: str = "refuse",
                   steps: bool = True) -> Callable[..., Dict[str, Any]]:
    """A LangGraph node over a state whose ``messages`` are LangChain messages. It answers the last
    HumanMessage in a ragix thread (earlier questions and answers are its history) and returns
    ``{"messages": [...]}``: the reasoning steps (AIMessage, with ``tool_calls`` when a tool was asked
    for), the tool results (ToolMessage) and the final answer, or only the answer with ``steps=False``.
    A SystemMessage is refused (ragix adds its own prompts) unless ``system_messages="skip"``."""
    from .lc_messages import to_langchain_all
    from .state import new_state

    if system_messages not in ("refuse", "skip"):
        raise ValueError(f"system_messages must be 'refuse' or 'skip', not {system_messages!r}")

    def ragix_chat(state: Mapping[str, Any], config: RunnableConfig = None) -> Dict[str, Any]:
        question, history, turn = _conversation(list(state.get("messages") or []), system_messages)
        session = str(((config or {}).get("configurable") or {}).get("thread_id") or "langgraph")
        # Ids unique per turn: LangGraph's add_messages replaces a message whose id it already holds.
        thread = run_thread(new_state(session, f"{session}:turn{turn}", question, history),
                            langgraph_config(deps))
        new = thread["messages"][1:]
        return {"messages": to_langchain_all(new if steps else new[-1:])}

    return ragix_chat
