"""A count of names where the goal counts lines is mended by ragix: the same files, their lines counted
(evidence/line_count_mends.py), at once on the main path."""

from __future__ import annotations

from pathlib import Path

import pytest

from ragix_core.evidence.line_count_mends import line_count_mend
from tests.reasoning_v30.test_main_path import commands_run, fenced, run


@pytest.fixture()
def tree(tmp_path, monkeypatch) -> Path:
    monkeypatch.setenv("RAGIX_HOME", str(tmp_path / "home"))
    root = tmp_path / "project"
    (root / "pkg" / "sub").mkdir(parents=True)
    (root / "pkg" / "lexer.py").write_text("a\nb\nc\n")
    (root / "pkg" / "sub" / "util.py").write_text("x\n")
    (root / "pkg" / "sub" / "lexer.py").write_text("y\n")
    (root / "README.md").write_text("see pkg/lexer.py\n")
    return root


LINES = "How many lines are in pkg/lexer.py?"


def test_a_find_listing_counted_for_lines_counts_the_lines_of_what_it_listed(tree):
    mend = line_count_mend(LINES, "find pkg -name lexer.py | wc -l", tree)
    assert mend[0] == "find pkg -name lexer.py | xargs wc -l"
    assert mend[1].endswith("ragix counted the lines in the files the command listed")
    assert line_count_mend("line count of every python file?", "find . -name '*.py' -print0 | sort | wc -l",
                           tree)[0] == "find . -name '*.py' -print0 | sort | xargs -0 wc -l"


def test_a_count_of_the_files_mentioning_a_path_counts_that_files_lines(tree):
    assert line_count_mend(LINES, "grep -rl pkg/lexer.py . | wc -l", tree)[0] == "wc -l pkg/lexer.py"
    assert line_count_mend(LINES, "grep -rl lexer.py . | wc -l", tree) is None  # two files so named
    assert line_count_mend(LINES, "grep -rl lexer.py pkg/ | wc -l", tree)[0] == "wc -l pkg/lexer.py"  # one in pkg/
    assert line_count_mend("line count of util.py?", "grep -rl util.py . | wc -l", tree)[0] == "wc -l pkg/sub/util.py"
    assert line_count_mend(LINES, "grep -rl './pkg/lexer.py' .", tree)[0] == "wc -l pkg/lexer.py"


@pytest.mark.parametrize("goal, command", [
    ("How many python files are in pkg?", "find pkg -name '*.py' | wc -l"),  # files are what it counts
    ("How many files mention pkg/lexer.py?", "grep -rl pkg/lexer.py . | wc -l"),
    (LINES, "ls pkg | wc -l"),  # names inside pkg: xargs could not open them
    ("How many lines hold TODO?", "grep -rl TODO . | wc -l"),  # a text, not a path: the lines that hold it
    (LINES, "grep -r pkg/lexer.py . | wc -l"),  # lines that mention it, not a listing of files
    (LINES, "cat pkg/lexer.py | wc -l"),
])
def test_other_counts_are_left_to_the_model(tree, goal, command):
    assert line_count_mend(goal, command, tree) is None


def test_the_main_path_runs_the_mend_at_once_and_answers_from_it(tree):
    res, llm = run(LINES, tree, fenced("grep -rl pkg/lexer.py . | wc -l"))
    assert commands_run(res)[2] == "/usr/bin/wc -l pkg/lexer.py"  # after the two processes of the greedy pipe
    # the greedy command alone: the mend ran with no model call, and its wc line is the answer as printed
    assert len(llm.calls) == 1 and res.state.meta["attempt"]["answer_from"] == "output"
    # the mend's short output rests on one command (no cross-check draw by default)
    assert res.state.stop_reason == "unconfirmed" and res.state.final_answer.startswith("pkg/lexer.py has 3 lines")
