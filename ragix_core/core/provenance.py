"""Which code ran: the git commit of the ragix checkout, for reports that must name what they measured."""

from __future__ import annotations

import subprocess
from functools import lru_cache
from pathlib import Path
from typing import Optional

__all__ = ["code_commit", "this_commit"]

PACKAGE_ROOT = Path(__file__).resolve().parents[2]  # the checkout holding ragix_core (if it is one)


def code_commit(root: Optional[Path] = None) -> str:
    """HEAD of the checkout at ``root`` (default: ragix's own), "+dirty" when tracked files differ from it,
    "unknown" outside a checkout (an installed wheel). Read it before a long run starts: the tree may change."""
    where = str(root or PACKAGE_ROOT)

    def git(*args: str) -> str:
        return subprocess.run(["git", "-C", where, *args], capture_output=True, text=True, timeout=10).stdout.strip()

    try:
        # git searches upward: a wheel installed in a venv inside some other repository would report that
        # repository's commit as ragix's. Only a checkout whose top is ``root`` itself counts.
        top = git("rev-parse", "--show-toplevel")
        if not top or Path(top).resolve() != Path(where).resolve():
            return "unknown"
        head = git("rev-parse", "--short", "HEAD") or "unknown"
        return head + ("+dirty" if head != "unknown" and git("status", "--porcelain", "--untracked-files=no") else "")
    except (OSError, subprocess.SubprocessError):
        return "unknown"


@lru_cache(maxsize=1)
def this_commit() -> str:
    """``code_commit()`` of the running process, read once: every run of an evaluation records it (a worker on
    another machine may run other code than the machine that started the evaluation)."""
    return code_commit()
