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


def wait_no_survivors(marker: str, attempts: int = 50) -> List[int]:
    # Killed processes disappear asynchronously; wait for the condition, never assert on time.
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
