"""A run that may only read: the plan's writes are not run, its reads are, and the user is told.

Real tool boxes (profile dev, non-interactive, no --yes), traces and corpus; a scripted model."""

from __future__ import annotations

from ragix_core.config import parse_config
from ragix_core.runtime.run import run_goal
from tests.reasoning_v30.test_agent_fns import ScriptedLLM

GOAL = "Create a directory named parentDir, then count the directories under docs"


def _plan(*commands):
    return {"objective": "o", "validation": "v", "confidence": 0.5,
            "steps": [{"num": i, "description": c, "tool": c.split()[0], "args": {"command": c}}
                      for i, c in enumerate(commands, 1)]}


def _run(repo, *commands):
    llm = ScriptedLLM([{"complexity": "MODERATE"}, _plan(*commands), "There is one directory under docs."] + ["x"] * 4)
    # spec 000's routing: the model labels the goal MODERATE, so it plans first (the main path's
    # read-only case is in tests/reasoning_v30/test_main_path.py)
    return run_goal(GOAL, cwd=repo, config=parse_config({"reasoning": {"routing": "classify_first"}}),
                    client_factory=lambda s: llm)


def test_the_reads_of_a_plan_run_after_its_refused_write_without_a_reflection(repo):
    res = _run(repo, "mkdir parentDir", "find docs -type d")
    assert res.state.stop_reason == "success" and "REFLECT" not in res.node_trace
    assert res.state.reflection_count == 0 and not (repo / "parentDir").exists()
    assert "did not run the plan's commands that write" in res.state.final_answer
    assert "--yes" in res.state.final_answer


def test_a_plan_of_writes_only_ends_saying_the_run_may_only_read(repo):
    res = _run(repo, "mkdir parentDir")
    assert res.state.stop_reason == "no_evidence" and not (repo / "parentDir").exists()
    answer = res.state.final_answer
    assert "- `mkdir parentDir`" in answer and "Start ragix with --yes" in answer
