"""Spec 002 §4.4's quick start, run as written (issue 40, item 1).

The block between the markers is the spec's, unmodified apart from the function bodies (the
spec leaves them as ``...``) and one level of indentation (it runs inside a test). The names the
block uses without importing or defining them (``TaskComplexity``, ``PlanStep``, ``ToolResult``,
``parse_plan_fn``, ``shell_fn``) are given just before it. The functions are async, as the spec
writes them; their bodies run real confined commands through ragix's ToolBox on a small project
where the first plan aims at a directory that does not exist, so the run fails a step, reflects
(with the corpus and the shell), replans, verifies and responds: every node of the block runs.
"""

from __future__ import annotations

import re
from pathlib import Path

from ragix_core.reasoning_v30 import Plan, ToolCall
from ragix_core.reasoning_v30.types import PlanStep, TaskComplexity, ToolResult
from ragix_core.tools import ToolBox

SOURCE = '''import subprocess


def run(user_input):
    return eval(user_input)


def call(cmd):
    return subprocess.call(cmd, shell=True)
'''


def _project(root: Path) -> Path:
    (root / "src").mkdir(parents=True)
    (root / "src" / "app.py").write_text(SOURCE)
    (root / "README.md").write_text("A tiny app.\n")
    return root


def test_spec_002_quick_start_runs_as_written(tmp_path, monkeypatch, capsys):
    project = _project(tmp_path / "project")
    monkeypatch.chdir(tmp_path)  # the block's corpus path, "experiences/", is relative
    tools = ToolBox(project, profile="reflect")
    plans_asked = []
    reflected_on = []

    def parse_plan_fn(raw: str, goal: str) -> Plan:
        steps = [PlanStep(num=i, description=f"run {cmd}", tool_call=ToolCall("shell", {"command": cmd}))
                 for i, cmd in enumerate(re.findall(r"^\$ (.+)$", raw, re.M), 1)]
        return Plan(objective=goal, steps=steps, confidence=0.6)

    def shell_fn(command: str) -> ToolResult:
        return tools.run_command(command)

    # --- spec 002 §4.4, as written -----------------------------------------------------------
    from ragix_core.reasoning_v30 import (
        ReasoningGraph, GraphBuilder, ReasoningState,
        ClassifyNode, DirectExecNode, PlanNode,
        ExecuteNode, ReflectNode, VerifyNode, RespondNode,
        HybridExperienceCorpus,
    )

    # Define LLM functions
    async def classify_fn(query: str) -> TaskComplexity:
        return TaskComplexity.COMPLEX if "vulnerabilities" in query else TaskComplexity.BYPASS
    async def llm_answer_fn(query: str) -> str:
        return "Hello."
    async def generate_plan_fn(query: str, context: str) -> str:
        plans_asked.append(context)
        if "Previous attempts" not in context:
            return "$ grep -rnE 'eval\\(|shell=True' source"  # a directory that does not exist
        return "$ grep -rnE 'eval\\(|shell=True' src"
    async def execute_step_fn(step: PlanStep) -> ToolResult:
        return tools.run_command(step.tool_call.args["command"])
    async def llm_reflect_fn(state: ReasoningState) -> str:
        reflected_on.append(state.last_error)
        return "the directory 'source' does not exist; the code is under src/"
    async def llm_verify_fn(answer: str, goal: str) -> bool:
        return "eval(" in answer and "shell=True" in answer

    # Build graph
    corpus = HybridExperienceCorpus("experiences/")
    graph = (GraphBuilder()
        .add_node(ClassifyNode(classify_fn))
        .add_node(DirectExecNode(llm_answer_fn))
        .add_node(PlanNode(generate_plan_fn, parse_plan_fn))
        .add_node(ExecuteNode(execute_step_fn))
        .add_node(ReflectNode(llm_reflect_fn, corpus, shell_fn))
        .add_node(VerifyNode(llm_verify_fn))
        .add_node(RespondNode())
        .build())

    # Run
    state = ReasoningState(goal="Find security vulnerabilities", session_id="001")
    final_state = graph.run(state)
    print(final_state.final_answer)
    # --- end of the spec's block ---------------------------------------------------------------

    assert isinstance(graph, ReasoningGraph)
    assert graph.trace == ["CLASSIFY", "PLAN", "EXECUTE", "REFLECT", "PLAN", "EXECUTE", "VERIFY", "RESPOND"]
    assert final_state.stop_reason == "success", final_state.last_error
    assert final_state.reflection_count == 1 and "source" in reflected_on[0]
    assert "revised" not in plans_asked[0] and "the code is under src/" in plans_asked[1]
    printed = capsys.readouterr().out
    assert "src/app.py:5:" in printed and "shell=True" in printed  # the answer is the tools' output
    assert final_state.executed_steps[0].result.returncode != 0  # the first plan's step really failed

    # Spec 002 §4.5: the same corpus records the run and finds it again.
    assert corpus.add_experience(final_state, success=True)
    assert (tmp_path / "experiences" / "experience" / "events.jsonl").is_file()
    similar = corpus.find_similar("security vulnerabilities", k=3)
    assert [e.session_id for e in similar] == ["001"]
    found = similar[0]
    assert found.success is True and found.outcome == "success" and found.complexity == "complex"
    assert found.commands == ["grep -rnE 'eval\\(|shell=True' source", "grep -rnE 'eval\\(|shell=True' src"]
    (grep,) = corpus.get_patterns("complex")
    assert (grep.shape, grep.successes, grep.failures) == ("grep", 1, 1)
    assert corpus.get_patterns("simple") == []
