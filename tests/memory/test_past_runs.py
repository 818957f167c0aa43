"""Spec 002 §4.5's views of the corpus with a global and a project corpus (spec 000's two roots)."""

from __future__ import annotations

import pytest

from ragix_core.memory.experience import HybridExperienceCorpus
from ragix_core.core.types import (PlanStep, ReasoningState, StepStatus, TaskComplexity, ToolCall, ToolResult)


def _run(sid: str, goal: str, commands, complexity=TaskComplexity.MODERATE, stop="success") -> ReasoningState:
    state = ReasoningState(goal=goal, session_id=sid, complexity=complexity)
    for i, (cmd, ok) in enumerate(commands, 1):
        state.executed_steps.append(PlanStep(i, f"step {i}", ToolCall("shell", {"command": cmd}),
                                             StepStatus.SUCCESS if ok else StepStatus.FAILED,
                                             ToolResult("shell", 0 if ok else 2, stdout="out" if ok else "",
                                                        stderr="" if ok else "No such file")))
    state.stop_reason, state.final_answer = stop, "the answer"
    return state


@pytest.fixture()
def corpus(tmp_path):
    return HybridExperienceCorpus(tmp_path / "global", tmp_path / "project")


def test_a_run_in_both_corpora_is_found_once_with_its_outcome(corpus):
    assert corpus.add_experience(_run("a", "count the markdown files", [("find . -name '*.md' | wc -l", True)]), True)
    assert corpus.add_experience(_run("b", "count the python files", [("ls src | wc -l", False)],
                                      stop="max_reflections"), False)
    found = corpus.find_similar("count markdown files", k=5)
    assert [e.session_id for e in found][0] == "a" and len({e.session_id for e in found}) == len(found)
    first = found[0]
    assert (first.success, first.outcome, first.source, first.answer) == (True, "success", "project", "the answer")
    failed = next(e for e in found if e.session_id == "b")
    assert (failed.success, failed.outcome) == (False, "max_reflections")
    assert corpus.find_similar("count", k=0) == []


def test_patterns_count_each_event_once_across_corpora(corpus):
    corpus.add_experience(_run("a", "g1", [("grep -rn x . | wc -l", True), ("cat nope", False)]), False)
    corpus.add_experience(_run("b", "g2", [("grep -c y README.md", True)]), True)
    corpus.add_experience(_run("c", "g3", [("grep z", True)], complexity=TaskComplexity.COMPLEX), True)
    shapes = {(p.shape, p.successes, p.failures) for p in corpus.get_patterns("MODERATE")}
    assert shapes == {("grep | wc", 1, 0), ("cat", 0, 1), ("grep", 1, 0)}
    assert [p.shape for p in corpus.get_patterns(TaskComplexity.COMPLEX)] == ["grep"]
    with pytest.raises(ValueError, match="unknown pattern category 'hard'.*bypass, simple, moderate, complex"):
        corpus.get_patterns("hard")
