"""A grep over top-level globs that found nothing is re-run over the tree, with a note."""

from __future__ import annotations

import pytest

from ragix_core.core.types import PlanStep, StepStatus, ToolCall
from ragix_core.evidence.steps import run_command_step
from ragix_core.tools import ToolBox
from ragix_core.tools.grep_glob import top_globs_as_tree

FILES = ["a.py", "b.py", "README.md", "src/inventory/models.py", "docs/guide.md"]


def files():
    return FILES


@pytest.mark.parametrize("command,expected", [
    ("grep -rl 'dataclass' *.py", "grep -rl '--include=*.py' dataclass ."),
    ("grep -n 'class' *.py | awk '{print $2}'", "grep -n -r '--include=*.py' class . | awk '{print $2}'"),
    ("grep -A 2 x *.py", "grep -A 2 -r '--include=*.py' x ."),
    ("grep -e TODO *.py *.md", "grep -e TODO -r '--include=*.py' '--include=*.md' ."),
    ("grep -- -x *.py", "grep -r '--include=*.py' -- -x ."),
])
def test_the_search_of_the_tree_keeps_options_pattern_and_the_rest_of_the_pipeline(command, expected):
    fixed, note = top_globs_as_tree(command, files)
    assert fixed == expected and "top directory only" in note and "`*.py`" in note


@pytest.mark.parametrize("command", [
    "grep -v x *.py",  # every other line of the tree is no evidence
    "grep x a.py *.py",  # a file named beside the glob: the planner chose files
    "grep x *.txt",  # no such file anywhere
    "grep x src/*.py",  # not a top-level glob
    "grep -r --include=*.py x .",  # no glob operand
    "cat a.py | grep x *.py",  # grep is not the first stage
    "grep 'x *.py",  # unbalanced quote
])
def test_other_searches_are_left_alone(command):
    assert top_globs_as_tree(command, files) is None


def test_only_when_a_file_of_that_name_lies_deeper():
    assert top_globs_as_tree("grep x *.md", files) is not None  # docs/guide.md
    assert top_globs_as_tree("grep x *.md", lambda: ["README.md", "docs/notes.txt"]) is None


def test_an_empty_search_of_top_level_files_returns_the_search_of_the_tree_as_a_note(tmp_path):
    (tmp_path / "a.py").write_text("import os\n")
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "models.py").write_text("@dataclass\nclass Item:\n    name: str\n")
    box = ToolBox(tmp_path, profile="reflect")
    step = PlanStep(1, "find the dataclass", ToolCall("shell", {"command": "grep -rl dataclass *.py"}))
    fix = run_command_step(box, step, tmp_path)
    assert step.status == StepStatus.SUCCESS and not step.result.stdout.strip()
    assert fix is not None and fix.key == "note" and fix.command == "grep -rl '--include=*.py' dataclass ."
    again = PlanStep(1, "find the dataclass", ToolCall("shell", {"command": fix.command}))
    assert run_command_step(box, again, tmp_path) is None
    assert again.status == StepStatus.SUCCESS and "src/models.py" in again.result.stdout
    # a search that found something in the top files stands as it is
    found = PlanStep(2, "imports", ToolCall("shell", {"command": "grep -l import *.py"}))
    assert run_command_step(box, found, tmp_path) is None and "a.py" in found.result.stdout
