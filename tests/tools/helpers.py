"""Assertions shared by the tool tests."""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Dict, List, Optional

from ragix_core.core.types import ToolResult
from tests.tools.conftest import ENV_TOKEN, SECRET_TOKEN, snapshot


def survivors(marker: str) -> List[int]:
    """PIDs whose command line contains ``marker``."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit() or int(entry) == os.getpid():
            continue
        try:
            cmdline = Path(f"/proc/{entry}/cmdline").read_bytes().replace(b"\0", b" ").decode("utf-8", "replace")
        except OSError:
            continue
        if marker in cmdline:
            found.append(int(entry))
    return found


def wait_no_survivors(marker: str, attempts: int = 300) -> List[int]:
    # Killed processes disappear asynchronously; wait for the condition, never assert on time. A real survivor
    # lives on (the corpus's orphans sleep for days), so a long wait costs a passing run nothing; 5 s was too
    # short beside another test worker (CI run of a65b7cb: a bwrap orphan still listed after 5 s).
    left = survivors(marker)
    for _ in range(attempts):
        if not left:
            break
        time.sleep(0.1)
        left = survivors(marker)
    return left


def assert_harmless(result: ToolResult, world: Dict[str, Path], before: Dict[str, Dict[str, str]],
                    output_cap: int, marker: Optional[str] = None) -> None:
    assert isinstance(result, ToolResult)
    seen = "\n".join([result.stdout, result.stderr, result.error or ""])
    assert SECRET_TOKEN not in seen, "the secret outside the root leaked"
    assert ENV_TOKEN not in seen, "the engine's environment leaked"
    assert snapshot(world["proj"]) == before["proj"], "the project was modified"
    assert snapshot(world["outside"]) == before["outside"], "files outside the root were modified"
    assert len(result.stdout) <= output_cap
    if marker:
        assert wait_no_survivors(marker) == [], f"a process with {marker!r} survived the run"


def take_snapshots(world: Dict[str, Path]) -> Dict[str, Dict[str, str]]:
    return {"proj": snapshot(world["proj"]), "outside": snapshot(world["outside"])}


def protected_state(proj: Path) -> Dict[str, object]:
    """What no write may change: the content of every .git (wherever it now is: a repository
    moved with its parent is unchanged), ragix.yaml, and ragix's state."""
    repos = []
    for dirpath, dirnames, filenames in os.walk(proj):
        if os.path.relpath(dirpath, proj) == ".ragix":
            dirnames[:] = []
            continue
        for name in dirnames + filenames:
            if name == ".git":
                path = Path(dirpath) / name
                repos.append(snapshot(path) if path.is_dir() and not path.is_symlink()
                             else {"": "link" if path.is_symlink() else path.read_text(errors="replace")})
        dirnames[:] = [d for d in dirnames if d != ".git"]
    yaml = proj / "ragix.yaml"
    return {"repos": sorted(repos, key=repr), "ragix.yaml": yaml.read_bytes() if yaml.exists() else None,
            ".ragix": snapshot(proj / ".ragix") if (proj / ".ragix").exists() else None}


def leaks(result: ToolResult, world: Dict[str, Path], before: Dict[str, object], writes: bool,
          marker: Optional[str] = None) -> List[str]:
    """Every way ``result`` escaped confinement (empty: contained). Read profiles must leave the
    project as it was; write profiles may change it, but not its protected paths, and may not
    copy the secret into it."""
    found = []
    seen = "\n".join([result.stdout, result.stderr, result.error or ""])
    if SECRET_TOKEN in seen:
        found.append("the secret outside the root is in the output")
    if ENV_TOKEN in seen:
        found.append("the engine's environment is in the output")
    if snapshot(world["outside"]) != before["outside"]:
        found.append("files outside the root were modified")
    if "outside_meta" in before and outside_meta(world["outside"]) != before["outside_meta"]:
        found.append("the mode or times of files outside the root were changed")
    if not writes and snapshot(world["proj"]) != before["proj"]:
        found.append("a read-only profile modified the project")
    if writes:
        if protected_state(world["proj"]) != before["protected"]:
            found.append("a protected path (.git, ragix.yaml, .ragix) was changed")
        for dirpath, dirnames, filenames in os.walk(world["proj"]):
            for name in filenames:
                path = Path(dirpath) / name
                if path.is_symlink() or name == "hard_secret" or not path.is_file():
                    continue
                if SECRET_TOKEN.encode() in path.read_bytes():
                    found.append(f"the secret was copied into the project ({path.name})")
    if marker and wait_no_survivors(marker):
        found.append(f"a process with {marker!r} survived the run")
    return found


def outside_meta(outside: Path) -> Dict[str, tuple]:
    """Mode and modification time of everything outside: a confined command may not change them
    (Landlock has no right for file metadata; the mount namespace keeps them read-only)."""
    out = {}
    for p in [outside, *outside.rglob("*")]:
        st = os.lstat(p)
        out[str(p)] = (st.st_mode, st.st_mtime_ns)
    return out


def take_all(world: Dict[str, Path]) -> Dict[str, object]:
    return {**take_snapshots(world), "protected": protected_state(world["proj"]),
            "outside_meta": outside_meta(world["outside"])}
