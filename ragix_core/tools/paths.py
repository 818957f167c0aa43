"""Confine path arguments to the project root.

Every check works on the fully resolved path (``os.path.realpath``), so a
symlink, ``..`` or an absolute path can only pass if its *target* is inside
the root. Only regular files and directories are admitted: FIFOs would hang a
reader, devices and /proc entries are not project data. A regular file with
more than one hard link is refused because the other name may live outside the
root (a hard link is indistinguishable from the original).
"""

from __future__ import annotations

import os
import stat
from typing import Optional

from ragix_core.tools.lexer import check_text
from ragix_core.tools.policy import HIDDEN_DIRS, PROTECTED_WRITE_PATHS
from ragix_core.tools.refusal import Refusal

__all__ = ["PathGuard", "FORBIDDEN_ROOTS"]

# A project root must not be a system tree: confinement to it would be meaningless.
FORBIDDEN_ROOTS = ("/", "/proc", "/sys", "/dev", "/etc", "/usr", "/bin", "/sbin", "/lib", "/lib64", "/boot", "/run", "/var")

MAX_TREE_ENTRIES = 200_000


class PathGuard:
    def __init__(self, root: str) -> None:
        real = os.path.realpath(root)
        if not os.path.isdir(real):
            raise ValueError(f"project root {root!r} is not a directory")
        if real in FORBIDDEN_ROOTS or any(real.startswith(p + "/") for p in ("/proc", "/sys", "/dev")):
            raise ValueError(f"project root {real!r} is a system directory; choose a project directory")
        self.root = real

    def inside(self, real: str) -> bool:
        return real == self.root or real.startswith(self.root + os.sep)

    def resolve(self, arg: str) -> str:
        """Resolved absolute path of ``arg`` (relative to the root), or Refusal if outside."""
        if not isinstance(arg, str):
            raise Refusal("path arguments must be strings")
        check_text(arg, "path")
        real = os.path.realpath(os.path.join(self.root, arg))
        if not self.inside(real):
            raise Refusal(f"path {arg!r} resolves outside the project root")
        for hidden in HIDDEN_DIRS:
            top = os.path.join(self.root, hidden)
            if real == top or real.startswith(top + os.sep):
                raise Refusal(f"path {arg!r} is ragix's own state ({hidden}), not part of the project")
        return real

    def read(self, arg: str, must_exist: bool = False) -> str:
        """Check a path that a tool will read; return the resolved path."""
        real = self.resolve(arg)
        try:
            st = os.stat(real)
        except FileNotFoundError:
            if must_exist:
                raise Refusal(f"path {arg!r} does not exist") from None
            return real  # the tool reports "No such file" itself
        except OSError as exc:
            raise Refusal(f"path {arg!r} cannot be checked: {exc.strerror}") from None
        self._check_kind(arg, st)
        return real

    def _check_kind(self, arg: str, st: os.stat_result) -> None:
        if stat.S_ISDIR(st.st_mode):
            return
        if not stat.S_ISREG(st.st_mode):
            raise Refusal(f"path {arg!r} is not a regular file or directory")
        if st.st_nlink > 1:
            raise Refusal(f"file {arg!r} has {st.st_nlink} hard links; multiply-linked files are refused")

    def tree(self, arg: str) -> None:
        """Check everything a recursive reader (grep -r) would open under ``arg``.

        Recursive readers do not follow symlinks and skip devices and FIFOs,
        but they do read hard-linked regular files, so those are refused here.
        """
        top = self.read(arg)
        if not os.path.isdir(top):
            return
        count = 0
        stack = [top]
        while stack:
            current = stack.pop()
            try:
                entries = list(os.scandir(current))
            except OSError:
                continue  # unreadable directory: the tool reports it
            for entry in entries:
                count += 1
                if count > MAX_TREE_ENTRIES:
                    raise Refusal(f"{arg!r} holds more than {MAX_TREE_ENTRIES} entries; narrow the path")
                try:
                    st = entry.stat(follow_symlinks=False)
                except OSError:
                    continue
                if stat.S_ISDIR(st.st_mode):
                    if os.path.relpath(entry.path, self.root) not in HIDDEN_DIRS:  # hidden by the OS layer
                        stack.append(entry.path)
                elif stat.S_ISREG(st.st_mode) and st.st_nlink > 1:
                    rel = os.path.relpath(entry.path, self.root)
                    raise Refusal(f"{rel!r} under {arg!r} has {st.st_nlink} hard links; search a narrower path")

    def write(self, arg: str) -> str:
        """Check a path a tool will create, modify or remove; return the resolved path."""
        if not isinstance(arg, str) or not arg:
            raise Refusal("write targets must be non-empty strings")
        check_text(arg, "path")
        joined = os.path.normpath(os.path.join(self.root, arg))
        # Never write *through* a symlink: resolve the parent only, keep the last name.
        parent = os.path.realpath(os.path.dirname(joined))
        real = os.path.join(parent, os.path.basename(joined))
        if not self.inside(parent) or real == self.root or not self.inside(real):
            raise Refusal(f"write target {arg!r} is outside the project root (or is the root itself)")
        if os.path.islink(real):
            raise Refusal(f"write target {arg!r} is a symlink; writes through symlinks are refused")
        rel = os.path.relpath(real, self.root)
        for protected in PROTECTED_WRITE_PATHS:
            if rel == protected or rel.startswith(protected + os.sep) or protected.startswith(rel + os.sep):
                raise Refusal(f"writing to {rel!r} is refused: {protected} is protected")
        try:
            st = os.lstat(real)
        except FileNotFoundError:
            return real
        except OSError as exc:
            raise Refusal(f"write target {arg!r} cannot be checked: {exc.strerror}") from None
        self._check_kind(arg, st)
        return real

    def relative(self, real: str) -> Optional[str]:
        return os.path.relpath(real, self.root) if self.inside(real) else None
