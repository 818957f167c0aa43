"""Isolated working copies: each scenario runs in its own copy of the directory.

The original directory is never handed to the agent. A cheap fingerprint
(relative path, size, mtime) taken before and after a run proves it was not
modified; the harness reports a mismatch instead of trusting the copy.
"""

from __future__ import annotations

import shutil
import tempfile
from contextlib import contextmanager
from pathlib import Path
from typing import Dict, Iterator, Optional, Tuple

__all__ = ["WorkspaceError", "working_copy", "fingerprint"]

# Never copied: version control, caches, and ragix's own state from earlier runs
# (a copied .ragix corpus would leak experience between scenarios).
_SKIPPED = (".git", ".ragix", "__pycache__", ".venv", ".pytest_cache", ".hypothesis")
_IGNORE = shutil.ignore_patterns(*_SKIPPED)
# Watched for changes: everything but bulky or tool-owned caches (.ragix is watched:
# an engine writing its memory into the original is exactly what must be caught).
_UNWATCHED = tuple(name for name in _SKIPPED if name != ".ragix")


class WorkspaceError(RuntimeError):
    """The directory to copy is missing or cannot be copied."""


def fingerprint(root: Path) -> Dict[str, Tuple[int, int]]:
    """{relative path: (size, mtime_ns)} for every file under root, links not followed."""
    out: Dict[str, Tuple[int, int]] = {}
    root = Path(root)
    for p in sorted(root.rglob("*")):
        if any(part in _UNWATCHED for part in p.relative_to(root).parts):
            continue  # not copied, so not watched (and a big .venv would cost seconds)
        try:
            st = p.lstat()
        except OSError:
            continue
        if p.is_dir() and not p.is_symlink():
            continue
        out[str(p.relative_to(root))] = (st.st_size, st.st_mtime_ns)
    return out


@contextmanager
def working_copy(source: Optional[Path], prefix: str = "ragix-eval-") -> Iterator[Path]:
    """Yield a fresh copy of ``source`` (or an empty directory when None); removed afterwards."""
    parent = Path(tempfile.mkdtemp(prefix=prefix))
    work = parent / "work"
    try:
        if source is None:
            work.mkdir()
        else:
            src = Path(source)
            if not src.is_dir():
                raise WorkspaceError(f"{src}: working directory not found (or not a directory)")
            try:
                # symlinks=True copies links as links: never follow one out of the tree.
                shutil.copytree(src, work, symlinks=True, ignore=_IGNORE)
            except (OSError, shutil.Error) as exc:
                raise WorkspaceError(f"{src}: cannot copy to a working directory: {exc}") from None
        yield work
    finally:
        shutil.rmtree(parent, ignore_errors=True)
