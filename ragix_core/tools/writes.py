"""The write_file executor: create or replace a project file without a process.

Opened with O_NOFOLLOW so a symlink swapped in after the check is not
followed; the path passed PathGuard.write (inside the root, not protected).
"""

from __future__ import annotations

import os
from typing import Any, Dict

from ragix_core.tools.paths import PathGuard
from ragix_core.tools.refusal import Refusal

__all__ = ["check_write_file", "write_file", "MAX_WRITE_BYTES"]

MAX_WRITE_BYTES = 1 << 20


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


def write_file(real: str, content: str, append: bool) -> int:
    flags = os.O_WRONLY | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC | (os.O_APPEND if append else os.O_TRUNC)
    data = content.encode("utf-8")
    fd = os.open(real, flags, 0o644)
    try:
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view):]
    finally:
        os.close(fd)
    return len(data)
