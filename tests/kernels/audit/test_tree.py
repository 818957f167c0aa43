"""The walk every kernel reads: bounded, never out of the tree, clear about bad paths and cut limits."""

from __future__ import annotations

import os

import pytest

from ragix_core.kernels.audit.tree import TreeError, TreeLimits, scan_tree
from tests.kernels.audit.conftest import write


def test_a_missing_path_and_a_file_are_refused_by_name(tmp_path):
    with pytest.raises(TreeError, match="no such directory: .*nowhere"):
        scan_tree(str(tmp_path / "nowhere"))
    (tmp_path / "f.py").write_text("x = 1\n")
    with pytest.raises(TreeError, match="not a directory: .*f.py"):
        scan_tree(str(tmp_path / "f.py"))


def test_links_state_and_virtualenvs_are_not_read(tmp_path):
    outside = tmp_path / "outside"
    write(outside, {"secret.py": "KEY = 1\n", "pkg/mod.py": "y = 2\n"})
    root = tmp_path / "root"
    write(root, {"app.py": "import os\n", ".git/hooks/h.py": "x\n", ".ragix/s.py": "x\n",
                 "node_modules/m/index.js": "x\n", "env/pyvenv.cfg": "home = /usr\n", "env/lib/site.py": "x\n",
                 "pkg.egg-info/x.py": "x\n", "notes.txt": "not source\n"})
    os.symlink(outside / "secret.py", root / "secret.py")
    os.symlink(outside / "pkg", root / "linked")
    os.link(outside / "pkg" / "mod.py", root / "hard.py")
    tree = scan_tree(str(root))
    assert [f.path for f in tree.files] == ["app.py"]
    assert any("2 symbolic link(s) not followed" in n for n in tree.notes)  # the file and the directory
    assert any("hard-linked" in n for n in tree.notes)


def test_limits_cut_the_walk_and_say_so(tmp_path):
    write(tmp_path, {f"m{i}.py": f"x = {i}\n" for i in range(5)})
    write(tmp_path, {"big.py": "#" * 5000 + "\n"})
    tree = scan_tree(str(tmp_path), TreeLimits(max_files=3, max_file_bytes=1000))
    assert len(tree.files) == 3
    assert any("big.py" in n and "over 1000 bytes" in n for n in tree.notes)
    assert any("stopped after 3 source files" in n for n in tree.notes)
    with pytest.raises(TreeError, match="max_files"):
        scan_tree(str(tmp_path), TreeLimits(max_files=0))


def test_the_digest_follows_content_only(tmp_path):
    write(tmp_path, {"a.py": "x = 1\n"})
    first = scan_tree(str(tmp_path)).digest
    assert scan_tree(str(tmp_path)).digest == first
    os.utime(tmp_path / "a.py", (1, 1))
    assert scan_tree(str(tmp_path)).digest == first
    write(tmp_path, {"a.py": "x = 2\n"})
    assert scan_tree(str(tmp_path)).digest != first
