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
from typing import Callable, Dict, List, Optional

from ragix_core.tools.lexer import check_text
from ragix_core.tools.policy import HIDDEN_DIRS, PROTECTED_COMPONENTS, protected_reason
from ragix_core.tools.refusal import Refusal

__all__ = ["PathGuard", "FORBIDDEN_ROOTS", "TreeScan", "check_root"]

# A project root must not be a system tree, a whole home, or hold ragix's own trust store:
# confinement to it would be meaningless. Trees are refused with everything under them
# (`/etc/ssl` is as much /etc as /etc is); the exact names are shared parents of real projects.
SYSTEM_TREES = ("/proc", "/sys", "/dev", "/etc", "/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32",
                "/boot", "/run", "/snap", "/var/lib", "/var/log", "/var/cache", "/var/spool", "/var/mail",
                "/var/run", "/var/backups", "/var/lock")
FORBIDDEN_ROOTS = ("/", "/var", "/home", "/root", "/tmp", "/var/tmp", "/opt", "/srv", "/mnt", "/media") + SYSTEM_TREES

MAX_TREE_ENTRIES = 200_000


def _under(path: str, top: str) -> bool:
    return path == top or path.startswith(top.rstrip("/") + "/")


def check_root(real: str) -> None:
    """ValueError when ``real`` (a resolved directory) may not be a project root."""
    from ragix_core.core.home import ragix_home, work_area

    if real in FORBIDDEN_ROOTS or any(_under(real, t) for t in SYSTEM_TREES):
        raise ValueError(f"project root {real!r} is a system directory: run ragix from a project's directory "
                         "or pass --cwd DIR (the tree and chat need none and run from anywhere)")
    home = os.path.realpath(os.path.expanduser("~"))
    if home not in ("/", "") and _under(home, real):
        raise ValueError(f"project root {real!r} holds the home directory {home!r} (keys, shell startup files): "
                         "run ragix from a project's directory inside it or pass --cwd DIR")
    state = os.path.realpath(ragix_home())
    if _under(real, os.path.realpath(work_area())):
        return  # the working area of engines that need no project: nothing of ragix's own state is in it
    if _under(real, state) or _under(state, real):
        raise ValueError(f"project root {real!r} overlaps ragix's own directory {state!r} (trust list, corpus)")


class TreeScan:
    """What a recursive reader would open under one operand: the safe regular files, and what was left out."""

    def __init__(self) -> None:
        self.files: List[str] = []
        self.skipped: Dict[str, List[str]] = {}

    def skip(self, why: str, rel: str) -> None:
        self.skipped.setdefault(why, []).append(rel)


SKIP_HARDLINK = "multiply-linked file"
SKIP_SPECIAL = "FIFO, socket or device"
SKIP_OUTSIDE = "path resolving outside the project"
SKIP_UNSAFE = "unsafe path"
_PLURALS = {SKIP_HARDLINK: "multiply-linked files", SKIP_SPECIAL: "FIFOs, sockets or devices",
            SKIP_OUTSIDE: "paths resolving outside the project", SKIP_UNSAFE: "unsafe paths",
            "glob match through a directory outside the project":
                "glob matches through a directory outside the project"}


def skip_notes(skipped: Dict[str, List[str]], limit: int = 10) -> List[str]:
    """One stderr line per kind, e.g. ``[ragix] skipped 1 multiply-linked file: hl``."""
    lines = []
    for why, names in skipped.items():
        unique = list(dict.fromkeys(names))
        shown = ", ".join(unique[:limit]) + (f", ... ({len(unique) - limit} more)" if len(unique) > limit else "")
        label = why if len(names) == 1 else _PLURALS.get(why, why)
        lines.append(f"[ragix] skipped {len(names)} {label}: {shown}")
    return lines


def skip_kind(refusal_reason: str) -> str:
    """The skip label for a path check's refusal (used for glob matches and xargs items)."""
    if "hard link" in refusal_reason:
        return SKIP_HARDLINK
    if "not a regular file or directory" in refusal_reason:
        return SKIP_SPECIAL
    if "outside the project" in refusal_reason:
        return SKIP_OUTSIDE
    return SKIP_UNSAFE


