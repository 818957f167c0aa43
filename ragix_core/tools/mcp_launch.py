"""How ragix starts a stdio MCP server: under bubblewrap, as it runs commands.

The server sees the project read-only (ragix's own state hidden), /usr, the directories of its
own program and interpreter, and what the config's ``mounts`` add; its environment is only the
config's ``env``; it has no network unless the config grants it. Without bubblewrap no stdio
server is started: a server is a long-lived program of someone else's, and layer 1 (which checks
command lines) has nothing to check in it.
"""

from __future__ import annotations

import os
import shutil
from typing import Dict, List, Sequence

from ragix_core.tools.bwrap import bwrap_prefix, find_bwrap
from ragix_core.tools.policy import HIDDEN_DIRS

__all__ = ["sandboxed_argv", "program_dirs"]


def _prefix_of(path: str) -> str:
    """The installation a program belongs to: the parent of its bin/ directory."""
    directory = os.path.dirname(path)
    return os.path.dirname(directory) if os.path.basename(directory) == "bin" else directory


def program_dirs(program: str) -> List[str]:
    """Read-only mounts a program needs beyond /usr: its installation, and for a script its
    interpreter's (a venv's python is a link into another installation)."""
    dirs = [_prefix_of(program), _prefix_of(os.path.realpath(program))]
    try:
        with open(program, "rb") as handle:
            first = handle.readline(300)
    except OSError:
        first = b""
    if first.startswith(b"#!"):
        words = first[2:].decode("utf-8", "replace").split()
        if words:
            dirs += [_prefix_of(words[0]), _prefix_of(os.path.realpath(words[0]))]
    return sorted({d for d in dirs if d and not (d == "/usr" or d.startswith("/usr/")) and d != "/"})


def sandboxed_argv(command: Sequence[str], root: str, *, network: bool, env: Dict[str, str],
                   mounts: Sequence[str] = ()) -> List[str]:
    """The argv that starts ``command`` confined; ValueError naming what is missing."""
    bwrap = find_bwrap()
    if not bwrap:
        raise ValueError("a stdio MCP server runs only under bubblewrap, and bubblewrap is not usable here "
                         "(run scripts/setup_system.sh), or use a url server")
    program = command[0] if os.path.isabs(command[0]) else shutil.which(command[0])
    if not program or not os.access(program, os.X_OK):
        raise ValueError(f"MCP server program {command[0]!r} not found on PATH")
    extra = program_dirs(program) + [os.path.realpath(m) for m in mounts]
    prefix = bwrap_prefix(bwrap, root, root, writable=False, network=network,
                          hidden=[os.path.join(root, h) for h in HIDDEN_DIRS], extra_ro=extra)
    setenv = [part for key, value in sorted(env.items()) for part in ("--setenv", key, value)]
    return prefix[:-1] + setenv + ["--"] + [program] + list(command[1:])
