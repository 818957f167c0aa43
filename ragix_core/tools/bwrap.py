"""Layer 2a: bubblewrap command lines.

Measured on the target machines: as root, bwrap only confines with
``--unshare-user --cap-drop ALL``, and the environment must be empty because
/proc/1/environ inside the sandbox is the sandboxed process's own. /etc is not
mounted (it holds secrets such as /etc/shadow, readable by a mapped root);
only the files the dynamic loader and time formatting use are, and for the
project's own commands the user and group names (``USER_NAME_FILES``: world-
readable on every Unix, no secret in them): without them `ls -l` shows owners
as numbers and `find -user root` fails with "not the name of a known user"
(measured on InterCode-ALFA NL2Bash fs_5-6 at 0822586: `ls -lh` printed `0 0`
where the same command outside prints `root root`). Servers (MCP) get none. Only the caller's uid is
mapped into the user namespace, so another user's files still show as `nobody`.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from functools import lru_cache
from typing import Iterable, List, Optional

__all__ = ["find_bwrap", "bwrap_prefix", "USER_NAME_FILES"]

_SYSTEM_LINKS = ("/bin", "/sbin", "/lib", "/lib64", "/lib32", "/libx32")
_ETC_FILES = ("/etc/ld.so.cache", "/etc/localtime", "/etc/alternatives")
USER_NAME_FILES = ("/etc/passwd", "/etc/group")


@lru_cache(maxsize=1)
def find_bwrap() -> Optional[str]:
    """Absolute path of a working bwrap, or None (checked once per process)."""
    for candidate in ("/usr/bin/bwrap", "/bin/bwrap", shutil.which("bwrap") or ""):
        if candidate and os.path.isfile(candidate) and os.access(candidate, os.X_OK):
            try:
                probe = subprocess.run(
                    bwrap_prefix(candidate, "/", "/", writable=False, network=False, mount_root=False) + ["/usr/bin/true"],
                    env={},
                    stdin=subprocess.DEVNULL,
                    capture_output=True,
                    timeout=10,
                )
            except (OSError, subprocess.SubprocessError):
                continue
            if probe.returncode == 0:
                return candidate
    return None


def bwrap_prefix(
    bwrap: str,
    root: str,
    cwd: str,
    *,
    writable: bool,
    network: bool,
    protected: Iterable[str] = (),
    hidden: Iterable[str] = (),
    extra_ro: Iterable[str] = (),
    mount_root: bool = True,
    user_names: bool = False,
) -> List[str]:
    """bwrap argv up to and including ``--``; append the command's argv. ``user_names``: mount
    ``USER_NAME_FILES`` read-only, so that programs name the owners of files."""
    args = [
        bwrap,
        "--unshare-all",  # user, ipc, pid, net, uts, cgroup namespaces
        "--unshare-user",
        "--cap-drop", "ALL",
        "--die-with-parent",
        "--new-session",  # no TIOCSTI injection into the caller's terminal
        "--clearenv",
    ]
    if network:
        args.append("--share-net")
    args += ["--ro-bind", "/usr", "/usr"]
    for link in _SYSTEM_LINKS:
        if os.path.islink(link):
            args += ["--symlink", os.readlink(link), link]
        elif os.path.isdir(link):
            args += ["--ro-bind", link, link]
    for path in _ETC_FILES + (USER_NAME_FILES if user_names else ()):
        if os.path.exists(path):
            args += ["--ro-bind", path, path]
    args += ["--proc", "/proc", "--dev", "/dev", "--tmpfs", "/tmp"]
    # After the /tmp tmpfs: bwrap mounts in order, so a path under /tmp bound before it was hidden.
    for path in extra_ro:
        if os.path.exists(path) and not path.startswith("/usr/"):
            args += ["--ro-bind", path, path]
    if mount_root:
        args += ["--bind" if writable else "--ro-bind", root, root]
        if writable:
            for path in protected:  # re-mounted read-only on top of the writable project
                if os.path.exists(path):
                    args += ["--ro-bind", path, path]
        for path in hidden:  # an empty tmpfs over it: the command sees an empty directory
            if os.path.isdir(path) and not os.path.islink(path):
                args += ["--tmpfs", path]
    args += ["--chdir", cwd, "--"]
    return args
