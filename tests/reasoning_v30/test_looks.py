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


def test_a_question_about_the_files_of_a_type_is_looked_at_first_once_and_only_when_asked_alone(tmp_path: Path):
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "guide.md").write_text("# Guide\n\n## Install\n")
    looks = Looks(tmp_path)
    steps = looks.first("Which markdown file has the most lines?")
    assert [s.tool_call.args["command"] for s in steps] == ["find . -type f -name '*.md' | xargs wc -l | sort -n"]
    assert "(ragix)" in steps[0].description
    assert looks.first("Which markdown file has the most lines?") == []  # once a run
    # a second ask needs a plan: the ranking alone does not list the headings
    assert Looks(tmp_path).first("Find the markdown file with the most lines, then list its level-2 headings.") == []
    assert Looks(tmp_path).would_answer("List all markdown files in this repository.")


def test_a_call_trace_is_searched_then_each_function_of_the_chain_is_shown(tmp_path: Path):
    (tmp_path / "cli.py").write_text('from api import handle\n\n\ndef main(argv):\n    if argv[0] == "get":\n'
                                     '        return handle(argv[1])\n')
    (tmp_path / "api.py").write_text("def handle(key):\n    return key.upper()\n")
    looks = Looks(tmp_path)
    steps = looks.first("Trace the cli command `get`: which functions are called?")
    assert [s.tool_call.args["command"] for s in steps] == [
        "grep -rnw --include='*.py' get .", "sed -n '4,6p' cli.py", "sed -n '1,2p' api.py"]
    assert "main (cli.py) calls handle; handle (api.py) calls no function" in steps[0].tool_call.args["aside"]
    assert looks.first("Trace the cli command `get`: which functions are called?") == []  # once a run
    assert Looks(tmp_path).first("Trace the command `put`") == []  # nothing handles it: the model plans


def test_the_call_chain_is_walked_once_a_goal_when_the_route_asks_before_plan_does(tmp_path: Path, monkeypatch):
    import ragix_core.reasoning_v30.looks as looks_module
    (tmp_path / "cli.py").write_text('def main(argv):\n    if argv[0] == "get":\n        return 1\n')
    walks = []
    real = looks_module.call_chain
    monkeypatch.setattr(looks_module, "call_chain", lambda goal, root: walks.append(goal) or real(goal, root))
    looks = Looks(tmp_path)
    goal = "Trace the cli command `get`"
    assert looks.would_answer(goal) and looks.first(goal)  # the route asks, then PLAN runs the looks
    assert walks == [goal]
