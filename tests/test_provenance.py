"""Benchmark reports name the commit they measured (benchmarks/provenance.py), and say when the tree differed."""

import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from benchmarks import provenance  # noqa: E402


def git(repo, *args):
    return subprocess.run(["git", "-C", str(repo), *args], capture_output=True, text=True, check=True).stdout.strip()


@pytest.fixture()
def repo(tmp_path, monkeypatch):
    r = tmp_path / "repo"
    r.mkdir()
    git(r, "init", "-q")
    (r / "a.txt").write_text("one\n")
    git(r, "add", "a.txt")
    git(r, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "one")
    monkeypatch.setattr(provenance, "ROOT", r)
    return r


def test_the_commit_is_heads_and_a_changed_tracked_file_marks_it_dirty(repo):
    head = git(repo, "rev-parse", "--short", "HEAD")
    assert provenance.commit() == head
    (repo / "untracked.txt").write_text("x\n")
    assert provenance.commit() == head  # untracked files are not the measured code
    (repo / "a.txt").write_text("two\n")
    assert provenance.commit() == head + "+dirty"


def test_outside_a_checkout_it_says_unknown(tmp_path, monkeypatch):
    monkeypatch.setenv("GIT_CEILING_DIRECTORIES", str(tmp_path.parent))  # even if tmp lies inside a checkout
    monkeypatch.setattr(provenance, "ROOT", tmp_path)
    assert provenance.commit() == "unknown"


def test_a_directory_inside_another_repository_is_not_that_repositorys_checkout(repo):
    # A wheel installed into a venv that sits inside some repository: git would search upward and report the
    # outer repository's commit as ragix's own.
    from ragix_core.core.provenance import code_commit

    inner = repo / "venv" / "lib" / "site-packages"
    inner.mkdir(parents=True)
    assert code_commit(inner) == "unknown"
    assert code_commit(repo) == git(repo, "rev-parse", "--short", "HEAD")
