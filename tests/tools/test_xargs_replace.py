"""`xargs -I TEXT`: each item replaces TEXT wherever it stands, one run an item, and the whole argv is checked
as the direct command naming that item would be.

Measured at 4018844 on the three unseen sets: `find … -exec cp {} DEST \\;` and `-exec touch {}/abc.txt \\;`
(the name not last, so not a plain `xargs CMD`) and `xargs -I` written directly were refused on every draw.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from ragix_core.tools import Limits, ToolBox
from tests.tools.conftest import HAS_BWRAP

SANDBOXES = ["none", pytest.param("bwrap", marks=pytest.mark.skipif(not HAS_BWRAP, reason="no bubblewrap"))]


@pytest.fixture()
def project(tmp_path: Path) -> Path:
    root = tmp_path / "p"
    for d in ("dir1/sub", "a/dir1", "tmp"):
        (root / d).mkdir(parents=True)
    (root / "x.txt").write_text("hello\n")
    (root / "dir1" / "y.txt").write_text("a\nb\n")
    (root / "names.txt").write_text("  x.txt\n\ndir1/y.txt\n")
    (tmp_path / "secret").write_text("s\n")
    return root


def box(root: Path, profile: str = "dev", sandbox: str = "none") -> ToolBox:
    return ToolBox(root, profile=profile, sandbox=sandbox, assume_yes=True, limits=Limits(timeout=30))


def bash(root: Path, command: str) -> str:
    return subprocess.run(["bash", "-c", command], cwd=root, capture_output=True, text=True, check=True).stdout


@pytest.mark.parametrize("sandbox", SANDBOXES)
def test_each_item_lands_where_the_text_stands_and_runs_once(project, sandbox):
    command = "find . -name '*.txt' -print0 | sort -z | xargs -0 -I {} wc -l {}"
    res = box(project, "reflect", sandbox).run_command(command)
    assert res.returncode == 0, res.error or res.stderr
    assert res.stdout == bash(project, command) and "total" not in res.stdout


def test_without_null_each_line_is_one_item_blanks_before_it_dropped(project):
    command = "cat names.txt | xargs -I F wc -c F"
    res = box(project, "reflect").run_command(command)
    assert res.returncode == 0, res.error or res.stderr
    assert res.stdout == bash(project, command) == "6 x.txt\n4 dir1/y.txt\n"


@pytest.mark.parametrize("sandbox", SANDBOXES)
def test_a_writer_with_the_name_inside_a_word_writes_where_the_profile_allows(project, sandbox):
    res = box(project, "dev", sandbox).run_command("find . -type d -name dir1 -print0 | xargs -0 -I D touch D/abc.txt")
    assert res.returncode == 0 and res.writes and res.changed, res.error or res.stderr
    assert (project / "dir1" / "abc.txt").exists() and (project / "a" / "dir1" / "abc.txt").exists()
    assert not (project / "dir1" / "sub" / "abc.txt").exists()
    refused = box(project, "reflect", sandbox).run_command("find . -name '*.txt' | xargs -I {} cp {} tmp")
    assert refused.returncode == 126 and "cp" in (refused.error or "")  # a read-only profile has no cp at all
    assert not any((project / "tmp").iterdir())


@pytest.mark.parametrize("command,why", [
    ("echo . | xargs -I X cat X./../secret", "outside the project"),       # the item joined into a path that escapes
    ("echo x.txt | xargs -I X rm X/../../secret", "outside the project"),
    ("cat list | xargs -I X grep X x.txt", "would be read as an option"),   # the item `-f../secret`
    ("ls | xargs -I X sh -c X", "'sh' is not allowed"),
    ("echo x.txt | xargs -I", "-I needs the text to replace"),
    ("echo x.txt | xargs -I '' cat x.txt", "-I needs a non-empty text"),
])
def test_the_argv_after_replacing_is_checked_like_a_direct_command(project, command, why):
    (project / "list").write_text("-f../secret\n")
    res = box(project).run_command(command)
    assert res.returncode == 126 and why in (res.error or ""), res.error
    assert (project.parent / "secret").exists()


def test_empty_input_runs_nothing(project):
    res = box(project).run_command("find . -name '*.none' | xargs -I X touch X.made")
    assert res.returncode == 0 and not list(project.rglob("*.made"))
