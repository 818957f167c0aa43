"""Fixtures: a project tree with traps around it, and toolboxes per layer.

Layout under tmp_path:
  outside/secret.txt        holds SECRET_TOKEN; must never appear in any output
  proj/                     the project root
    README.md src/a.py src/b.py docs/guide.md data.csv big.txt
    link_secret -> ../outside/secret.txt     (symlink to a file outside)
    linkdir -> ../outside                    (symlink to a directory outside)
    hard_secret                              (hard link to outside/secret.txt)
    fifo                                     (a named pipe)
    list.txt                                 (holds the secret's absolute path)
"""

from __future__ import annotations

import hashlib
import io
import os
import tarfile
from pathlib import Path
from typing import Dict

import pytest

from ragix_core.tools import Limits, ToolBox
from ragix_core.tools.bwrap import find_bwrap
from ragix_core.tools.landlock import landlock_abi

SECRET_TOKEN = "S3CRET-TOKEN-7f3a9c"
ENV_TOKEN = "ENV-SECRET-51d0e2"

HAS_BWRAP = find_bwrap() is not None
HAS_LANDLOCK = landlock_abi() > 0

# Short limits keep the hang cases quick; the drain ceiling stops endless producers early.
TEST_LIMITS = Limits(timeout=2.0, cpu_seconds=5, drain_bytes=1 << 20)


def snapshot(path: Path) -> Dict[str, str]:
    """Names, kinds and content hashes of everything under ``path`` (no symlink following)."""
    out: Dict[str, str] = {}
    for dirpath, dirnames, filenames in os.walk(path):
        for name in dirnames + filenames:
            p = os.path.join(dirpath, name)
            rel = os.path.relpath(p, path)
            if os.path.islink(p):
                out[rel] = "link:" + os.readlink(p)
            elif os.path.isfile(p):
                out[rel] = hashlib.sha256(Path(p).read_bytes()).hexdigest()
            else:
                out[rel] = "other"
    return out


@pytest.fixture()
def world(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Dict[str, Path]:
    monkeypatch.setenv("RAGIX_TEST_SECRET", ENV_TOKEN)
    return build_world(tmp_path)


@pytest.fixture()
def wworld(world: Dict[str, Path]) -> Dict[str, Path]:
    """The world plus what write attacks aim at (see add_write_targets)."""
    add_write_targets(world)
    return world


def add_write_targets(world: Dict[str, Path]) -> None:
    """Repositories (.git with hooks, a submodule's git dir, a nested checkout), a tree whose
    deeper entry links out (cp -r target), a victim file outside, and a link that escapes once moved."""
    proj = world["proj"]
    for rel, text in ((".git/HEAD", "ref: refs/heads/main\n"), (".git/config", "[core]\n"),
                      (".git/hooks/pre-commit.sample", "#!/bin/sh\n"), (".git/modules/m/config", "[core]\n"),
                      (".git/modules/m/hooks/post-checkout.sample", "#!/bin/sh\n"), ("sub/.git/config", "[core]\n"),
                      ("sub/file.txt", "sub\n"), ("mod/.git", "gitdir: ../.git/modules/m\n"), ("dest/src/keep.txt", "k\n")):
        (proj / rel).parent.mkdir(parents=True, exist_ok=True)
        (proj / rel).write_text(text)
    (world["outside"] / "victim.txt").write_text("untouched\n")
    os.symlink("../../../outside/victim.txt", proj / "dest" / "src" / "a.py")
    (proj / "a" / "b" / "c").mkdir(parents=True)
    os.symlink("../../..", proj / "a" / "b" / "c" / "s")
    # archives whose members aim at protected names, out of the root, or through links
    for name, members in (("evil_git.tgz", [(".git/hooks/pre-commit", None)]),
                          ("evil_sub.tgz", [("sub/.git/hooks/pre-commit", None)]),
                          ("evil_dots.tgz", [("../outside/planted.txt", None)]),
                          ("evil_thru.tgz", [("linkdir/planted.txt", None)]),
                          ("evil_sym.tgz", [("l", "../outside"), ("l/planted.txt", None)])):
        with tarfile.open(proj / name, "w:gz") as tar:
            for member, link in members:
                info = tarfile.TarInfo(member)
                if link:
                    info.type, info.linkname = tarfile.SYMTYPE, link
                    tar.addfile(info)
                else:
                    info.size = 5
                    tar.addfile(info, io.BytesIO(b"evil\n"))


def build_world(tmp_path: Path) -> Dict[str, Path]:
    outside = tmp_path / "outside"
    outside.mkdir()
    secret = outside / "secret.txt"
    secret.write_text(f"{SECRET_TOKEN}\n")
    proj = tmp_path / "proj"
    (proj / "src").mkdir(parents=True)
    (proj / "docs").mkdir()
    (proj / "README.md").write_text("# Demo\nhello world\nTODO: more\n")
    (proj / "src" / "a.py").write_text("def foo():\n    return 1\n")
    (proj / "src" / "b.py").write_text("import a\n\ndef bar():\n    return a.foo()  # TODO\n")
    (proj / "docs" / "guide.md").write_text("Guide\n=====\nstep one\nstep two\n")
    (proj / "data.csv").write_text("name,score\nann,30\nbob,7\ncid,30\n")
    (proj / "big.txt").write_text(("x" * 99 + "\n") * 10_000)  # 1 MB
    (proj / "list.txt").write_text(f"{secret}\n")
    os.symlink("../outside/secret.txt", proj / "link_secret")
    os.symlink("../outside", proj / "linkdir")
    os.link(secret, proj / "hard_secret")
    os.mkfifo(proj / "fifo")
    return {"tmp": tmp_path, "proj": proj, "outside": outside, "secret": secret}


@pytest.fixture()
def layer1(world: Dict[str, Path]) -> ToolBox:
    """Layer 1 alone: validation, no OS sandbox."""
    return ToolBox(world["proj"], profile="reflect", sandbox="none", limits=TEST_LIMITS)


def make_box(world: Dict[str, Path], sandbox: str, *, validate: bool = True, profile: str = "reflect", **kw) -> ToolBox:
    return ToolBox(world["proj"], profile=profile, sandbox=sandbox, limits=kw.pop("limits", TEST_LIMITS),
                   validate=validate, **kw)


def sandboxes():
    """OS layers available here, as pytest params."""
    return [
        pytest.param("bwrap", marks=pytest.mark.skipif(not HAS_BWRAP, reason="bubblewrap not installed")),
        pytest.param("landlock", marks=pytest.mark.skipif(not HAS_LANDLOCK, reason="no Landlock")),
    ]
