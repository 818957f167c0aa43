"""The reasoning tree: nodes as plain data, and its Mermaid picture.

A node records everything an auditor needs to see why it ended as it did: its question,
the state it reached, the entropy components of its samples, its relevance to the root,
the tokens spent on it, its reviews, and (for a decomposed node) each collapse attempt.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from enum import Enum
from typing import Any, Dict, Iterator, List, Optional

from ragix_core.reasoning_slim.entropy import EntropyReport

__all__ = ["NodeState", "Node", "walk", "to_mermaid", "tree_from_events"]


class NodeState(str, Enum):
    NEW = "new"
    NORMALIZE = "normalize"
    SOLVE = "solve"  # sampling k direct answers (entropy)
    DECOMPOSE = "decompose"
    PRE_REVIEW = "pre_review"
    PEER_REVIEW = "peer_review"
    COLLAPSE = "collapse"
    DONE = "done"
    PRUNED = "pruned"  # below min_relevance_threshold: no model call was spent on it
    FAILED = "failed"  # no usable answer (every sample invalid, or the budget ran out first)


@dataclass
class Node:
    id: int
    depth: int
    question: str
    parent: Optional[int] = None
    state: NodeState = NodeState.NEW
    answer: str = ""
    reasoning: str = ""
    entropy: Optional[EntropyReport] = None  # of the direct samples
    answer_entropy: Optional[float] = None  # H behind the answer kept: the direct one, or the accepted collapse's
    relevance: float = 1.0
    tokens: int = 0  # spent on this node's own calls (children not included)
    llm_calls: int = 0
    decomposed: bool = False
    children: List["Node"] = field(default_factory=list)
    samples: List[Dict[str, str]] = field(default_factory=list)  # {"answer", "reasoning"[, "reading"]}
    pre_review: Optional[Dict[str, float]] = None
    peer: Optional[Dict[str, Any]] = None  # {"verdict", "score", "model_verdict", "suggestion"}
    collapses: List[Dict[str, Any]] = field(default_factory=list)  # one per attempt
    outcome: str = ""  # why it ended this way, in a few words
    history: List[str] = field(default_factory=list)  # states visited, in order

    def enter(self, state: NodeState) -> None:
        self.state = state
        self.history.append(state.value)

    @property
    def excluded(self) -> bool:
        """Left out of its parent's collapse: pruned, failed, or rejected by the peer."""
        return self.state in (NodeState.PRUNED, NodeState.FAILED) or (self.peer or {}).get("verdict") == "reject"

    def subtree_tokens(self) -> int:
        return self.tokens + sum(c.subtree_tokens() for c in self.children)

    def to_dict(self, *, with_children: bool = False) -> Dict[str, Any]:
        out = {
            "id": self.id,
            "parent": self.parent,
            "depth": self.depth,
            "state": self.state.value,
            "question": self.question,
            "answer": self.answer,
            "reasoning": self.reasoning,
            "entropy": self.entropy.to_dict() if self.entropy else None,
            "answer_entropy": round(self.answer_entropy, 4) if self.answer_entropy is not None else None,
            "relevance": round(self.relevance, 4),
            "tokens": self.tokens,
            "llm_calls": self.llm_calls,
            "decomposed": self.decomposed,
            "children": [c.id for c in self.children],
            "samples": list(self.samples),
            "pre_review": self.pre_review,
            "peer": self.peer,
            "collapses": list(self.collapses),
            "outcome": self.outcome,
            "history": list(self.history),
        }
        if with_children:
            out["children"] = [c.to_dict(with_children=True) for c in self.children]
        return out


def walk(root: Node) -> Iterator[Node]:
    """Depth first, parents before children, children in creation order."""
    stack = [root]
    while stack:
        node = stack.pop()
        yield node
        stack.extend(reversed(node.children))


_UNSAFE = re.compile(r'["<>`\[\]{}()|#;&]')


def _label(text: str, limit: int) -> str:
    # Mermaid labels are quoted strings: quotes, brackets and HTML-ish characters become spaces
    # (an entity like #quot; would be fine in a browser but unreadable in the .mmd file).
    text = " ".join(_UNSAFE.sub(" ", str(text or "")).split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


_CLASS = {NodeState.DONE: "done", NodeState.PRUNED: "pruned", NodeState.FAILED: "failed"}


def to_mermaid(root: Node, *, label_chars: int = 60) -> str:
    """A ``graph TD`` flowchart: one box per node (question, answer, H, relevance, tokens)."""
    lines = ["graph TD"]
    for node in walk(root):
        h = f"H={node.entropy.total:.2f}" if node.entropy else "H=-"
        parts = [f"Q: {_label(node.question, label_chars)}"]
        if node.answer:
            parts.append(f"A: {_label(node.answer, label_chars)}")
        stats = f"{h} rel={node.relevance:.2f} tok={node.tokens} {node.state.value}"
        if node.peer:
            stats += f" peer={node.peer.get('verdict')}"
        parts.append(stats)
        lines.append(f'    n{node.id}["' + "<br/>".join(parts) + '"]')
    for node in walk(root):
        for child in node.children:
            lines.append(f"    n{node.id} --> n{child.id}")
    lines += ["    classDef done fill:#e6ffe6,stroke:#2a2",
              "    classDef pruned fill:#eee,stroke:#999,stroke-dasharray: 4 4",
              "    classDef failed fill:#ffe6e6,stroke:#c22",
              "    classDef rejected fill:#fff2cc,stroke:#c90"]
    for node in walk(root):
        cls = "rejected" if (node.peer or {}).get("verdict") == "reject" else _CLASS.get(node.state)
        if cls:
            lines.append(f"    class n{node.id} {cls}")
    return "\n".join(lines) + "\n"


def tree_from_events(records: List[Dict[str, Any]]) -> Optional[Node]:
    """The tree as its ``tree_node`` events left it (each node's last event wins), for a past run
    read from its trace: enough for ``to_mermaid`` (question, answer, H, relevance, tokens, state,
    the peer's verdict), not for resuming. None when the records hold no root."""
    last: Dict[int, Dict[str, Any]] = {}
    for record in records:
        if isinstance(record, dict) and isinstance(record.get("node_id"), int):
            last[record["node_id"]] = record
    nodes: Dict[int, Node] = {}
    for node_id in sorted(last):
        r = last[node_id]
        try:
            state = NodeState(r.get("state"))
        except ValueError:
            state = NodeState.NEW
        h = r.get("entropy")
        nodes[node_id] = Node(id=node_id, depth=int(r.get("depth") or 0), question=str(r.get("question") or ""),
                              parent=r.get("parent"), state=state, answer=str(r.get("answer") or ""),
                              entropy=EntropyReport(0.0, 0.0, 0.0, float(h), 0, 0) if isinstance(h, (int, float)) else None,
                              relevance=float(r.get("relevance") or 0.0), tokens=int(r.get("tokens") or 0),
                              peer={"verdict": r["peer"]} if r.get("peer") else None)
    root = None
    for node in nodes.values():  # ids grow as nodes are made: children come in their parent's order
        parent = nodes.get(node.parent) if node.parent is not None else None
        if parent is not None:
            parent.children.append(node)
        elif root is None and node.parent is None:
            root = node
    return root
