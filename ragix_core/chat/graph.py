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
"""

from __future__ import annotations

from typing import Any, Callable, Dict, List, Mapping, Optional

from ragix_core.core.events import EventBus, EventKind
from ragix_core.core.text import one_line
from ragix_core.tools.preview import DryRunStop

from .messages import final_answer, message_id
from .nodes import (DEPS_KEY, END_NODE, ORCHESTRATOR_NODE, TOOLS_NODE, WRITER_NODE, ChatDeps, RunnableConfig, deps_of,
                    fallback_answer, orchestrate, route_after_orchestrator, route_after_tools, run_tools, write)
from .state import ChatState, merge

__all__ = ["NODES", "ROUTES", "run_thread", "build_state_graph", "langgraph_config", "node_limit"]

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