class PathGuard:
    def __init__(self, root: str) -> None:
        real = os.path.realpath(root)
        if not os.path.isdir(real):
            raise ValueError(f"project root {root!r} is not a directory")
        check_root(real)
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

    def scan(self, arg: str, shown: Optional[str] = None, exclude_dir: Optional[Callable[[str], bool]] = None) -> TreeScan:
        """Walk what a recursive reader (grep -r) would open under ``arg``, without following symlinks.

        Recursive readers skip symlinks, devices and FIFOs met while recursing, but read
        hard-linked regular files, whose other name may live outside the root: those are
        listed as skipped, and the caller runs the tool on ``files`` alone. ragix's own
        state (.ragix, at any depth) is never entered. Names are shown as the tool would
        print them: ``shown`` (default ``arg``) joined with the path below it.
        """
        top = self.read(arg)
        scan = TreeScan()
        if not os.path.isdir(top):
            scan.files.append(arg)
            return scan
        base = arg if shown is None else shown
        count = 0
        stack = [(top, base.rstrip("/") + "/" if base else "")]
        while stack:
            current, prefix = stack.pop()
            try:
                entries = sorted(os.scandir(current), key=lambda e: e.name)
            except OSError:
                continue  # unreadable directory: the tool reports it
            subdirs = []
            for entry in entries:
                count += 1
                if count > MAX_TREE_ENTRIES:
                    raise Refusal(f"{arg!r} holds more than {MAX_TREE_ENTRIES} entries; narrow the path")
                try:
                    st = entry.stat(follow_symlinks=False)
                except OSError:
                    continue
                name = prefix + entry.name
                if stat.S_ISDIR(st.st_mode):
                    if entry.name not in HIDDEN_DIRS and not (exclude_dir and exclude_dir(entry.name)):
                        subdirs.append((entry.path, name + "/"))
                elif stat.S_ISREG(st.st_mode):
                    if st.st_nlink > 1:
                        scan.skip(SKIP_HARDLINK, name)
                    else:
                        scan.files.append(name)
                # symlinks, FIFOs, sockets, devices: a recursive reader skips them itself
            stack.extend(reversed(subdirs))
        return scan

    def tree(self, arg: str) -> None:
        """Refuse a tree a recursive reader would read a hard-linked file in (for writers: cp -r)."""
        scan = self.scan(arg)
        for why, names in scan.skipped.items():
            raise Refusal(f"{names[0]!r} under {arg!r} is a {why}; name a narrower path")

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
        why = protected_reason(rel)
        if why:
            raise Refusal(f"writing to {rel!r} is refused: {why}")
        try:
            st = os.lstat(real)
        except FileNotFoundError:
            return real
        except OSError as exc:
            raise Refusal(f"write target {arg!r} cannot be checked: {exc.strerror}") from None
        self._check_kind(arg, st)
        return real

    def write_tree(self, arg: str, hardlinks_ok: bool = True) -> str:
        """A write target that may be a whole tree (rm -r, mv, chmod -R): nothing protected inside it."""
        real = self.write(arg)
        if not os.path.isdir(real) or os.path.islink(real):
            return real
        for dirpath, dirnames, filenames in _walk(real):
            for name in dirnames + filenames:
                path = os.path.join(dirpath, name)
                rel = os.path.relpath(path, self.root)
                why = protected_reason(rel)
                if why:
                    raise Refusal(f"{arg!r} holds {rel!r}: {why}")
                if not hardlinks_ok and name in filenames:
                    st = os.lstat(path)
                    if stat.S_ISREG(st.st_mode) and st.st_nlink > 1:
                        raise Refusal(f"{rel!r} under {arg!r} has {st.st_nlink} hard links; the change would reach "
                                      "its other names")
        return real

    def copy_into(self, src_real: str, dest_real: str) -> None:
        """cp -r SRC into an existing DEST: every name it writes must be a plain new or regular file.

        cp opens an existing destination file for writing, so a symlink (or a hard link)
        already sitting deeper in DEST would carry the copy outside the project.
        """
        if not os.path.isdir(src_real) or os.path.islink(src_real):
            return
        for dirpath, dirnames, filenames in _walk(src_real):
            for name in dirnames + filenames:
                src = os.path.join(dirpath, name)
                target = os.path.join(dest_real, os.path.relpath(src, src_real))
                rel = os.path.relpath(target, self.root)
                why = protected_reason(rel)
                if why:
                    raise Refusal(f"copying would write {rel!r}: {why}")
                try:
                    st = os.lstat(target)
                except FileNotFoundError:
                    continue
                if stat.S_ISLNK(st.st_mode):
                    raise Refusal(f"copying would write through the symlink {rel!r}; remove it first")
                if stat.S_ISDIR(st.st_mode):
                    continue
                if not stat.S_ISREG(st.st_mode) or st.st_nlink > 1:
                    raise Refusal(f"copying would overwrite {rel!r}, which is not a singly-linked regular file")

    def relative(self, real: str) -> Optional[str]:
        return os.path.relpath(real, self.root) if self.inside(real) else None


def _walk(top: str):
    """os.walk without following symlinks, bounded like scan()."""
    count = 0
    for dirpath, dirnames, filenames in os.walk(top, followlinks=False):
        count += len(dirnames) + len(filenames)
        if count > MAX_TREE_ENTRIES:
            raise Refusal(f"{os.path.basename(top)!r} holds more than {MAX_TREE_ENTRIES} entries; narrow the path")
        yield dirpath, dirnames, filenames
