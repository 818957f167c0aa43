"""Issue 11 items 2-4: the gaps a review found in layer 1 and the OS layers, each reproduced."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from typer.testing import CliRunner

from ragix_core.core.types import ToolCall
from ragix_core.tools import Limits, ToolBox
from tests.tools.conftest import HAS_BWRAP, HAS_LANDLOCK, SECRET_TOKEN, make_box, sandboxes
from tests.tools.helpers import wait_no_survivors

needs_bwrap = pytest.mark.skipif(not HAS_BWRAP, reason="bubblewrap not installed")
needs_landlock = pytest.mark.skipif(not HAS_LANDLOCK, reason="no Landlock")
LIMITS = Limits(timeout=30)


def _git(proj: Path) -> None:
    """A repository with a hook, a submodule's hooks and a nested checkout's config."""
    for rel, text in ((".git/config", "[core]\n"), (".git/hooks/pre-commit.sample", "#!/bin/sh\n"),
                      (".git/modules/m/hooks/post-checkout.sample", "#!/bin/sh\n"), (".git/modules/m/config", "[core]\n"),
                      ("sub/.git/config", "[core]\n"), ("sub/file.txt", "x\n")):
        (proj / rel).parent.mkdir(parents=True, exist_ok=True)
        (proj / rel).write_text(text)


# --- item 2: a later stage is validated when it starts ---------------------------------
def test_a_later_stage_is_checked_when_it_starts(world):
    proj = world["proj"]
    (proj / "a" / "b" / "c").mkdir(parents=True)
    os.symlink("../../..", proj / "a" / "b" / "c" / "s")  # harmless where it is: it resolves to the root
    box = make_box(world, "none", profile="dev", assume_yes=True, limits=LIMITS)
    # once moved to top/, s points two levels above the root: at the directory holding outside/
    result = box.run_command(f"mv a/b/c top | cat top/s/{world['tmp'].name}/outside/secret.txt")
    assert SECRET_TOKEN not in result.stdout + result.stderr
    assert result.refused and "stage 2" in result.error and "outside the project" in result.error, result


# --- item 3 -----------------------------------------------------------------------------
def test_cp_r_into_an_existing_tree_never_writes_through_a_deeper_symlink(world):
    proj, victim = world["proj"], world["outside"] / "victim.txt"
    victim.write_text("untouched\n")
    (proj / "dest" / "src").mkdir(parents=True)
    os.symlink("../../../outside/victim.txt", proj / "dest" / "src" / "a.py")
    result = make_box(world, "none", profile="dev", assume_yes=True, limits=LIMITS).run_command("cp -r src dest")
    assert result.refused and "symlink" in result.error, result
    assert victim.read_text() == "untouched\n"


@pytest.mark.parametrize("command", ["touch sub/.git/config", "touch .git/modules/m/hooks/post-checkout",
                                     "mv .git g", "mkdir -p newrepo/.git/hooks", "rm -r sub", "cp -r sub sub2"])
def test_layer1_protects_every_git_directory(world, command):
    _git(world["proj"])
    result = make_box(world, "none", profile="dev", assume_yes=True, limits=LIMITS).run_command(command)
    assert result.refused and ".git" in result.error, result
    assert (world["proj"] / "sub" / ".git" / "config").read_text() == "[core]\n"


HOOK_ATTACKS = [
    "sh -c 'mv .git g; mkdir -p .git/hooks; echo evil > .git/hooks/pre-commit'",
    "sh -c 'echo evil > .git/modules/m/hooks/post-checkout'",
    "sh -c 'echo evil >> sub/.git/config'",
    "sh -c 'mv sub sub2; mkdir -p sub/.git/hooks; echo evil > sub/.git/hooks/pre-commit'",
    "sh -c 'mkdir -p fresh/.git/hooks; echo evil > fresh/.git/hooks/pre-commit'",
]


@pytest.mark.parametrize("sandbox", sandboxes())
@pytest.mark.parametrize("command", HOOK_ATTACKS)
def test_os_layer_alone_protects_every_git_directory(world, sandbox, command):
    proj = world["proj"]
    _git(proj)
    box = make_box(world, sandbox, profile="dev", validate=False, limits=LIMITS)
    box.run_command(command)
    evil = [str(p) for p in proj.rglob("*") if p.is_file() and not p.is_symlink() and "evil" in p.read_text(errors="replace")]
    assert evil == [], evil
    assert (proj / ".git" / "config").read_text() == "[core]\n"


def test_write_file_does_not_follow_a_directory_swapped_after_the_check(world):
    proj = world["proj"]
    (proj / "newdir").mkdir()

    def swap(description: str) -> bool:  # the approval prompt sits between the check and the write
        (proj / "newdir").rmdir()
        os.symlink(str(world["outside"]), proj / "newdir")
        return True

    box = make_box(world, "none", profile="dev", interactive=True, approver=swap)
    result = box.run(ToolCall("write_file", {"path": "newdir/planted.txt", "content": "x"}))
    assert not (world["outside"] / "planted.txt").exists()
    assert result.refused and "symlink" in result.error, result


@needs_landlock
def test_landlock_sweep_finds_children_that_drop_the_marker(world):
    box = make_box(world, "landlock", profile="sovereign", limits=LIMITS)
    result = box.run_command("env -u RAGIX_TOOL_RUN setsid -f sleep 987611")
    assert result.returncode == 0, result
    assert wait_no_survivors("987611") == []


@needs_landlock
def test_landlock_rules_never_follow_a_symlink(world):
    from ragix_core.tools import landlock
    from ragix_core.tools.runner import run_process

    link = world["proj"] / "to_outside"
    os.symlink(str(world["outside"]), link)
    target = world["outside"] / "written.txt"
    with landlock.Ruleset(landlock.system_read_exec(), [], [str(link), "/dev/null"], False) as rules:
        raw = run_process(["/usr/bin/touch", str(target)], cwd=str(world["proj"]), env={}, limits=LIMITS,
                          fsize=1 << 20, preexec_extra=rules.restrictor())
    assert raw.returncode != 0 and not target.exists()


def test_glob_refusals_never_name_files_outside(world):
    result = make_box(world, "none").run_command("cat linkdir/*")
    assert result.refused and "secret.txt" not in result.error, result


def test_system_trees_and_the_home_are_not_project_roots(tmp_path, monkeypatch):
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    for root in ("/etc/ssl", str(home), str(tmp_path)):
        if os.path.isdir(root):
            with pytest.raises(ValueError, match="system directory|home directory"):
                ToolBox(root, sandbox="none")
    (home / "proj").mkdir()
    assert ToolBox(home / "proj", sandbox="none").root == str(home / "proj")


def test_layer1_cannot_be_switched_off_without_an_os_sandbox(world):
    with pytest.raises(ValueError, match="OS sandbox"):
        ToolBox(world["proj"], sandbox="none", validate=False)


# --- item 4: skip, don't refuse ----------------------------------------------------------
@pytest.fixture()
def hostile(tmp_path: Path) -> Path:
    """A project as a new user might have it: a hard link, a FIFO, a link out, ragix's traces."""
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.txt").write_text(f"print('{SECRET_TOKEN}')\n")
    proj = tmp_path / "proj"
    (proj / "src").mkdir(parents=True)
    (proj / "hello.php").write_text("<?php print('hi'); ?>\n")
    (proj / "src" / "a.py").write_text("print(1)\n")
    os.link(outside / "secret.txt", proj / "hl")
    os.mkfifo(proj / "ff")
    os.symlink("../outside/secret.txt", proj / "lo")
    (proj / ".ragix" / "reasoning_traces").mkdir(parents=True)
    (proj / ".ragix" / "reasoning_traces" / "s.jsonl").write_text('{"goal": "where is print used"}\n')
    return proj


