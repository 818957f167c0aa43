"""Confined commands name the owners of files as the same commands outside do (tools/bwrap.py), and the
shell's calculators run confined."""

from __future__ import annotations

import os
import pwd
import subprocess

import pytest

from ragix_core.tools.bwrap import bwrap_prefix, find_bwrap
from tests.tools.conftest import make_box, sandboxes


@pytest.mark.parametrize("sandbox", sandboxes())
def test_ls_and_find_name_the_owner(world, sandbox):
    box = make_box(world, sandbox)
    owner = pwd.getpwuid(os.stat(world["proj"] / "README.md").st_uid).pw_name
    listed = box.run_command("ls -l README.md")
    assert listed.returncode == 0 and listed.stdout.split()[2] == owner, (listed.stdout, listed.stderr)
    found = box.run_command(f"find . -user {owner} -name README.md")
    assert found.returncode == 0 and found.stdout.strip() == "./README.md", (found.stdout, found.stderr)


@pytest.mark.skipif(find_bwrap() is None, reason="bubblewrap does not confine on this machine")
def test_a_server_sandbox_gets_no_user_names(tmp_path):
    argv = bwrap_prefix(find_bwrap(), str(tmp_path), str(tmp_path), writable=False, network=False)
    seen = subprocess.run(argv + ["/usr/bin/cat", "/etc/passwd"], env={}, capture_output=True, text=True)
    assert seen.returncode != 0 and not seen.stdout and "No such file" in seen.stderr, seen.stderr
    named = bwrap_prefix(find_bwrap(), str(tmp_path), str(tmp_path), writable=False, network=False, user_names=True)
    seen = subprocess.run(named + ["/usr/bin/cat", "/etc/passwd"], env={}, capture_output=True, text=True)
    assert seen.returncode == 0 and "root:" in seen.stdout  # the same prefix with the names: they are there


@pytest.mark.parametrize("sandbox", sandboxes())
def test_the_shell_calculators_compute_and_read_only_what_they_are_given(world, sandbox):
    box = make_box(world, sandbox)
    assert box.run_command("echo '3*4+2' | bc").stdout.strip() == "14"
    assert box.run_command("expr 5 - 3").stdout.strip() == "2"
    assert box.run_command("seq -s, 1 3").stdout.strip() == "1,2,3"
    outside = box.run_command(f"bc {world['outside'] / 'secret.txt'}")
    assert outside.refused and "outside" in (outside.error or ""), outside
