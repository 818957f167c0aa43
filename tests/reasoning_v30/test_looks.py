"""ragix's own looks (reasoning_v30/looks.py): what is asked of them once per goal."""

from __future__ import annotations

from pathlib import Path

from ragix_core.reasoning_v30.looks import Looks


def test_would_answer_walks_the_project_once_per_goal(tmp_path: Path, monkeypatch):
    (tmp_path / "a.py").write_text("def f():\n    return 1\n")
    (tmp_path / "b.py").write_text("from a import f\n")
    looks = Looks(tmp_path)
    walks = []
    first = looks.first
    monkeypatch.setattr(looks, "first", lambda goal: walks.append(goal) or first(goal))
    goal = "Which modules import a.py?"
    assert looks.would_answer(goal) and looks.would_answer(goal)  # the label asks, then the route
    assert walks == [goal]
    assert looks.looked == set()  # asking marks nothing as looked at: PLAN's first looks still run
    assert looks.would_answer("What is a closure?") is False
    assert walks == [goal, "What is a closure?"]
