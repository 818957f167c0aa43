"""Isolated working copies: each scenario runs in its own copy of the directory.

The original directory is never handed to the agent. A cheap fingerprint
(relative path, size, mtime) taken before and after a run proves it was not
modified; the harness reports a mismatch instead of trusting the copy.
"""

from __future__ import annotations

import io
import shutil
import tarfile
import tempfile
from contextlib import contextmanager
from pathlib import Path
from typing import Dict, Iterator, Optional, Tuple

__all__ = ["WorkspaceError", "working_copy", "fingerprint", "pack_directory", "unpack_directory", "MAX_PACKED_BYTES"]

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


# A directory sent to another machine (a Ray worker) travels through the cluster's object store: an
# evaluation over a whole checkout with its data would fill it, so the size is bounded and named.
MAX_PACKED_BYTES = 256 * 1024 * 1024


def pack_directory(source: Path, limit: int = MAX_PACKED_BYTES) -> bytes:
    """``source`` as a gzipped tar, with what ``working_copy`` copies (links kept as links, never followed)."""
    src = Path(source)
    if not src.is_dir():
        raise WorkspaceError(f"{src}: working directory not found (or not a directory)")
    skipped = set(_SKIPPED)

    buf = io.BytesIO()

    def too_big() -> WorkspaceError:
        return WorkspaceError(f"{src}: the working directory packs to more than the {limit // 2**20} MiB sent to "
                              f"remote workers; point --cwd at a smaller directory")

    def keep(info: tarfile.TarInfo) -> "tarfile.TarInfo | None":
        if buf.tell() > limit:  # checked as it packs: `--cwd ~` must not be compressed whole before refusal
            raise too_big()
        return None if skipped.intersection(Path(info.name).parts) else info

    try:
        with tarfile.open(fileobj=buf, mode="w:gz", compresslevel=6) as tar:
            tar.add(src, arcname=".", recursive=True, filter=keep)
    except OSError as exc:
        raise WorkspaceError(f"{src}: cannot pack the working directory: {exc}") from None
    if buf.tell() > limit:
        raise too_big()
    return buf.getvalue()


def _refuse_escapes(members, dest: Path) -> None:
    """What the "tar" extraction filter refuses, for Pythons that lack it: absolute names, names or link
    targets that lead out of ``dest``, devices."""
    root = dest.resolve()
    for m in members:
        if m.isdev():
            raise tarfile.TarError(f"{m.name}: a device file")
        named = (root / m.name).resolve()
        targets = [named]
        if m.issym():
            targets.append((named.parent / m.linkname).resolve())
        elif m.islnk():
            targets.append((root / m.linkname).resolve())
        if m.name.startswith("/") or any(t != root and root not in t.parents for t in targets):
            raise tarfile.TarError(f"{m.name}: leads out of the directory it is unpacked into")


def unpack_directory(data: bytes, dest: Path) -> Path:
    """Recreate a ``pack_directory`` archive in ``dest`` (created); no member may land outside it."""
    dest = Path(dest)
    dest.mkdir(parents=True, exist_ok=True)
    try:
        with tarfile.open(fileobj=io.BytesIO(data), mode="r:gz") as tar:
            if hasattr(tarfile, "tar_filter"):  # Python 3.10.12 / 3.11.4 and later
                tar.extractall(dest, filter="tar")  # no absolute or ../ member names; links stay links
            else:
                _refuse_escapes(tar.getmembers(), dest)
                tar.extractall(dest)
    except (OSError, tarfile.TarError) as exc:
        raise WorkspaceError(f"cannot unpack a working directory into {dest}: {exc}") from None
    return dest
