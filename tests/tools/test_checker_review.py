"""Holes a review found in tools' own checkers (2026-12-01): each command below did, confined by the validator
alone, something the profile forbids; each is refused now. The reasons are in each checker's docstring."""

from __future__ import annotations

import gzip
import io
import os
import tarfile
from pathlib import Path

import pytest

from ragix_core.tools import Limits, ToolBox
from ragix_core.tools.awkcheck import check_awk
from ragix_core.tools.refusal import Refusal


@pytest.fixture()
def project(tmp_path: Path) -> Path:
    root = tmp_path / "p"
    (root / "dir").mkdir(parents=True)
    (root / "x.txt").write_text("hi\n")
    (tmp_path / "secret").write_text("SECRET\n")
    return root


def box(root: Path, profile: str = "reflect") -> ToolBox:
    return ToolBox(root, profile=profile, sandbox="none", assume_yes=True, limits=Limits(timeout=30))


@pytest.mark.parametrize("program", [
    'BEGIN { print /"/ ; system("id") ; print /"/ }',  # after print, `/` starts a regex: `"` opens no string
    'BEGIN { x = (1) /"/ ; system("id") ; y = (1) /"/ }',  # read both ways after `)`
    'BEGIN { print /"/ ; printf "" > p ; print /"/ }',
])
def test_awk_reads_a_slash_after_a_keyword_as_awk_does(program):
    with pytest.raises(Refusal):
        check_awk(program)


@pytest.mark.parametrize("program", ["{s += $1} END {print s/NR}", "{print ($1+$2)/2, ($3)/4}", "/a|b/ {n++} END {print n}"])
def test_awk_division_and_regexes_still_run(program):
    check_awk(program)


def test_the_awk_attack_runs_nothing(project):
    res = box(project).run_command(
        """echo x.txt | xargs awk 'BEGIN { print /"/ ; system(sprintf("cat ..%csecret", 47)) ; print /"/ }'""")
    assert res.returncode == 126 and "SECRET" not in res.stdout


@pytest.mark.parametrize("command", ["tar -cf - -C / -C . etc/hostname", "tar -cf - .. -C dir"])
def test_tar_takes_one_directory_before_the_names(project, command):
    res = box(project).run_command(command)
    assert res.returncode == 126 and "-C" in res.error


def test_gzip_does_not_restore_a_name_stored_in_the_archive(project):
    buf = io.BytesIO()
    with gzip.GzipFile(filename="ragix.yaml", mode="wb", fileobj=buf) as f:
        f.write(b"x\n")
    (project / "notes.gz").write_bytes(buf.getvalue())
    res = box(project, "dev").run_command("gzip -d -N notes.gz")
    assert res.returncode == 126 and not (project / "ragix.yaml").exists()


def test_diff_compares_files_not_directories(project):
    os.symlink("../secret", project / "dir" / "s")  # what cp -r or mv can leave in the project
    (project / "d2").mkdir()
    res = box(project).run_command("diff -N d2 dir")
    assert res.returncode == 126 and "directory" in res.error and "SECRET" not in res.stdout
    assert box(project).run_command("diff x.txt x.txt").returncode == 0


def test_file_runs_no_decompressor(project):
    assert box(project).run_command("file -z x.txt").returncode == 126


def test_a_write_that_leaves_a_link_pointing_out_fails_and_the_link_is_removed(project):
    b = box(project, "dev")
    assert b.run_command("ln -s ../x.txt dir/t").returncode == 0  # dir/t resolves to x.txt, inside
    res = b.run_command("cp -r dir/t t")  # the copy keeps the text ../x.txt one level up: outside
    assert res.returncode != 0 and "outside the project (t)" in res.error
    assert not os.path.lexists(project / "t") and os.path.islink(project / "dir" / "t")
    kept = b.run_command("cp -r dir d2")  # d2/t -> ../x.txt still resolves inside: kept, no error
    assert kept.returncode == 0 and not kept.error and os.path.islink(project / "d2" / "t")


def test_links_out_names_new_links_outside_or_into_the_state_dir(tmp_path):
    from ragix_core.tools.tree_state import links_out, tree_state

    root = tmp_path / "p"
    (root / ".ragix").mkdir(parents=True)
    os.symlink("../secret", root / "old")  # there before the write: not the write's doing
    before = tree_state(str(root))
    os.symlink("../secret", root / "out")
    os.symlink(".ragix/x", root / "state")
    os.symlink("old", root / "chain")  # resolves through old, outside
    os.symlink("sub/../in.txt", root / "in")
    assert links_out(str(root), before, tree_state(str(root))) == ["chain", "out", "state"]
    assert links_out(str(root), None, tree_state(str(root))) == []
