"""What a benchmark report says about the code it measured: the commit the run started from."""

from __future__ import annotations

import subprocess
from pathlib import Path

__all__ = ["commit"]

ROOT = Path(__file__).resolve().parent.parent


def commit() -> str:
    """HEAD of the checkout, "+dirty" when tracked files differ from it; read it before the run starts
    (the tree may change while a long run goes on)."""
    def git(*args: str) -> str:
        return subprocess.run(["git", "-C", str(ROOT), *args], capture_output=True, text=True, timeout=10).stdout.strip()

    try:
        head = git("rev-parse", "--short", "HEAD") or "unknown"
        return head + ("+dirty" if git("status", "--porcelain", "--untracked-files=no") else "")
    except (OSError, subprocess.SubprocessError):
        return "unknown"
