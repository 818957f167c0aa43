"""A throwaway copy of a project whose changes can be carried back: for runs that may write but whose
writes should land only if chosen (the ensemble's members, collective/ensemble.py).

``TreeCopy(original)`` copies the project (links kept as links, never followed; bulky caches and ragix's
own state left out), bounded in bytes so `--cwd ~/big` is refused by name instead of filling the disk.
``changes()`` compares the copy with the original: files written (added, changed in content, kind or mode),
files removed, directories made and removed. ``apply()`` makes those changes in the original, so the
original ends as the copy is, on every path the copy changed, and nowhere else.

Unchanged files are found by (size, mtime_ns): ``copy2`` keeps both, and any write moves the mtime; a
file whose size and mtime differ is compared byte for byte, so a rewrite with the same bytes is no change.
"""

from __future__ import annotations

import filecmp
import os
import shutil
import stat
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Dict, List, Optional, Tuple

__all__ = ["TreeCopy", "TreeChanges", "TreeCopyError", "MAX_COPY_BYTES", "NOT_COPIED"]

# Left out of the copy and never compared: ragix's own state (its corpus and traces belong to the real
# run) and caches a run may create or remove at will. Version control is copied: `git` answers need it.
NOT_COPIED = (".ragix", "__pycache__", ".venv", ".pytest_cache", ".hypothesis", ".mypy_cache")
MAX_COPY_BYTES = 512 * 1024 * 1024


class TreeCopyError(RuntimeError):
    """The project cannot be copied (too big, unreadable) or a change cannot be carried back."""


@dataclass
class TreeChanges:
    written: List[str] = field(default_factory=list)  # files and links added or changed, relative paths
    removed: List[str] = field(default_factory=list)  # files and links that are gone
    dirs_made: List[str] = field(default_factory=list)
    dirs_removed: List[str] = field(default_factory=list)

    def __bool__(self) -> bool:
        return bool(self.written or self.removed or self.dirs_made or self.dirs_removed)

    def summary(self, limit: int = 20) -> Dict[str, object]:
        """Counts and the first ``limit`` paths of each kind, for a report."""
        return {"written": self.written[:limit], "removed": self.removed[:limit],
                "dirs_made": self.dirs_made[:limit], "dirs_removed": self.dirs_removed[:limit],
                "counts": {"written": len(self.written), "removed": len(self.removed),
                           "dirs_made": len(self.dirs_made), "dirs_removed": len(self.dirs_removed)}}


Entry = Tuple[str, os.stat_result]  # ("file" | "link" | "dir" | "other", lstat)


def _kind(st: os.stat_result) -> str:
    if stat.S_ISLNK(st.st_mode):
        return "link"
    if stat.S_ISDIR(st.st_mode):
        return "dir"
    return "file" if stat.S_ISREG(st.st_mode) else "other"


def _listing(root: Path) -> Dict[str, Entry]:
    """{relative path: (kind, lstat)} under ``root``, without NOT_COPIED and without following links."""
    out: Dict[str, Entry] = {}
    for dirpath, dirnames, filenames in os.walk(root, followlinks=False):
        dirnames[:] = [d for d in dirnames if d not in NOT_COPIED]
        for name in dirnames + filenames:
            if name in NOT_COPIED:
                continue
            full = os.path.join(dirpath, name)
            try:
                st = os.lstat(full)
            except OSError:
                continue
            out[os.path.relpath(full, root)] = (_kind(st), st)
    return out


def _same(rel: str, a: Entry, b: Entry, root_a: Path, root_b: Path) -> bool:
    (kind_a, st_a), (kind_b, st_b) = a, b
    if kind_a != kind_b:
        return False
    if kind_a == "link":
        return os.readlink(root_a / rel) == os.readlink(root_b / rel)
    if kind_a != "file":
        return True  # directories are compared through their entries; devices and fifos are not copied
    if stat.S_IMODE(st_a.st_mode) != stat.S_IMODE(st_b.st_mode) or st_a.st_size != st_b.st_size:
        return False
    if st_a.st_mtime_ns == st_b.st_mtime_ns:
        return True
    return filecmp.cmp(root_a / rel, root_b / rel, shallow=False)


def _size(root: Path, limit: int) -> int:
    total = 0
    for _, (kind, st) in _listing(root).items():
        if kind == "file":
            total += st.st_size
            if total > limit:
                break
    return total


class TreeCopy:
    """A copy of ``original`` in a temporary directory (removed by ``close``, or on leaving a ``with``)."""

    def __init__(self, original: "os.PathLike[str] | str", limit: Optional[int] = None,
                 parent: Optional["os.PathLike[str] | str"] = None) -> None:
        limit = MAX_COPY_BYTES if limit is None else limit
        self.original = Path(original).resolve()
        if not self.original.is_dir():
            raise TreeCopyError(f"{self.original}: not a directory")
        size = _size(self.original, limit)
        if size > limit:
            raise TreeCopyError(f"{self.original} holds more than {limit // 2**20} MiB of files: too big to copy "
                                f"for each member that may write")
        self._parent = Path(tempfile.mkdtemp(prefix="ragix-copy-", dir=parent))
        self.root = self._parent / "work"
        try:
            shutil.copytree(self.original, self.root, symlinks=True,
                            ignore=shutil.ignore_patterns(*NOT_COPIED))
        except (OSError, shutil.Error) as exc:
            self.close()
            raise TreeCopyError(f"{self.original}: cannot copy: {exc}") from None

    def __enter__(self) -> "TreeCopy":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        shutil.rmtree(self._parent, ignore_errors=True)

    def changes(self) -> TreeChanges:
        before, after = _listing(self.original), _listing(self.root)
        out = TreeChanges()
        for rel in sorted(after):
            kind = after[rel][0]
            if kind == "other":
                continue
            if kind == "dir":
                if rel not in before or before[rel][0] != "dir":
                    out.dirs_made.append(rel)
                continue
            if rel not in before or not _same(rel, before[rel], after[rel], self.original, self.root):
                out.written.append(rel)
        for rel in sorted(before):
            kind = before[rel][0]
            gone = rel not in after or (after[rel][0] == "dir") != (kind == "dir")
            if gone and kind == "dir":
                out.dirs_removed.append(rel)
            elif gone and kind in ("file", "link"):
                out.removed.append(rel)
        return out

    def apply(self, changes: TreeChanges) -> None:
        """Make ``changes`` (from ``changes()``) in the original. Raises TreeCopyError naming the first path
        that could not be changed; the ones before it are changed."""
        dest, src = self.original, self.root
        try:
            for rel in changes.removed:
                _remove(dest / rel)
            for rel in sorted(changes.dirs_removed, key=lambda r: r.count(os.sep), reverse=True):
                _remove(dest / rel)
            for rel in changes.dirs_made:
                target = dest / rel
                if target.is_symlink() or (target.exists() and not target.is_dir()):
                    _remove(target)
                target.mkdir(exist_ok=True)
                shutil.copymode(src / rel, target)
            for rel in changes.written:
                target = dest / rel
                if target.is_symlink() or target.exists():
                    _remove(target)
                if (src / rel).is_symlink():
                    os.symlink(os.readlink(src / rel), target)
                else:
                    shutil.copy2(src / rel, target)
        except OSError as exc:
            raise TreeCopyError(f"cannot carry a change back to {dest}: {exc}") from None


def _remove(path: Path) -> None:
    if path.is_symlink() or not path.is_dir():
        path.unlink(missing_ok=True)
    else:
        shutil.rmtree(path)
