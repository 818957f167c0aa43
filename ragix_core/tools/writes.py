"""The write_file executor (and `>` redirection): create or replace a project file without a process.

The path passed PathGuard.write (inside the root, not protected), but a name can
change between that check and the write (an approval prompt sits in between, and
an earlier pipeline stage may have run). So the file is opened *relative to a
descriptor of the root*, never through a path string:

- openat2(RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS) where the
  kernel has it (Linux 5.6+): the kernel refuses any component that leaves the root
  or is a symlink, atomically with the open;
- elsewhere, a walk from the root descriptor, one component at a time with
  O_NOFOLLOW | O_DIRECTORY, then O_NOFOLLOW on the file: equivalent for symlinks,
  and '..' never appears (the checked path is normalised and relative).
"""

from __future__ import annotations

import ctypes
import errno
import os
import stat
import struct
from functools import lru_cache
from typing import Any, Dict

from ragix_core.tools.paths import PathGuard
from ragix_core.tools.refusal import Refusal

__all__ = ["check_write_file", "write_file", "open_beneath", "MAX_WRITE_BYTES"]

MAX_WRITE_BYTES = 1 << 20
_SYS_OPENAT2 = 437  # x86_64 and aarch64
_RESOLVE_NO_MAGICLINKS, _RESOLVE_NO_SYMLINKS, _RESOLVE_BENEATH = 0x02, 0x04, 0x08

_libc = ctypes.CDLL(None, use_errno=True)
_libc.syscall.restype = ctypes.c_long


def check_write_file(args: Dict[str, Any], guard: PathGuard) -> str:
    if not isinstance(args, dict) or set(args) - {"path", "content", "append"}:
        raise Refusal("write_file takes {path, content, append?}")
    path, content = args.get("path"), args.get("content")
    if not isinstance(path, str) or not isinstance(content, str):
        raise Refusal("write_file: 'path' and 'content' must be strings")
    if len(content.encode("utf-8", "surrogatepass")) > MAX_WRITE_BYTES:
        raise Refusal(f"write_file: content larger than {MAX_WRITE_BYTES} bytes")
    real = guard.write(path)
    if os.path.isdir(real):
        raise Refusal(f"write_file: {path!r} is a directory")
    if not os.path.isdir(os.path.dirname(real)):
        raise Refusal(f"write_file: the directory of {path!r} does not exist (create it with mkdir -p)")
    return real


@lru_cache(maxsize=1)
def _has_openat2() -> bool:
    how = struct.pack("=QQQ", os.O_RDONLY | os.O_DIRECTORY, 0, _RESOLVE_BENEATH)
    fd = _libc.syscall(_SYS_OPENAT2, ctypes.c_int(-100), b"/", ctypes.c_char_p(how), ctypes.c_size_t(len(how)))
    if fd >= 0:
        os.close(fd)
        return True
    return False


def _openat2(dirfd: int, rel: str, flags: int, mode: int) -> int:
    how = struct.pack("=QQQ", flags, mode if flags & os.O_CREAT else 0,
                      _RESOLVE_BENEATH | _RESOLVE_NO_SYMLINKS | _RESOLVE_NO_MAGICLINKS)
    fd = _libc.syscall(_SYS_OPENAT2, ctypes.c_int(dirfd), os.fsencode(rel), ctypes.c_char_p(how),
                       ctypes.c_size_t(len(how)))
    if fd < 0:
        err = ctypes.get_errno()
        raise OSError(err, os.strerror(err), rel)
    return int(fd)


def _walk_open(dirfd: int, rel: str, flags: int, mode: int) -> int:
    parts = rel.split("/")
    current = os.dup(dirfd)
    try:
        for part in parts[:-1]:
            if part in ("", ".", ".."):
                raise OSError(errno.EXDEV, "path leaves the root", rel)
            nxt = os.open(part, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC, dir_fd=current)
            os.close(current)
            current = nxt
        return os.open(parts[-1], flags | os.O_NOFOLLOW, mode, dir_fd=current)
    finally:
        os.close(current)


def open_beneath(root: str, real: str, flags: int, mode: int = 0o644) -> int:
    """Open ``real`` (a checked path inside ``root``) from a descriptor of the root, following no
    symlink on the way; OSError (ELOOP / EXDEV / ENOTDIR) if a component was swapped since the check."""
    rel = os.path.relpath(real, root)
    if rel.startswith("..") or os.path.isabs(rel) or rel == ".":
        raise OSError(errno.EXDEV, "path is not inside the root", real)
    rootfd = os.open(root, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    try:
        if _has_openat2():
            return _openat2(rootfd, rel, flags | os.O_CLOEXEC, mode)
        return _walk_open(rootfd, rel, flags | os.O_CLOEXEC, mode)
    finally:
        os.close(rootfd)


def write_file(root: str, real: str, content: "str | bytes", append: bool) -> int:
    """Write ``content`` to the checked path ``real`` under ``root``; Refusal if the path changed."""
    flags = os.O_WRONLY | os.O_CREAT | (os.O_APPEND if append else 0)
    data = content.encode("utf-8") if isinstance(content, str) else content
    try:
        fd = open_beneath(root, real, flags)
    except OSError as exc:
        rel = os.path.relpath(real, root)
        if exc.errno in (errno.ELOOP, errno.EXDEV, errno.ENOTDIR):
            raise Refusal(f"write to {rel!r} refused: a component of the path is now a symlink or leaves the "
                          "project (it changed after the check)") from None
        raise Refusal(f"cannot write {rel!r}: {exc.strerror}") from None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode) or st.st_nlink > 1:
            raise Refusal(f"write to {os.path.relpath(real, root)!r} refused: it is no longer a singly-linked regular file")
        if not append:
            os.ftruncate(fd, 0)  # only now: a hard link swapped in after the check stays untouched
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view):]
    finally:
        os.close(fd)
    return len(data)
