"""bubblewrap's command line (tools/bwrap.py) run for real: what a confined process can see."""

from __future__ import annotations

import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest

from ragix_core.tools.bwrap import bwrap_prefix, find_bwrap

BWRAP = find_bwrap()
pytestmark = pytest.mark.skipif(BWRAP is None, reason="bubblewrap does not confine on this machine")


def test_an_extra_read_only_path_under_tmp_is_visible_and_not_writable(tmp_path):
    # Measured (the audit's churn kernel): a git directory under /tmp passed as extra_ro was hidden by
    # the sandbox's own /tmp tmpfs, mounted after it.
    extra = Path(tempfile.mkdtemp(dir="/tmp"))
    try:
        (extra / "note.txt").write_text("seen\n")
        root = tmp_path / "project"
        root.mkdir()
        argv = bwrap_prefix(BWRAP, str(root), str(root), writable=True, network=False, extra_ro=[str(extra)])
        seen = subprocess.run(argv + ["/usr/bin/cat", str(extra / "note.txt")], env={}, capture_output=True, text=True)
        assert seen.returncode == 0 and seen.stdout == "seen\n", seen.stderr
        wrote = subprocess.run(argv + ["/usr/bin/touch", str(extra / "new.txt")], env={}, capture_output=True, text=True)
        assert wrote.returncode != 0 and not (extra / "new.txt").exists()
    finally:
        shutil.rmtree(extra)
