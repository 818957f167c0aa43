"""The proof-carrying graph of one game, kept as an append-only event log.

Nodes are actions (A), observations (O: a tool output), entities (E: a path an
observation showed), claims (F: facts a rule derived; C: claims the player made)
and questions (Q). Edges are ``derives`` (A→O, O→F, F→F, O→E), ``supports``
(F→C, O→C, F→Q, C→Q) and ``refutes`` (F→C, O→C).

Every change is one record appended to the session's JSONL file (one write under
flock, see memory/jsonl_log.py) *and* kept in memory, so the file replays into
the same graph (``ProofGraph.replay``), and moves and verdicts sit in the same
ordered log as the evidence they produced. The graph is never edited in place:
a claim's status changes by a new ``status`` record.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Dict, Iterable, List, Optional, Set

from ragix_core.core.text import one_line
from ragix_core.memory.errors import CorpusWriteError
from ragix_core.memory.jsonl_log import JsonlLog, LogReader

__all__ = ["ProofGraph", "Node", "Edge", "NODE_KINDS", "EDGE_KINDS", "GraphLogError", "graph_from_events"]

NODE_KINDS = ("action", "observation", "entity", "claim", "question")
EDGE_KINDS = ("supports", "refutes", "derives")
_PREFIX = {"action": "A", "observation": "O", "entity": "E", "question": "Q"}


class GraphLogError(ValueError):
    """A stored graph log that cannot be replayed (names the line and the problem)."""


@dataclass
class Node:
    id: str
    kind: str
    label: str
    data: Dict[str, Any] = field(default_factory=dict)
    status: str = ""
    turn: int = 0

    def to_dict(self) -> Dict[str, Any]:
        return {"id": self.id, "kind": self.kind, "label": self.label, "data": self.data, "status": self.status,
                "turn": self.turn}


@dataclass(frozen=True)
class Edge:
    src: str
    dst: str
    kind: str
    label: str = ""

    def to_dict(self) -> Dict[str, Any]:
        return {"src": self.src, "dst": self.dst, "kind": self.kind, "label": self.label}


class ProofGraph:
    def __init__(self, log_path: Optional[Path] = None) -> None:
        self.nodes: Dict[str, Node] = {}
        self.edges: List[Edge] = []
        self.records: List[Dict[str, Any]] = []
        self.log_path = Path(log_path) if log_path else None
        self._log = JsonlLog(self.log_path) if self.log_path else None
        self.write_error: Optional[str] = None  # set once if the log could not be written (disk full...)
        self._counters: Dict[str, int] = {}
        self._incoming: Dict[str, List[Edge]] = {}
        self._edge_set: Set[Edge] = set()

    # ------------------------------------------------------------ mutations
    def new_id(self, prefix: str) -> str:
        self._counters[prefix] = self._counters.get(prefix, 0) + 1
        return f"{prefix}{self._counters[prefix]}"

    def add_node(self, kind: str, label: str, data: Optional[Dict[str, Any]] = None, *, status: str = "",
                 turn: int = 0, prefix: Optional[str] = None) -> Node:
        if kind not in NODE_KINDS:
            raise ValueError(f"unknown node kind {kind!r}")
        node = Node(self.new_id(prefix or _PREFIX[kind]), kind, one_line(label, 200), dict(data or {}), status, turn)
        self._apply_node(node)
        self._record({"op": "node", "node": node.to_dict()})
        return node

    def add_edge(self, src: str, dst: str, kind: str, label: str = "") -> Optional[Edge]:
        """Add an edge once; returns None when the same edge already exists."""
        if kind not in EDGE_KINDS:
            raise ValueError(f"unknown edge kind {kind!r}")
        if src not in self.nodes or dst not in self.nodes:
            raise KeyError(f"edge {src}->{dst}: unknown node")
        edge = Edge(src, dst, kind, label)
        if edge in self._edge_set:
            return None
        self._apply_edge(edge)
        self._record({"op": "edge", "edge": edge.to_dict()})
        return edge

    def set_status(self, node_id: str, status: str, reason: str = "") -> None:
        self.nodes[node_id].status = status
        self._record({"op": "status", "id": node_id, "status": status, "reason": reason})

    def note(self, op: str, **data: Any) -> None:
        """A record that is not a graph change: a move, a verdict, the game's start and end."""
        self._record({"op": op, **data})

    # ------------------------------------------------------------- queries
    def incoming(self, node_id: str, kinds: Iterable[str] = EDGE_KINDS) -> List[Edge]:
        wanted = set(kinds)
        return [e for e in self._incoming.get(node_id, []) if e.kind in wanted]

    def of_kind(self, kind: str) -> List[Node]:
        return [n for n in self.nodes.values() if n.kind == kind]

    def provenance(self, node_id: str) -> List[Edge]:
        """The supports/derives edges behind a node, back to the observations (breadth first)."""
        seen: Set[str] = {node_id}
        queue, out = [node_id], []
        while queue:
            current = queue.pop(0)
            for edge in self.incoming(current, ("supports", "derives")):
                out.append(edge)
                if edge.src not in seen:
                    seen.add(edge.src)
                    queue.append(edge.src)
        return out

    def grounded(self, node_id: str) -> bool:
        """True when some chain of supports/derives edges leads from an observation to the node."""
        return any(self.nodes[e.src].kind == "observation" for e in self.provenance(node_id))

    # -------------------------------------------------------------- export
    def to_json(self) -> Dict[str, Any]:
        truths = [n for n in self.nodes.values() if n.kind == "claim" and n.status == "validated"]
        return {
            "nodes": [n.to_dict() for n in self.nodes.values()],
            "edges": [e.to_dict() for e in self.edges],
            "truths": [{"id": n.id, "claim": n.label, "grounded": self.grounded(n.id),
                        "provenance": [e.to_dict() for e in self.provenance(n.id)]} for n in truths],
            "log": self.log_path and str(self.log_path),
        }

    def to_mermaid(self) -> str:
        shapes = {"action": ('["', '"]'), "observation": ('[("', '")]'), "entity": ('(("', '"))'),
                  "question": ('>"', '"]'), "claim": ('(["', '"])')}
        lines = ["graph TD"]
        for n in self.nodes.values():
            left, right = shapes[n.kind]
            status = f" [{n.status}]" if n.status else ""
            text = _mermaid_text(f"{n.id} {n.label}{status}")
            cls = n.kind if n.kind != "claim" else ("fact" if n.id.startswith("F") else f"claim_{n.status or 'new'}")
            lines.append(f"  {n.id}{left}{text}{right}:::{cls}")
        for e in self.edges:
            arrow = "-.->" if e.kind == "refutes" else "-->"
            label = _mermaid_text(f"{e.kind}{': ' + e.label if e.label else ''}")
            lines.append(f"  {e.src} {arrow}|{label}| {e.dst}")
        lines += ["  classDef action fill:#e8f0fe,stroke:#4a6fb5", "  classDef observation fill:#f1f8e9,stroke:#558b2f",
                  "  classDef entity fill:#fafafa,stroke:#9e9e9e", "  classDef question fill:#fff8e1,stroke:#f9a825",
                  "  classDef fact fill:#ede7f6,stroke:#5e35b1", "  classDef claim_validated fill:#c8e6c9,stroke:#2e7d32",
                  "  classDef claim_refuted fill:#ffcdd2,stroke:#c62828"]
        return "\n".join(lines) + "\n"

    def drawn_since(self, start: int) -> List[Dict[str, Any]]:
        """The graph changes from record ``start`` on, each with what ``to_mermaid`` draws (a node without its
        data: an observation's output stays in the graph log): what the run's events carry, so that a past run
        read from its trace alone redraws its graph (``graph_from_events``)."""
        out: List[Dict[str, Any]] = []
        for record in self.records[start:]:
            if record["op"] == "node":
                out.append({"op": "node", "node": {k: v for k, v in record["node"].items() if k != "data"}})
            elif record["op"] == "edge":
                out.append({"op": "edge", "edge": record["edge"]})
            elif record["op"] == "status":
                out.append({"op": "status", "id": record["id"], "status": record["status"]})
        return out

    # ------------------------------------------------------------ log + replay
    @classmethod
    def from_json(cls, data: Dict[str, Any]) -> "ProofGraph":
        """A graph from ``to_json()`` output (an exported game, a run's ``meta``); not logged anywhere."""
        graph = cls()
        try:
            for i, d in enumerate(data["nodes"]):
                graph._replay_one({"op": "node", "node": d}, f"node #{i + 1}")
            for i, d in enumerate(data["edges"]):
                graph._replay_one({"op": "edge", "edge": d}, f"edge #{i + 1}")
        except (KeyError, TypeError) as exc:
            raise GraphLogError(f"not an exported proof graph: {type(exc).__name__}: {exc}") from None
        return graph

    @classmethod
    def replay(cls, path: Path) -> "ProofGraph":
        """Rebuild a graph from its log file (the file is read, never written)."""
        graph = cls()
        reader = LogReader(path)
        for lineno, (_, record) in enumerate(reader, start=1):
            graph._replay_one(record, f"{path}: record {lineno}")
        if not graph.records and not Path(path).is_file():
            raise GraphLogError(f"{path}: no such graph log")
        graph.log_path = Path(path)
        return graph

    def _replay_one(self, record: Dict[str, Any], where: str) -> None:
        op = record.get("op")
        try:
            if op == "node":
                d = record["node"]
                node = Node(d["id"], d["kind"], d["label"], dict(d.get("data") or {}), d.get("status", ""),
                            int(d.get("turn", 0)))
                if node.kind not in NODE_KINDS:
                    raise ValueError(f"unknown node kind {node.kind!r}")
                prefix = node.id.rstrip("0123456789")
                self._counters[prefix] = max(self._counters.get(prefix, 0), int(node.id[len(prefix):] or 0))
                self._apply_node(node)
            elif op == "edge":
                d = record["edge"]
                self._apply_edge(Edge(d["src"], d["dst"], d["kind"], d.get("label", "")))
            elif op == "status":
                self.nodes[record["id"]].status = record["status"]
        except (KeyError, TypeError, ValueError) as exc:
            raise GraphLogError(f"{where}: cannot replay {op!r} record: {type(exc).__name__}: {exc}") from None
        self.records.append(record)

    def _apply_node(self, node: Node) -> None:
        if node.id in self.nodes:
            raise ValueError(f"duplicate node id {node.id}")
        self.nodes[node.id] = node

    def _apply_edge(self, edge: Edge) -> None:
        if edge.kind not in EDGE_KINDS:
            raise ValueError(f"unknown edge kind {edge.kind!r}")
        if edge.src not in self.nodes or edge.dst not in self.nodes:
            raise KeyError(f"edge {edge.src}->{edge.dst} names an unknown node")
        self.edges.append(edge)
        self._edge_set.add(edge)
        self._incoming.setdefault(edge.dst, []).append(edge)

    def _record(self, record: Dict[str, Any]) -> None:
        record = {"seq": len(self.records) + 1, "ts": round(time.time(), 3), **record}
        self.records.append(record)
        if self._log is None or self.write_error:
            return
        try:
            self._log.append(record)
        except CorpusWriteError as exc:  # the game goes on in memory; the result says the log is incomplete
            self.write_error = str(exc)


def graph_from_events(records: Iterable[Any]) -> Optional[ProofGraph]:
    """The proof graph as a run's events drew it (the ``graph`` changes its run_start, verdict and run_end
    events carry, see ``drawn_since``), for a past run read from its trace: enough for ``to_mermaid``, not for
    replaying the game (the nodes have no data). None when the records carry no graph change; GraphLogError
    when they do not replay (a trace cut short, or edited)."""
    graph = ProofGraph()
    for i, record in enumerate(records, start=1):
        changes = record.get("graph") if isinstance(record, dict) else None
        if not isinstance(changes, list):
            continue
        for j, change in enumerate(changes, start=1):
            if not isinstance(change, dict):
                raise GraphLogError(f"event {i}: graph change {j} is not an object")
            graph._replay_one(change, f"event {i}: graph change {j}")
    return graph if graph.records else None


def _mermaid_text(text: str) -> str:
    """Label text safe inside a quoted Mermaid label."""
    return one_line(text, 70).replace('"', "#quot;").replace("|", "#124;").replace("<", "#lt;").replace(">", "#gt;")
