"""Where ragix keeps the user's own state (global corpus, trust list, models)."""

from __future__ import annotations

import os
from pathlib import Path

__all__ = ["ragix_home", "HOME_ENV"]

HOME_ENV = "RAGIX_HOME"


def ragix_home() -> Path:
    """The global ragix directory: ``$RAGIX_HOME`` or ``~/.ragix``."""
    env = os.environ.get(HOME_ENV)
    return Path(env).expanduser() if env else Path.home() / ".ragix"
