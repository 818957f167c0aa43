# tests/reasoning_v30/test_reasoning_graph_v30.py

from pathlib import Path

from ragix_core.reasoning_v30.graph import ReasoningGraph
from ragix_core.reasoning_v30.nodes import (
    ClassifyNode,
    DirectExecNode,
    PlanNode,
    ExecuteNode,
    ReflectNode,
    VerifyNode,
    RespondNode,
)
from ragix_core.reasoning_v30.types import ReasoningState, TaskComplexity
from ragix_core.reasoning_v30.experience import HybridExperienceCorpus


def dummy_classify(goal: str) -> TaskComplexity:
    if "Explain the difference" in goal:
        return TaskComplexity.BYPASS
    if "largest markdown file" in goal:
        return TaskComplexity.MODERATE
    return TaskComplexity.SIMPLE


def test_bypass_flow(tmp_path: Path):
    state = ReasoningState(
        goal="Explain the difference between cyclomatic complexity and cognitive complexity.",
        session_id="test-bypass"
    )

    experience = HybridExperienceCorpus(
        global_root=tmp_path / "global",
        project_root=tmp_path / "project"
    )

    nodes = {
        "CLASSIFY": ClassifyNode(dummy_classify),
        "DIRECT_EXEC": DirectExecNode(lambda goal: {"answer": "dummy", "confidence": 0.8}),
        "PLAN": PlanNode(lambda g, ctx: {}, lambda raw, g: None),
        "EXECUTE": ExecuteNode(lambda step, st: step, {}),
        "REFLECT": ReflectNode(lambda payload: {}, experience, lambda cmd: None),
        "VERIFY": VerifyNode(lambda st: {"answer": st.final_answer, "confidence": st.confidence or 0.5}),
        "RESPOND": RespondNode(lambda ev: None),
        "END": RespondNode(lambda ev: None),
    }

    graph = ReasoningGraph(nodes=nodes, start="CLASSIFY", end="END")
    final_state = graph.run(state)

    assert final_state.final_answer == "dummy"
    assert final_state.stop_reason == "success"
