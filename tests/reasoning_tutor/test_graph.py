"""The proof graph: append-only log, replay, provenance, export."""

import json

import pytest

from ragix_core.reasoning_tutor.graph import GraphLogError, ProofGraph


def small(path=None):
    g = ProofGraph(path)
    a = g.add_node("action", "wc -l README.md", {"command": "wc -l README.md"})
    o = g.add_node("observation", "rc=0", {"stdout": "3 README.md"})
    f = g.add_node("claim", 'line_count("README.md", 3)', {"predicate": "line_count", "args": ["README.md", "3"]},
                   status="fact", prefix="F")
    c = g.add_node("claim", 'line_count("README.md", 3)', {"predicate": "line_count", "args": ["README.md", "3"]},
                   prefix="C")
    loose = g.add_node("claim", "line_count(x, 9)", prefix="C")
    g.add_edge(a.id, o.id, "derives", "executed")
    g.add_edge(o.id, f.id, "derives", "wc_lines")
    g.add_edge(f.id, c.id, "supports", "same fact")
    g.set_status(c.id, "validated", "derived")
    g.set_status(loose.id, "validated", "a bug would do this")
    return g


def test_provenance_reaches_the_observation_through_rule_and_support():
    g = small()
    assert [e.kind for e in g.provenance("C1")] == ["supports", "derives", "derives"]
    assert g.grounded("C1") and not g.grounded("C2")
    truths = {t["id"]: t["grounded"] for t in g.to_json()["truths"]}
    assert truths == {"C1": True, "C2": False}


def test_the_log_is_append_only_and_replays_into_the_same_graph(tmp_path):
    path = tmp_path / "g.jsonl"
    g = small(path)
    lines = path.read_text().splitlines()
    assert len(lines) == len(g.records) == 10
    g.set_status("C1", "stale", "a write happened")
    after = path.read_text().splitlines()
    assert after[:10] == lines and len(after) == 11  # nothing rewritten, one record added
    back = ProofGraph.replay(path)
    assert {n.id: (n.status, n.label) for n in back.nodes.values()} == {n.id: (n.status, n.label) for n in g.nodes.values()}
    assert back.edges == g.edges
    assert back.new_id("C") == "C3"  # ids continue after the replayed ones


def test_from_json_rebuilds_the_exported_graph():
    g = small()
    back = ProofGraph.from_json(json.loads(json.dumps(g.to_json())))
    assert back.edges == g.edges and list(back.nodes) == list(g.nodes)
    with pytest.raises(GraphLogError):
        ProofGraph.from_json({"nodes": [{"id": "A1"}], "edges": []})


def test_a_corrupt_log_is_an_error_naming_the_record(tmp_path):
    path = tmp_path / "g.jsonl"
    path.write_text('{"op": "edge", "edge": {"src": "A1", "dst": "O1", "kind": "derives"}}\n')
    with pytest.raises(GraphLogError, match="record 1"):
        ProofGraph.replay(path)
    with pytest.raises(GraphLogError, match="no such graph log"):
        ProofGraph.replay(tmp_path / "none.jsonl")


def test_mermaid_has_every_node_and_edge_with_safe_labels():
    g = small()
    g.add_node("question", 'setting("a|b", ?, ?v)', prefix="Q")
    text = g.to_mermaid()
    assert text.startswith("graph TD")
    for node_id in g.nodes:
        assert f"  {node_id}" in text
    assert "O1 -->|derives: wc_lines| F1" in text and "F1 -->|supports: same fact| C1" in text
    assert '"a|b"' not in text  # a pipe or a quote would end the label early


def test_unknown_kinds_and_nodes_are_refused():
    g = ProofGraph()
    with pytest.raises(ValueError):
        g.add_node("opinion", "x")
    g.add_node("action", "x")
    with pytest.raises(KeyError):
        g.add_edge("A1", "O9", "derives")
    with pytest.raises(ValueError):
        g.add_edge("A1", "A1", "likes")
