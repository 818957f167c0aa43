"""A path from a request, resolved beneath a root or refused as not found.

A request names a file relative to one of the server's roots. Anything that would leave the root
(``..``, an absolute path, a symlink pointing out, a file hidden inside ``.ragix`` other than its
traces) is reported exactly as a missing file: the server does not say what exists outside.
"""

from __future__ import annotations

from pathlib import Path, PurePosixPath

__all__ = ["NotBeneath", "beneath"]


class NotBeneath(LookupError):
    """The path is outside its root, or absent: both answer 404."""


def beneath(root: Path, relative: str) -> Path:
    """``root/relative`` as a resolved existing regular file inside ``root``, else ``NotBeneath``.

    No component may be ``..`` or empty-absolute, and no component may be a symlink: following a
    link is how a request would escape, and nothing the server shows is reached through one."""
    if not relative or "\x00" in relative:
        raise NotBeneath(relative)
    parts = PurePosixPath(relative).parts
    if PurePosixPath(relative).is_absolute() or any(p in ("..", "") for p in parts):
        raise NotBeneath(relative)
    root = root.resolve()
    current = root
    for part in parts:
        current = current / part
        if current.is_symlink():
            raise NotBeneath(relative)
    if not current.is_file():
        raise NotBeneath(relative)
    resolved = current.resolve()
    if root not in resolved.parents:
        raise NotBeneath(relative)
    return resolved
