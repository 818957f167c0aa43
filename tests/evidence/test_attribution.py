"""A one-file grep's lines shown with the file's name (evidence/attribution.py)."""

from __future__ import annotations

import pytest

from ragix_core.core.types import PlanStep, StepStatus, ToolCall
from ragix_core.evidence.attribution import ATTRIBUTED, attributed_lines, one_file_searched
from ragix_core.evidence.steps import evidence_block, run_command_step
from ragix_core.tools import ToolBox


@pytest.mark.parametrize("command, searched", [
    ("grep -rn FIXME src/inventory/api.py", "src/inventory/api.py"),  # -r on a file: grep names nothing
    ("grep -n -e FIXME a.py", "a.py"),  # -e gives the pattern: the plain word is the file
    ("grep -A2 -n x a.py", "a.py"),  # -A's value is the next word
    ("grep -m1 -i x a.py", "a.py"),
    ("grep --include=*.py -rn x src", "src"),  # a directory: attributed_lines sees grep's own names
    ("grep -c x a.py", None),  # counts, not lines
    ("grep -l x a.py", None),
    ("grep -h x a.py", None),  # names switched off on purpose
    ("grep -rn x a.py b.py", None),  # several files: grep names them
    ("grep x *.py", None),  # a glob may name several
    ("grep -rn FIXME a.py | cut -d: -f1", None),  # a later stage reads grep's lines
    ("cat a.py", None),
    ("grep -rn x", None),  # no file operand
])
def test_which_greps_searched_one_named_file(command, searched):
    assert one_file_searched(command) == searched


def test_lines_get_the_name_unless_grep_already_printed_it():
    assert attributed_lines("src/a.py", "15:  # FIXME\n--\n17-x") == "src/a.py:15:  # FIXME\n--\nsrc/a.py:17-x"
    assert attributed_lines("src", "src/a.py:15:x") is None
    assert attributed_lines(".", "./a.py:15:x") is None
    assert attributed_lines("./src/", "./src/a.py:1:x") is None
    assert attributed_lines("a.py", "") is None


def test_the_writer_sees_the_file_of_a_one_file_search(tmp_path):
    # Measured (fixme-comments at fc92558): the writer answered without naming api.py.
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "api.py").write_text("def get(key):\n    # FIXME: return 404 instead of raising KeyError\n")
    step = PlanStep(1, "search", ToolCall("shell", {"command": "grep -rn FIXME src/api.py"}))
    run_command_step(ToolBox(tmp_path, profile="reflect"), step, tmp_path)
    assert step.status == StepStatus.SUCCESS and step.result.stdout.startswith("2:")  # grep's own output
    shown = evidence_block([step], "Find FIXME comments")
    assert "src/api.py:2:    # FIXME: return 404" in shown and ATTRIBUTED in shown
    assert step.result.stdout.startswith("2:")  # the trace keeps what grep printed
