"""runtime/tree_copy.py: a copy's changes, found and carried back, leave the original as the copy is."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from ragix_core.runtime import tree_copy
from ragix_core.runtime.tree_copy import TreeCopy, TreeCopyError


def _state(root: Path):
    """Every file, link and directory under root but the ones never copied: kind, bytes or target, mode."""
    out = {}
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = [d for d in dirnames if d not in tree_copy.NOT_COPIED]
        for name in dirnames + filenames:
            p = Path(dirpath) / name
            rel = str(p.relative_to(root))
            if p.is_symlink():
                out[rel] = ("link", os.readlink(p))
            elif p.is_dir():
                out[rel] = ("dir",)
            else:
                out[rel] = ("file", p.read_bytes(), p.stat().st_mode & 0o777)
    return out


@pytest.fixture()
def project(tmp_path):
    root = tmp_path / "project"
    (root / "src" / "pkg").mkdir(parents=True)
    (root / "src" / "pkg" / "mod.py").write_text("x = 1\n")
    (root / "src" / "util.py").write_text("y = 2\n")
    (root / "notes.txt").write_text("first\n")
    (root / "old").mkdir()
    (root / "old" / "gone.txt").write_text("bye\n")
    (root / "script.sh").write_text("echo hi\n")
    (root / "link").symlink_to("notes.txt")
    (root / "was_file").write_text("becomes a directory\n")
    (root / "__pycache__").mkdir()
    (root / "__pycache__" / "cache.pyc").write_bytes(b"\0cache")
    return root


def test_a_copy_changes_nothing_until_applied_and_then_the_original_is_the_copy(project):
    before = _state(project)
    with TreeCopy(project) as copy:
        w = copy.root
        assert _state(w) == before and not (w / "__pycache__").exists()
        assert not copy.changes()  # a fresh copy is the original
        with open(w / "notes.txt", "a") as f:
            f.write("second\n")
        (w / "src" / "util.py").unlink()
        (w / "new" / "deep").mkdir(parents=True)
        (w / "new" / "deep" / "made.txt").write_text("made\n")
        import shutil
        shutil.rmtree(w / "old")
        (w / "script.sh").chmod(0o755)
        (w / "link").unlink()
        (w / "link").symlink_to("src")
        (w / "was_file").unlink()
        (w / "was_file").mkdir()
        (w / "was_file" / "inside.txt").write_text("now a file inside\n")
        (w / "src" / "pkg" / "mod.py").write_text("x = 1\n")  # rewritten with the same bytes: no change

        changes = copy.changes()
        assert changes.written == ["link", "new/deep/made.txt", "notes.txt", "script.sh", "was_file/inside.txt"]
        assert changes.removed == ["old/gone.txt", "src/util.py", "was_file"]
        assert changes.dirs_made == ["new", "new/deep", "was_file"] and changes.dirs_removed == ["old"]
        assert _state(project) == before  # nothing reached the original yet

        copy.apply(changes)
        assert _state(project) == _state(w)
    assert not copy.root.exists()  # the copy is removed on leaving
    assert (project / "__pycache__" / "cache.pyc").read_bytes() == b"\0cache"  # never copied, never touched
    assert (project / "notes.txt").read_text() == "first\nsecond\n"


def test_a_directory_turned_into_a_file_is_carried_back(project):
    with TreeCopy(project) as copy:
        import shutil
        shutil.rmtree(copy.root / "old")
        (copy.root / "old").write_text("a file now\n")
        changes = copy.changes()
        assert changes.dirs_removed == ["old"] and "old" in changes.written
        copy.apply(changes)
    assert (project / "old").read_text() == "a file now\n"


def test_a_tree_above_the_limit_is_refused_by_name_and_nothing_is_left(project, tmp_path):
    parent = tmp_path / "copies"
    parent.mkdir()
    with pytest.raises(TreeCopyError, match="more than 0 MiB"):
        TreeCopy(project, limit=10, parent=parent)
    assert list(parent.iterdir()) == []


def test_a_missing_directory_is_named(tmp_path):
    with pytest.raises(TreeCopyError, match="not a directory"):
        TreeCopy(tmp_path / "nowhere")


def test_summary_bounds_the_paths_and_keeps_the_counts(project):
    with TreeCopy(project) as copy:
        for i in range(30):
            (copy.root / f"f{i:02}.txt").write_text(str(i))
        summary = copy.changes().summary(limit=5)
    assert summary["written"] == [f"f{i:02}.txt" for i in range(5)] and summary["counts"]["written"] == 30
