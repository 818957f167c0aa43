"""A write is a change only when the tree differs after it (tools/tree_state.py)."""

from __future__ import annotations

import os

from ragix_core.tools import ToolBox
from ragix_core.tools.tree_state import tree_state

from tests.tools.conftest import TEST_LIMITS


def _box(root):
    return ToolBox(root, profile="dev", sandbox="none", limits=TEST_LIMITS, assume_yes=True)


def test_a_write_that_leaves_the_tree_as_it_was_changed_nothing(world):
    box = _box(world["proj"])
    os.makedirs(world["proj"] / "logs" / "old", exist_ok=True)
    r = box.run_command("mkdir -p logs/old")
    assert r.ok and r.writes and not r.changed
    r = box.run_command("mkdir -p logs/new")
    assert r.ok and r.writes and r.changed and (world["proj"] / "logs" / "new").is_dir()
    r = box.run_command("mkdir logs")  # fails: it exists, and nothing changed
    assert not r.ok and r.writes and not r.changed
    assert not box.run_command("ls").writes


def test_touching_a_file_that_exists_is_a_change_of_its_time(world):
    box = _box(world["proj"])
    (world["proj"] / "note.txt").write_text("x\n")
    os.utime(world["proj"] / "note.txt", (1_000_000, 1_000_000))
    assert box.run_command("touch note.txt").changed


def test_the_state_leaves_out_ragix_state_and_gives_up_past_its_bound(tmp_path):
    (tmp_path / "a").mkdir()
    (tmp_path / "a" / "f.txt").write_text("1")
    (tmp_path / ".ragix").mkdir()
    state = tree_state(str(tmp_path))
    assert {e[0] for e in state} == {"a", "a/f.txt"}
    (tmp_path / ".ragix" / "trace.jsonl").write_text("{}")
    assert tree_state(str(tmp_path)) == state  # ragix's own records are not the command's change
    (tmp_path / "a" / "f.txt").write_text("22")
    assert tree_state(str(tmp_path)) != state
    assert tree_state(str(tmp_path), max_entries=1) is None
    assert tree_state(str(tmp_path / "missing")) is None
