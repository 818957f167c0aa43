"""What ``ContractiveReasoner.solve`` returns: the answer, the tree, the metrics, and exports."""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Dict, List, Optional, Union

from ragix_core.reasoning_slim.tree import Node, NodeState, to_mermaid, walk

__all__ = ["ContractiveResult", "Metrics", "TRACE_VERSION"]

TRACE_VERSION = 1


@dataclass
class Metrics:
    total_tokens: int = 0
    duration: float = 0.0  # seconds, wall clock
    nodes: int = 0
    max_depth_reached: int = 0
    decomposed: bool = False  # the root was decomposed
    decompositions: int = 0  # nodes decomposed, anywhere in the tree
    loops: int = 0  # decompose→collapse cycles, rebranches included
    rebranches: int = 0
    pruned: int = 0
    llm_calls: int = 0
    peer_reviewed: int = 0
    peer_approved: int = 0

    def to_dict(self) -> Dict[str, Any]:
        out = asdict(self)
        out["duration"] = round(self.duration, 3)
        return out


@dataclass
class ContractiveResult:
    question: str
    final_answer: str
    root: Node
    metrics: Metrics
    stop_reason: str = "success"  # success | clarification_needed | no_answer | token_budget | llm_unavailable ...
    clarification: Optional[Dict[str, Any]] = None  # {"message", "interpretations": [{"reading", "answer"}]}
    params: Dict[str, Any] = field(default_factory=dict)
    events: List[Dict[str, Any]] = field(default_factory=list)  # the TREE_NODE transitions, in order
    models: Dict[str, str] = field(default_factory=dict)  # role -> backend:model

    @property
    def tree(self) -> List[Node]:
        """Every node, parents before children."""
        return list(walk(self.root))

    @property
    def max_depth_reached(self) -> int:
        return self.metrics.max_depth_reached

    @property
    def ok(self) -> bool:
        return self.stop_reason == "success"

    def to_mermaid(self) -> str:
        return to_mermaid(self.root)

    def to_dict(self) -> Dict[str, Any]:
        out: Dict[str, Any] = {
            "question": self.question,
            "final_answer": self.final_answer,
            "stop_reason": self.stop_reason,
            "tree": [n.to_dict() for n in self.tree],
            "metrics": self.metrics.to_dict(),
        }
        if self.clarification is not None:
            out["clarification"] = self.clarification
        return out

    def export_trace(self, path: Union[str, Path, None] = None) -> Dict[str, Any]:
        """The whole run as one JSON object (and written to ``path`` when given)."""
        trace = {"trace_version": TRACE_VERSION, "engine": "contractive", **self.to_dict(),
                 "params": self.params, "models": self.models, "events": self.events,
                 "mermaid": self.to_mermaid()}
        if path is not None:
            Path(path).write_text(json.dumps(trace, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
        return trace

    def summarize(self) -> str:
        m = self.metrics
        lines = [f"answer: {self.final_answer}",
                 f"stop: {self.stop_reason} · nodes {m.nodes} (pruned {m.pruned}) · depth {m.max_depth_reached} · "
                 f"decomposed {'yes' if m.decomposed else 'no'} · loops {m.loops} (rebranches {m.rebranches}) · "
                 f"llm calls {m.llm_calls} · tokens {m.total_tokens} · {m.duration:.1f}s"]
        if m.peer_reviewed:
            lines.append(f"peer: {m.peer_approved}/{m.peer_reviewed} approved")
        for node in self.tree:
            h = f"H={node.entropy.total:.2f}" if node.entropy else "H=-"
            mark = "" if node.state is NodeState.DONE else f" [{node.state.value}]"
            lines.append(f"{'  ' * node.depth}- {node.question[:70]} -> {node.answer[:50] or '∅'} ({h}){mark}")
        if self.clarification:
            lines.append("clarification: " + self.clarification.get("message", ""))
        return "\n".join(lines)
