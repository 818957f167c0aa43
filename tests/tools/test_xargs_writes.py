"""A writing program under xargs (`find … | xargs chmod 755`, `find … -exec rm {} \\;`): allowed where the profile
may write, each batch checked as the direct command naming those files would be; refused where it may only read.

Measured on InterCode-ALFA NL2Bash (0509477): "change permissions for all PHP files … to 755" drew
`find -exec chmod` and `xargs chmod`, six commands over eight draws, every one refused: the run ended with none run.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from ragix_core.tools import Limits, ToolBox
from ragix_core.tools.find_exec import find_exec_as_xargs
from tests.tools.conftest import HAS_BWRAP


@pytest.fixture()
def project(tmp_path: Path) -> Path:
    root = tmp_path / "p"
    (root / "web").mkdir(parents=True)
    for name in ("index.php", "web/info.php", "notes.txt"):
        (root / name).write_text("<?php ?>\n")
        os.chmod(root / name, 0o644)
    (tmp_path / "outside.php").write_text("x\n")
    return root


def box(root: Path, profile: str, sandbox: str = "none") -> ToolBox:
    return ToolBox(root, profile=profile, sandbox=sandbox, assume_yes=True, limits=Limits(timeout=30))


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


@pytest.mark.parametrize("sandbox", ["none", pytest.param("bwrap", marks=pytest.mark.skipif(not HAS_BWRAP,
                                                                                            reason="no bubblewrap"))])
def test_a_writer_under_xargs_runs_where_writes_are_allowed_and_is_reported_as_a_write(project, sandbox):
    res = box(project, "dev", sandbox).run_command(
        "find . -name '*.php' -print0 | xargs -0 chmod 755")
    assert res.returncode == 0, res.error or res.stderr
    assert mode(project / "index.php") == mode(project / "web" / "info.php") == 0o755
    assert mode(project / "notes.txt") == 0o644
    assert res.writes and res.changed


@pytest.mark.parametrize("sandbox", ["none", pytest.param("bwrap", marks=pytest.mark.skipif(not HAS_BWRAP,
                                                                                            reason="no bubblewrap"))])
def test_a_program_that_writes_by_an_option_under_xargs_gets_the_write_mount(project, sandbox):
    # NL2Bash fs_5-16 (bd99fa4): `grep -rl Hello . | xargs sed -i 's/Hello/Hi/g'` ran read-only under bubblewrap
    # ("sed: couldn't open temporary file ./dir1/sedXXXX: Read-only file system"): sed is a writer only with -i.
    res = box(project, "dev", sandbox).run_command("grep -rl php . | xargs sed -i 's/php/PHP/'")
    assert res.returncode == 0, res.error or res.stderr
    assert (project / "web" / "info.php").read_text() == "<?PHP ?>\n" and res.writes and res.changed
    refused = box(project, "reflect", sandbox).run_command("grep -rl PHP . | xargs sed -i 's/PHP/php/'")
    assert refused.returncode == 126 and "sed -i" in (refused.error or "")
    assert (project / "index.php").read_text() == "<?PHP ?>\n"


def test_find_exec_of_a_writer_is_run_as_the_pipe_into_xargs(project):
    rewritten, _ = find_exec_as_xargs("find . -name 'notes.txt' -exec rm {} \\;")  # the main path's rewrite
    res = box(project, "dev").run_command(rewritten)
    assert res.returncode == 0, res.error or res.stderr
    assert not (project / "notes.txt").exists() and (project / "index.php").exists()


def test_a_read_only_profile_refuses_a_writer_under_xargs_and_changes_nothing(project):
    res = box(project, "reflect").run_command("find . -name '*.php' | xargs chmod 755")
    assert res.returncode == 126 and "chmod" in (res.error or "") and not res.writes
    assert mode(project / "index.php") == 0o644


def test_an_item_outside_the_project_is_refused_before_any_batch_runs(project):
    res = box(project, "dev").run_command(
        "printf 'index.php\\n../outside.php\\n' | xargs chmod 700")
    assert res.returncode == 126 and "outside.php" in (res.error or "")
    assert mode(project / "index.php") == 0o644  # all batches are checked before the first runs
