"""A private mount namespace for Landlock runs: protected names read-only, ragix's state hidden.

Landlock rules only add rights, and a right granted on a directory holds for
everything beneath it. Granting write on the project root would therefore grant
it on .git/hooks too; keeping the root read-only instead denied every new
top-level file (`cp a.php b.php` failed under `sovereign`). Where the process may
create a mount namespace (root, or an unprivileged user namespace), the child
does what bubblewrap does before Landlock applies: it bind-mounts each protected
path read-only onto itself (a mount point cannot be renamed or replaced either)
and mounts an empty tmpfs over ragix's state. Landlock then forbids any further
mount change, so the command cannot undo it. Where no namespace is possible,
the caller falls back to the read-only root.

Everything here runs in the forked child before exec (a preexec hook).
"""

from __future__ import annotations

import ctypes
import os
import re
import subprocess
import sys
from functools import lru_cache
from typing import Callable, List, Sequence, Tuple

__all__ = ["available", "protector"]

_CLONE_NEWNS, _CLONE_NEWUSER = 0x00020000, 0x10000000
_MS_RDONLY, _MS_NOSUID, _MS_NODEV, _MS_NOEXEC = 1, 2, 4, 8
_MS_REMOUNT, _MS_BIND, _MS_REC, _MS_PRIVATE = 32, 4096, 16384, 1 << 18
_MS_NOATIME, _MS_NODIRATIME, _MS_RELATIME = 1024, 2048, 1 << 21
# statvfs f_flag bits -> the mount flags a remount inside a user namespace must keep (they are locked)
_KEEP = ((2, _MS_NOSUID), (4, _MS_NODEV), (8, _MS_NOEXEC), (1024, _MS_NOATIME), (2048, _MS_NODIRATIME),
         (4096, _MS_RELATIME))

_libc = ctypes.CDLL(None, use_errno=True)


def _fail(what: str) -> None:
    err = ctypes.get_errno()
    raise OSError(err, f"{what}: {os.strerror(err)}")


def _mount(src: "bytes | None", target: bytes, fstype: "bytes | None", flags: int, data: "bytes | None") -> None:
    if _libc.mount(src, target, fstype, ctypes.c_ulong(flags), data) != 0:
        _fail(f"mount {target.decode(errors='replace')}")


def _write(path: str, text: str) -> None:
    fd = os.open(path, os.O_WRONLY)
    try:
        os.write(fd, text.encode())
    finally:
        os.close(fd)


def _enter(uid: int, gid: int) -> None:
    if uid == 0:
        if _libc.unshare(_CLONE_NEWNS) != 0:
            _fail("unshare(CLONE_NEWNS)")
    else:
        if _libc.unshare(_CLONE_NEWUSER | _CLONE_NEWNS) != 0:
            _fail("unshare(CLONE_NEWUSER|CLONE_NEWNS)")
        _write("/proc/self/setgroups", "deny")
        _write("/proc/self/uid_map", f"{uid} {uid} 1")
        _write("/proc/self/gid_map", f"{gid} {gid} 1")
    _mount(None, b"/", None, _MS_REC | _MS_PRIVATE, None)  # nothing propagates back to the host


def _mount_points() -> List[Tuple[bytes, int]]:
    """Every mount point of this (new) namespace, with the flags a remount must keep."""
    out = []
    with open("/proc/self/mountinfo", "rb") as fh:
        for line in fh.read().splitlines():
            fields = line.split(b" ")
            point = re.sub(rb"\\([0-7]{3})", lambda m: bytes([int(m.group(1), 8)]), fields[4])
            opts = fields[5].split(b",")
            keep = (_MS_NOSUID if b"nosuid" in opts else 0) | (_MS_NODEV if b"nodev" in opts else 0) | \
                   (_MS_NOEXEC if b"noexec" in opts else 0) | (_MS_NOATIME if b"noatime" in opts else 0) | \
                   (_MS_NODIRATIME if b"nodiratime" in opts else 0) | (_MS_RELATIME if b"relatime" in opts else 0)
            out.append((point, keep))
    return out


def protector(readonly: Sequence[Tuple[str, int]], hidden: Sequence[str],
              writable: Sequence[Tuple[str, int]] = ()) -> Callable[[], None]:
    """A preexec hook: enter a private mount namespace; with ``writable`` given, make every
    mount read-only and only those paths (the project, the private /tmp) writable again;
    then make each protected ``(path, statvfs flags)`` read-only and put an empty tmpfs
    over each ``hidden`` directory.

    The read-only remount is what keeps a confined command from changing the mode or
    times of files outside the project (chmod, touch -d): Landlock has no right for
    file metadata, and a process owning a file may always change them."""
    uid, gid = os.getuid(), os.getgid()
    binds = [(os.fsencode(p), _locked(f)) for p, f in readonly]
    rw = [(os.fsencode(p), _locked(f)) for p, f in writable]
    tmpfs = [os.fsencode(p) for p in hidden]

    def apply() -> None:
        _enter(uid, gid)
        if rw:
            for point, keep in _mount_points():
                if _libc.mount(None, point, None, ctypes.c_ulong(_MS_BIND | _MS_REMOUNT | _MS_RDONLY | keep), None) != 0:
                    if point == b"/":
                        _fail("remount / read-only")
            for path, keep in rw:
                _mount(path, path, None, _MS_BIND, None)
                _mount(None, path, None, _MS_BIND | _MS_REMOUNT | keep, None)
        for path, keep in binds:
            _mount(path, path, None, _MS_BIND | _MS_REC, None)
            _mount(None, path, None, _MS_BIND | _MS_REMOUNT | _MS_RDONLY | keep, None)
        for path in tmpfs:
            _mount(b"tmpfs", path, b"tmpfs", _MS_NOSUID | _MS_NODEV, b"size=1m,mode=0755")
        # the working directory was entered before these mounts: enter it again through them
        os.chdir(os.getcwd())

    return apply


def _locked(fflag: int) -> int:
    return sum(ms for st, ms in _KEEP if fflag & st)


def statvfs_flags(path: str) -> int:
    try:
        return os.statvfs(path).f_flag
    except OSError:
        return 0


@lru_cache(maxsize=1)
def available() -> bool:
    """Can a child here make a private mount namespace and a read-only bind? Probed once,
    in a throw-away child, with the same hook the runs use."""
    probe_dir = os.path.dirname(os.path.abspath(__file__))
    try:
        proc = subprocess.run(["/bin/true"] if os.path.exists("/bin/true") else [sys.executable, "-c", "pass"],
                              preexec_fn=protector([(probe_dir, statvfs_flags(probe_dir))], []),
                              stdin=subprocess.DEVNULL, capture_output=True, timeout=10, env={})
    except (OSError, subprocess.SubprocessError):
        return False
    return proc.returncode == 0


def readonly_list(paths: List[str]) -> List[Tuple[str, int]]:
    return [(p, statvfs_flags(p)) for p in paths]