LAYERS = [pytest.param("none", id="layer1")] + sandboxes()


@pytest.mark.parametrize("sandbox", LAYERS)
def test_recursive_grep_searches_the_safe_part_and_says_what_it_skipped(hostile, sandbox):
    box = ToolBox(hostile, sandbox=sandbox, limits=LIMITS)
    result = box.run_command("grep -rn print .")
    assert not result.refused and result.returncode == 0, result
    assert sorted(result.stdout.splitlines()) == ["./hello.php:1:<?php print('hi'); ?>", "./src/a.py:1:print(1)"]
    assert "[ragix] skipped 1 multiply-linked file: ./hl" in result.stderr
    bare = box.run_command("grep -rln print")
    assert sorted(bare.stdout.split()) == ["hello.php", "src/a.py"], bare


@pytest.mark.parametrize("sandbox", LAYERS)
def test_pipes_and_globs_skip_unsafe_names(hostile, sandbox):
    box = ToolBox(hostile, sandbox=sandbox, limits=LIMITS)
    piped = box.run_command("find . -type f | xargs grep -l print")
    assert sorted(piped.stdout.split()) == ["./hello.php", "./src/a.py"], piped
    assert "[ragix] skipped 1 multiply-linked file: ./hl" in piped.stderr
    globbed = box.run_command("grep -c print *")
    assert globbed.stdout.splitlines() == ["hello.php:1", "src:0"], globbed  # grep's own answer for a directory
    assert "skipped 1 FIFO, socket or device: ff" in globbed.stderr and "multiply-linked file: hl" in globbed.stderr
    assert SECRET_TOKEN not in piped.stdout + globbed.stdout


