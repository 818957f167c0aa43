"""The conversational agent of spec 003: thinking in visible steps, then answering.

    orchestrator (planner role) ─ think / repl / operator / search / answer ─► writer (worker role)

Modules: ``messages`` (the thread's messages, the single source of truth),
``state`` (the state and its reducer), ``decision`` (the orchestrator's JSON),
``nodes`` (pure ``(state, config) -> partial state`` nodes and routes), ``graph``
(ragix's runner and the LangGraph builder), ``tools`` / ``search`` / ``repl_driver``
(repl, operator, search; documents are searched through the research engine's
index), ``web_search`` (Tavily, only from the user's own config), ``lc_messages``
(LangChain messages both ways), ``store`` (sessions in SQLite), ``session`` (one stored turn), ``build``
(deps from a RunContext; the registry's engine). Names load lazily: importing the
package costs nothing.
"""

from __future__ import annotations

from ragix_core.core.lazy import lazy_exports

_EXPORTS = {
    "ChatMessage": "messages", "ChatState": "state", "merge": "state", "new_state": "state",
    "Decision": "decision", "ChatDeps": "nodes", "orchestrate": "nodes", "run_tools": "nodes", "write": "nodes",
    "run_thread": "graph", "build_state_graph": "graph", "langgraph_config": "graph",
    "ChatTools": "tools", "ReplTool": "tools", "OperatorTool": "tools", "SearchTool": "tools",
    "SearchHit": "search", "SearchProvider": "search", "ChatStore": "store", "run_turn": "session",
    "TurnResult": "session", "chat_setup": "build", "langchain_node": "graph",
    "to_langchain_all": "lc_messages", "from_langchain_all": "lc_messages", "MessageConversionError": "lc_messages",
    "TavilyProvider": "web_search", "WebSearchError": "web_search",
}

__all__ = sorted(_EXPORTS)
__getattr__ = lazy_exports(__name__, _EXPORTS)
