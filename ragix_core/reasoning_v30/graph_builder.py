"""Spec 002 §4.4's fluent way to assemble the graph: ``GraphBuilder().add_node(...).build()``.

It builds the one ``ReasoningGraph`` of spec 000 (there is no second graph): each node is keyed
by its ``name`` (CLASSIFY, PLAN, ...), the run starts at CLASSIFY and ends at END, and the
nodes' own routing decides the rest, exactly as with the dict spec 000 §8.3 passes.
"""

from __future__ import annotations

from typing import Any, Dict

from .graph import BaseNode, GraphError, ReasoningGraph

__all__ = ["GraphBuilder"]


class GraphBuilder:
    def __init__(self) -> None:
        self._nodes: Dict[str, BaseNode] = {}

    def add_node(self, node: BaseNode) -> "GraphBuilder":
        """Add ``node`` under its ``name``; a second node of the same name is an error, not a replacement."""
        name = getattr(node, "name", None)
        if not isinstance(name, str) or not name or not callable(getattr(node, "run", None)):
            raise GraphError(f"add_node takes a node (an object with a `name` and a `run(state)`), "
                             f"got {type(node).__name__}")
        if name in self._nodes:
            raise GraphError(f"the graph already has a {name} node ({type(self._nodes[name]).__name__}); "
                             "add each node once")
        self._nodes[name] = node
        return self

    def build(self, start: str = "CLASSIFY", end: str = "END", **options: Any) -> ReasoningGraph:
        """The graph; ``options`` are ``ReasoningGraph``'s (events, checkpoint_path, max_iterations, fallback)."""
        return ReasoningGraph(dict(self._nodes), start=start, end=end, **options)
