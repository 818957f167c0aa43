"""Layer 2b: Landlock, used when bubblewrap is not available.

Landlock is an unprivileged Linux LSM: a process restricts itself (and all its
future children) to a set of file hierarchies. The ruleset is built in the
parent and applied in the child right before exec. Unlike bubblewrap it has no
PID namespace, so the runner sweeps escaped children through /proc afterwards.
"""

from __future__ import annotations

import ctypes
import os
import stat
import struct
from functools import lru_cache
from typing import Callable, Iterable, List

__all__ = ["landlock_abi", "Ruleset", "system_read_exec"]

_SYS_CREATE, _SYS_ADD, _SYS_RESTRICT = 444, 445, 446  # x86_64 and aarch64 share these numbers
_PR_SET_NO_NEW_PRIVS = 38
_PR_CAPBSET_DROP, _PR_CAP_AMBIENT, _PR_CAP_AMBIENT_CLEAR_ALL = 24, 47, 4
_CAP_VERSION_3 = 0x20080522
_CAP_LAST = 63
_RULE_PATH_BENEATH = 1
_CREATE_VERSION = 1

EXECUTE, WRITE_FILE, READ_FILE, READ_DIR = 1 << 0, 1 << 1, 1 << 2, 1 << 3
_WRITE_BITS = sum(1 << b for b in range(4, 13))  # remove/make dir, file, fifo, sock, dev, symlink
REFER, TRUNCATE, IOCTL_DEV = 1 << 13, 1 << 14, 1 << 15
_NET_BIND, _NET_CONNECT = 1, 2
_SCOPE_ABSTRACT_UNIX, _SCOPE_SIGNAL = 1, 2

_libc = ctypes.CDLL(None, use_errno=True)
_libc.syscall.restype = ctypes.c_long


@lru_cache(maxsize=1)
def landlock_abi() -> int:
    """The kernel's Landlock ABI version, 0 when unavailable."""
    try:
        version = _libc.syscall(_SYS_CREATE, None, ctypes.c_size_t(0), ctypes.c_uint32(_CREATE_VERSION))
    except Exception:
        return 0
    return max(0, int(version))


def _all_fs(abi: int) -> int:
    bits = EXECUTE | WRITE_FILE | READ_FILE | READ_DIR | _WRITE_BITS
    if abi >= 2:
        bits |= REFER
    if abi >= 3:
        bits |= TRUNCATE
    if abi >= 5:
        bits |= IOCTL_DEV
    return bits


class Ruleset:
    """A Landlock ruleset file descriptor: read-only and read-write hierarchies."""

    def __init__(self, read_exec: Iterable[str], read: Iterable[str], read_write: Iterable[str], network: bool) -> None:
        abi = landlock_abi()
        if abi < 1:
            raise OSError("Landlock is not available on this kernel")
        self.abi = abi
        handled = _all_fs(abi)
        attr = struct.pack("=Q", handled)
        if abi >= 4:
            attr += struct.pack("=Q", 0 if network else (_NET_BIND | _NET_CONNECT))
        if abi >= 6:
            attr += struct.pack("=Q", _SCOPE_ABSTRACT_UNIX | _SCOPE_SIGNAL)
        buf = ctypes.create_string_buffer(attr, len(attr))
        fd = _libc.syscall(_SYS_CREATE, buf, ctypes.c_size_t(len(attr)), ctypes.c_uint32(0))
        if fd < 0:
            raise OSError(ctypes.get_errno(), "landlock_create_ruleset failed")
        self.fd = int(fd)
        try:
            file_read = READ_FILE | EXECUTE
            for path in read_exec:
                self._add(path, READ_FILE | READ_DIR | EXECUTE, file_read)
            for path in read:
                self._add(path, READ_FILE | READ_DIR, READ_FILE)
            for path in read_write:
                self._add(path, handled, handled & ~(READ_DIR | _WRITE_BITS | REFER))
        except Exception:
            os.close(self.fd)
            raise

    def _add(self, path: str, dir_access: int, file_access: int) -> None:
        # O_NOFOLLOW, and the kind taken from the descriptor itself: a rule names the inode the
        # fd holds, so a symlink (or a name swapped after a check) must not pick where it lands.
        try:
            pfd = os.open(path, os.O_PATH | os.O_NOFOLLOW | os.O_CLOEXEC)
        except OSError:
            return  # a missing system path simply grants nothing
        try:
            mode = os.fstat(pfd).st_mode
            if stat.S_ISLNK(mode):
                return  # never grant through a symlink (merged-/usr links are covered by /usr itself)
            access = dir_access if stat.S_ISDIR(mode) else file_access
            attr = ctypes.create_string_buffer(struct.pack("=Qi", access, pfd), 12)
            if _libc.syscall(_SYS_ADD, ctypes.c_int(self.fd), ctypes.c_int(_RULE_PATH_BENEATH), attr, ctypes.c_uint32(0)) < 0:
                raise OSError(ctypes.get_errno(), f"landlock_add_rule failed for {path}")
        finally:
            os.close(pfd)

    def restrictor(self) -> Callable[[], None]:
        """A function for the child (preexec) that applies the ruleset to itself."""
        fd = self.fd

        def restrict() -> None:
            if _libc.prctl(_PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0:
                raise OSError(ctypes.get_errno(), "prctl(NO_NEW_PRIVS) failed")
            drop_capabilities()
            if _libc.syscall(_SYS_RESTRICT, ctypes.c_int(fd), ctypes.c_uint32(0)) != 0:
                raise OSError(ctypes.get_errno(), "landlock_restrict_self failed")

        return restrict

    def close(self) -> None:
        if self.fd >= 0:
            os.close(self.fd)
            self.fd = -1

    def __enter__(self) -> "Ruleset":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def drop_capabilities() -> None:
    """Empty the bounding, ambient, effective, permitted and inheritable capability sets.

    Landlock confines paths, not privileges: run as root, a confined command kept
    CAP_SYS_TIME (`date -s` set the host's clock), CAP_CHOWN, CAP_MKNOD... bubblewrap
    drops them all (--cap-drop ALL); this does the same for Landlock runs. With the
    bounding set empty, not even a root-owned setuid program gets any back."""
    for cap in range(_CAP_LAST + 1):
        _libc.prctl(_PR_CAPBSET_DROP, cap, 0, 0, 0)  # EINVAL past the kernel's last capability
    _libc.prctl(_PR_CAP_AMBIENT, _PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0)
    header = struct.pack("=Ii", _CAP_VERSION_3, 0)
    data = ctypes.create_string_buffer(b"\0" * 24)  # two {effective, permitted, inheritable} words
    if _libc.capset(ctypes.c_char_p(header), data) != 0:
        raise OSError(ctypes.get_errno(), "capset failed")


def system_read_exec() -> List[str]:
    """System paths a confined program may read and execute (the user and group names included, as
    under bubblewrap: tools/bwrap.py says why)."""
    return ["/usr", "/bin", "/sbin", "/lib", "/lib64", "/lib32", "/etc/ld.so.cache", "/etc/localtime", "/etc/alternatives",
            "/etc/passwd", "/etc/group"]
