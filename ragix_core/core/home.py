"""Where ragix keeps the user's own state (global corpus, trust list, models)."""

from __future__ import annotations

import os
from pathlib import Path

__all__ = ["ragix_home", "work_area", "HOME_ENV"]

HOME_ENV = "RAGIX_HOME"


def ragix_home() -> Path:
    """The global ragix directory: ``$RAGIX_HOME`` or ``~/.ragix``."""
    env = os.environ.get(HOME_ENV)
    return Path(env).expanduser() if env else Path.home() / ".ragix"


def work_area() -> Path:
    """The per-user working directory of engines that need no project (the tree, chat): where they
    run when started from a directory that may not be a project root (/, a home, /tmp). Inside the
    ragix directory, apart from its trust list and corpus, which a run confined to it cannot reach."""
    return ragix_home() / "work"
