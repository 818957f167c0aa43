"""The source files of a directory, read once, safely and within bounds: every audit kernel's input.

Symbolic links are never followed (a link can point out of the tree, and one that points inside is a
second name for a file already counted); a file with several hard links is skipped like ragix's path
guard refuses it, since it can be a name for a file outside the tree. Version-control and ragix state,
caches, virtual environments (any directory holding ``pyvenv.cfg``, whatever its name) and minified
bundles (``*.min.js``) are not the project's source. The walk is bounded by file count, file size and total bytes; each limit that cut
something is said in ``notes``, so a report never presents a partial tree as the whole.
"""

from __future__ import annotations

import hashlib
import os
import re
import stat
from dataclasses import dataclass, field
from typing import Dict, List, Optional

__all__ = ["SourceFile", "SourceTree", "TreeError", "TreeLimits", "scan_tree", "language_of", "SKIPPED_DIRS"]

SKIPPED_DIRS = frozenset({
    ".git", ".hg", ".svn", ".ragix", "__pycache__", "node_modules", ".venv", "venv", ".tox", ".nox",
    ".mypy_cache", ".pytest_cache", ".ruff_cache", ".eggs", "site-packages",
})

# Extension → language, for the languages lizard measures; the name is the one the scanners use.
_LANGUAGES = {
    ".py": "python", ".pyw": "python",
    ".js": "javascript", ".mjs": "javascript", ".cjs": "javascript", ".jsx": "javascript",
    ".ts": "typescript", ".tsx": "tsx",
    ".go": "go", ".java": "java", ".rs": "rust", ".rb": "ruby", ".php": "php", ".cs": "csharp",
    ".c": "c", ".h": "c", ".cc": "cpp", ".cpp": "cpp", ".cxx": "cpp", ".hpp": "cpp", ".hh": "cpp",
    ".swift": "swift", ".kt": "kotlin", ".scala": "scala", ".lua": "lua", ".m": "objc",
}


_MINIFIED = re.compile(r"[.-]min\.(js|css)$")  # bundled third-party builds: one line, nobody edits them


def language_of(path: str) -> Optional[str]:
    return _LANGUAGES.get(os.path.splitext(path)[1].lower())


class TreeError(ValueError):
    """The path given is not a directory that can be audited; the message says which and why."""


@dataclass(frozen=True)
class TreeLimits:
    max_files: int = 20_000  # source files analysed; the walk stops beyond (and says so)
    max_file_bytes: int = 1 << 20  # a larger file is generated or data, not code someone maintains
    max_total_bytes: int = 128 << 20  # held in memory at once for the kernels

    def validate(self) -> "TreeLimits":
        for name in ("max_files", "max_file_bytes", "max_total_bytes"):
            value = getattr(self, name)
            if not isinstance(value, int) or value <= 0:
                raise TreeError(f"TreeLimits.{name} must be a positive integer, got {value!r}")
        return self


@dataclass(frozen=True)
class SourceFile:
    path: str  # relative to the root, "/"-separated
    language: str
    size: int
    sha256: str


@dataclass
class SourceTree:
    root: str  # absolute, symlinks resolved
    files: List[SourceFile]
    digest: str  # sha256 over every (path, content hash): the identity of what the kernels read
    notes: List[str] = field(default_factory=list)
    _texts: Dict[str, str] = field(default_factory=dict, repr=False)

    def text(self, path: str) -> str:
        return self._texts[path]


def _is_venv(path: str) -> bool:
    return os.path.isfile(os.path.join(path, "pyvenv.cfg"))


def _read_regular(path: str, limit: int) -> Optional[bytes]:
    """The bytes of a regular, singly linked file, opened without following a link; None otherwise."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | getattr(os, "O_NONBLOCK", 0))
    except OSError:
        return None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode) or st.st_nlink > 1 or st.st_size > limit:
            return None
        with os.fdopen(fd, "rb", closefd=False) as fh:
            return fh.read(limit + 1)
    finally:
        os.close(fd)


def scan_tree(path: str, limits: Optional[TreeLimits] = None) -> SourceTree:
    """Read the source files under ``path``. Raises TreeError for a missing path or one that is not a
    directory (never an OSError from deep inside)."""
    limits = (limits or TreeLimits()).validate()
    if not os.path.lexists(path):
        raise TreeError(f"no such directory: {path}")
    if not os.path.isdir(path):
        raise TreeError(f"not a directory: {path}")
    root = os.path.realpath(path)
    if not os.access(root, os.R_OK | os.X_OK):
        raise TreeError(f"directory not readable: {path}")
    files: List[SourceFile] = []
    texts: Dict[str, str] = {}
    skipped = {"links": 0, "large": [], "unreadable": 0}
    total = 0
    stopped = None
    for dirpath, dirnames, filenames in os.walk(root, followlinks=False):
        # pruned in place: os.walk then never enters them; sorted so the result is the same every run
        linked = [d for d in dirnames if os.path.islink(os.path.join(dirpath, d))]
        skipped["links"] += len(linked)
        dirnames[:] = sorted(d for d in dirnames if d not in SKIPPED_DIRS and not d.endswith(".egg-info")
                             and d not in linked and not _is_venv(os.path.join(dirpath, d)))
        for name in sorted(filenames):
            language = language_of(name)
            if language is None or _MINIFIED.search(name):
                continue
            full = os.path.join(dirpath, name)
            rel = os.path.relpath(full, root).replace(os.sep, "/")
            if os.path.islink(full):
                skipped["links"] += 1
                continue
            if len(files) >= limits.max_files:
                stopped = f"stopped after {limits.max_files} source files (TreeLimits.max_files); the rest is not analysed"
                break
            data = _read_regular(full, limits.max_file_bytes)
            if data is None:
                try:
                    too_large = os.lstat(full).st_size > limits.max_file_bytes
                except OSError:
                    too_large = False
                if too_large:
                    skipped["large"].append(rel)
                else:
                    skipped["unreadable"] += 1
                continue
            if total + len(data) > limits.max_total_bytes:
                stopped = (f"stopped at {total} bytes of source (TreeLimits.max_total_bytes); "
                           "the rest is not analysed")
                break
            total += len(data)
            files.append(SourceFile(rel, language, len(data), hashlib.sha256(data).hexdigest()))
            texts[rel] = data.decode("utf-8", errors="replace")
        if stopped:
            break
    notes = []
    if stopped:
        notes.append(stopped)
    if skipped["large"]:
        shown = ", ".join(skipped["large"][:5]) + (" …" if len(skipped["large"]) > 5 else "")
        notes.append(f"{len(skipped['large'])} file(s) over {limits.max_file_bytes} bytes skipped: {shown}")
    if skipped["links"]:
        notes.append(f"{skipped['links']} symbolic link(s) not followed")
    if skipped["unreadable"]:
        notes.append(f"{skipped['unreadable']} file(s) skipped: unreadable, not regular, or hard-linked")
    digest = hashlib.sha256("".join(f"{f.path}\0{f.sha256}\n" for f in files).encode()).hexdigest()
    return SourceTree(root, files, digest, notes, texts)
