"""Each run of ragix's xargs is the direct command naming its items: checked, and completed, as that command would
be (sed's --sandbox, ragix's state hidden from a recursive search, tar's safe options), again right before it runs,
and never writing where the stage was not taken as a write.

Found by review of the `xargs -I` change (2026-12-01), several reaching back before it: `echo x.txt | xargs sed -n
'1e id'` ran `id` (the per-run argv lacked --sandbox); an item could turn `sed -n` into `sed -i` with no approval;
a run could write through a link an earlier run of the same xargs had made.
"""

from __future__ import annotations

import gzip
import os
from pathlib import Path

import pytest

from ragix_core.tools import Limits, ToolBox
from tests.tools.conftest import HAS_BWRAP

SANDBOXES = ["none", pytest.param("bwrap", marks=pytest.mark.skipif(not HAS_BWRAP, reason="no bubblewrap"))]


@pytest.fixture()
def project(tmp_path: Path) -> Path:
    root = tmp_path / "p"
    (root / ".ragix").mkdir(parents=True)
    (root / ".ragix" / "trace.log").write_text("RAGIXSECRET\n")
    (root / "x.txt").write_text("hi\nsecretword\n")
    (tmp_path / "secret").write_text("OUTSIDE\n")
    return root


def box(root: Path, profile: str = "reflect", sandbox: str = "none") -> ToolBox:
    return ToolBox(root, profile=profile, sandbox=sandbox, limits=Limits(timeout=30))


@pytest.mark.parametrize("sandbox", SANDBOXES)
@pytest.mark.parametrize("command", [
    "echo x.txt | xargs sed -n '1e id'",
    "echo '1e id' | xargs -I X sed X x.txt",
    "echo 'r ../secret' | xargs -I X sed X x.txt",
    "echo 'w ../secret' | xargs -I X sed -n X x.txt",
])
def test_sed_under_xargs_runs_sandboxed_like_a_direct_sed(project, sandbox, command):
    res = box(project, sandbox=sandbox).run_command(command)
    assert "uid=" not in res.stdout and "OUTSIDE" not in res.stdout
    assert (project.parent / "secret").read_text() == "OUTSIDE\n"


def test_a_recursive_search_under_xargs_does_not_read_ragix_state(project):
    res = box(project).run_command("echo . | xargs grep -r RAGIXSECRET")
    assert "RAGIXSECRET" not in res.stdout


def test_tar_under_xargs_gets_the_options_a_direct_tar_gets(project):
    import tarfile
    with tarfile.open(project / "a.tar", "w") as tar:
        tar.add(project / "x.txt", arcname="x.txt")
    validator = box(project).validator
    argv = validator.xargs_argv(validator.command("echo a.tar | xargs -I X tar -tf X")[-1].xargs, ["a.tar"])
    assert "--force-local" in argv and "--no-same-owner" in argv
    assert box(project).run_command("echo a.tar | xargs -I X tar -tf X").stdout == "x.txt\n"


@pytest.mark.parametrize("command,why", [
    ("echo i | xargs -I n sed -n d x.txt", "inside the option"),  # the item would make `-n` into `-i`
    ("cat items | xargs -I X sed X d x.txt", "would be read as an option"),  # the item `-i`
])
def test_an_item_never_chooses_the_options(project, command, why):
    (project / "items").write_text("-i\n")
    res = ToolBox(project, profile="dev", sandbox="none", assume_yes=True).run_command(command)
    assert res.returncode == 126 and why in (res.error or ""), res.error
    assert (project / "x.txt").read_text() == "hi\nsecretword\n"


def test_an_item_may_be_a_long_options_value(project):
    res = box(project).run_command("echo secretword | xargs -I {} grep --regexp={} x.txt")
    assert res.returncode == 0 and res.stdout == "secretword\n"


def test_gunzip_under_xargs_is_a_write_that_asks_approval(project):
    with gzip.open(project / "z.gz", "wt") as f:
        f.write("1\n")
    refused = box(project, "dev").run_command("echo z.gz | xargs gunzip")  # no --yes, no one to ask
    assert refused.returncode == 126 and "writes files" in refused.error and (project / "z.gz").exists()
    done = ToolBox(project, profile="dev", sandbox="none", assume_yes=True).run_command("echo z.gz | xargs gunzip")
    assert done.returncode == 0 and done.writes and (project / "z").read_text() == "1\n"


def test_each_run_is_checked_again_right_before_it_runs(project):
    # run 1 copies a link to the project's parent into sub/; run 2 would write through it
    (project / "a" / "b").mkdir(parents=True)
    (project / "sub").mkdir()
    os.symlink("../..", project / "a" / "b" / "up")
    (project / "pwned").write_text("x\n")
    res = ToolBox(project, profile="dev", sandbox="none", assume_yes=True).run_command(
        "printf 'up\\nup/pwned\\n' | xargs -I X cp -r a/b/X sub/X")
    assert res.returncode != 0 and not (project.parent / "pwned").exists()


def test_gzip_sees_every_operand_it_opens(project):
    with gzip.open(project.parent / "outside.gz", "wt") as f:
        f.write("OUTSIDE GZ\n")
    os.symlink("../outside.gz", project / "s.gz")
    (project / "-e.gz").write_bytes(gzip.compress(b"e\n"))
    tb = box(project)
    missing = tb.run_command("zcat s")  # gzip -d would open s.gz itself
    assert missing.returncode == 126 and "does not exist" in missing.error and "OUTSIDE" not in missing.stdout
    after_dashes = tb.run_command("gunzip -- -e.gz")  # an operand after `--` is written too: refused read-only
    assert after_dashes.returncode == 126 and (project / "-e.gz").exists()