@pytest.mark.parametrize("sandbox", LAYERS)
def test_recursive_listings_never_show_ragix_state(hostile, sandbox):
    box = ToolBox(hostile, sandbox=sandbox, limits=LIMITS)
    for command in ("grep -rl goal .", "grep -rl goal", "find . -name '*.jsonl'", "find . -depth -name '*.jsonl'",
                    "ls -aR", "du -a"):
        result = box.run_command(command)
        assert not result.refused, (command, result)
        assert ".ragix" not in result.stdout and "s.jsonl" not in result.stdout, (command, result.stdout)
    assert box.run_command("find src -maxdepth 1 -type f").stdout == "src/a.py\n"


@needs_landlock
@pytest.mark.parametrize("profile", ["dev", "sovereign"])
def test_landlock_write_profiles_can_create_top_level_files(hostile, profile):
    (hostile / ".git" / "hooks").mkdir(parents=True)
    box = ToolBox(hostile, profile=profile, sandbox="landlock", assume_yes=True, limits=LIMITS)
    result = box.run_command("cp hello.php hello-COPY.php")
    assert result.ok, result
    assert (hostile / "hello-COPY.php").read_text() == (hostile / "hello.php").read_text()
    made = box.run(ToolCall("python", {"code": "open('made.txt', 'w').write('ok')"}))
    assert made.ok and (hostile / "made.txt").read_text() == "ok", made
    hook = box.run(ToolCall("python", {"code": "open('.git/hooks/pre-commit', 'w').write('evil')"}))
    assert not hook.ok and not (hostile / ".git" / "hooks" / "pre-commit").exists()


def test_exec_has_a_description_in_the_help():
    from ragix_core.cli import app

    out = CliRunner().invoke(app, ["--help"]).stdout
    line = next(line for line in out.splitlines() if " exec " in line)
    assert line.split("exec", 1)[1].strip(" │"), line


@needs_landlock
@pytest.mark.parametrize("profile", ["reflect", "sovereign"])
def test_landlock_runs_hold_no_capability_and_change_no_metadata_outside(world, profile):
    """Landlock confines paths, not privileges or metadata: run as root, a command kept its
    capabilities and could chmod or re-date a file it owns outside the project."""
    box = make_box(world, "landlock", profile=profile, validate=False, limits=LIMITS)
    before = world["secret"].stat()
    assert box.run_command("sh -c 'renice -n -5 -p $$'").returncode != 0  # CAP_SYS_NICE is gone
    box.run_command(f"chmod 600 {world['secret']}")
    box.run_command(f"touch -d 2001-01-01 {world['secret']}")
    after = world["secret"].stat()
    assert (after.st_mode, after.st_mtime_ns) == (before.st_mode, before.st_mtime_ns)
