"""`grep -f FILE`: the patterns come from a file of the project, checked as any file grep reads.

Measured at 4018844: NL2Bash fs_1-114 ("print True if A's lines are a subset of B's") drew `grep -F -x -v -f`
in both strategies, refused for the option; `grep -Fxvf A B` (B's lines not in A) is how a shell compares lists.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from ragix_core.tools import Limits, ToolBox
from ragix_core.tools.grep_words import read_grep
from tests.tools.conftest import HAS_BWRAP

SANDBOXES = ["none", pytest.param("bwrap", marks=pytest.mark.skipif(not HAS_BWRAP, reason="no bubblewrap"))]


@pytest.fixture()
def project(tmp_path: Path) -> Path:
    root = tmp_path / "p"
    root.mkdir()
    (root / "a.txt").write_text("1\n2\n3\n")
    (root / "b.txt").write_text("2\n3\n4\n5\n")
    (tmp_path / "secret").write_text("2\n")
    return root


@pytest.mark.parametrize("sandbox", SANDBOXES)
@pytest.mark.parametrize("command", ["grep -Fxvf a.txt b.txt", "grep -F -x -f a.txt b.txt", "grep -c --file=a.txt b.txt",
                                     "cat a.txt | grep -f - b.txt"])
def test_patterns_from_a_project_file_match_as_in_bash(project, sandbox, command):
    res = ToolBox(project, profile="reflect", sandbox=sandbox, limits=Limits(timeout=30)).run_command(command)
    assert res.returncode == 0, res.error or res.stderr
    assert res.stdout == subprocess.run(["bash", "-c", command], cwd=project, capture_output=True, text=True,
                                        check=True).stdout != ""


@pytest.mark.parametrize("command,why", [
    ("grep -f ../secret b.txt", "outside the project"),
    ("grep --file=missing.txt b.txt", "does not exist"),
])
def test_a_patterns_file_outside_the_project_or_missing_is_refused(project, command, why):
    res = ToolBox(project, profile="reflect").run_command(command)
    assert res.returncode == 126 and why in (res.error or ""), res.error


def test_with_f_every_plain_word_is_a_file_operand():
    g = read_grep(["-Fxvf", "a.txt", "b.txt", "c.txt"])
    assert g.pattern == [] and g.pattern_given and [str(w) for w in g.operands] == ["b.txt", "c.txt"]
