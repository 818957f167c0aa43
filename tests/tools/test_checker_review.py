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
