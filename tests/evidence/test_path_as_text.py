"""A search whose pattern is the path of a project file (evidence/path_as_text.py)."""

from pathlib import Path

import pytest

from ragix_core.core.types import PlanStep, StepStatus, ToolCall, ToolResult
from ragix_core.evidence.feedback import execution_feedback
from ragix_core.evidence.path_as_text import path_searched_as_text


@pytest.fixture
def project(tmp_path: Path) -> Path:
    (tmp_path / "pkg" / "engine").mkdir(parents=True)
    (tmp_path / "pkg" / "engine" / "grouping.py").write_text("def group():\n    pass\n")
    (tmp_path / "pkg" / "lexer.py").write_text("import re\n")
    (tmp_path / "NOTES.md").write_text("see pkg/lexer.py\n")
    return tmp_path


@pytest.mark.parametrize("command", [
    "grep -rl pkg/lexer.py . | wc -l",  # measured shape: counts the files that mention the path
    "grep -rl NOTES.md .",  # a file at the top, its name listed as files
    "grep -rl lexer.py . | wc -l",  # a bare name that is a file somewhere in the tree
    "grep -rl engine/grouping.py pkg | wc -l",  # relative to the directory searched
    "grep -rc './pkg/lexer.py' .",
    "grep -r pkg/engine . | wc -l",  # a directory's path
])
def test_a_path_searched_as_text_and_taken_as_files_or_counted_is_doubted(project, command):
    why = path_searched_as_text(command, project)
    assert why and "found the files that mention that name" in why


@pytest.mark.parametrize("command", [
    "grep -rn pkg/lexer.py .",  # lines that mention it, shown as lines: a question about mentions
    "grep -rl missing.py . | wc -l",  # no such path: the text is all there is
    "grep -rl pkg.lexer . | wc -l",  # a dotted module name is not a path
    "grep -rl 'def ' pkg | wc -l",
    "grep -c import pkg/lexer.py",  # the path is the file operand, as it should be
    "grep -rl 'lexer.py$' . | wc -l",  # a regular expression, not a path
    "wc -l pkg/lexer.py",
    "grep -rl 'pkg/lexer.py",  # does not parse
])
def test_other_searches_are_not(project, command):
    assert path_searched_as_text(command, project) is None


def test_the_retry_is_told_what_the_search_did(project):
    command = "grep -rl pkg/lexer.py . | wc -l"
    step = PlanStep(num=1, description=command, tool_call=ToolCall("shell", {"command": command}),
                    status=StepStatus.SUCCESS,
                    result=ToolResult("shell", 0, stdout="1\n", doubt=path_searched_as_text(command, project)))
    text = execution_feedback(step, project)
    assert text.startswith(f"The command `{command}` printed `1`, but `grep` searched the text of the files "
                           "for `pkg/lexer.py`")
