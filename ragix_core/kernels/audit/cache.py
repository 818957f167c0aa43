"""Kernel results kept on disk under the hash of what they were computed from.

The key covers the kernel's name and version, the tree's content digest, anything else the kernel read
(git's HEAD for churn) and the keys of the kernels it builds on, so a cached result is reused only
when recomputing would give the same document. A cache file that cannot be read is recomputed, never
trusted; a cache that cannot be written costs time, not the result.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from pathlib import Path
from typing import Any, Dict, Iterable, Optional

from ragix_core.core.home import ragix_home

__all__ = ["KernelCache", "default_cache_dir", "cache_key"]


def default_cache_dir() -> Path:
    return ragix_home() / "cache" / "kernels"


def cache_key(name: str, version: int, parts: Iterable[str]) -> str:
    h = hashlib.sha256(f"{name}\0{version}".encode())
    for part in parts:
        h.update(b"\0" + part.encode())
    return h.hexdigest()


class KernelCache:
    def __init__(self, directory: Optional[Path]):
        self.directory = directory  # None: no cache (every kernel computes)

    def _path(self, name: str, key: str) -> Optional[Path]:
        return self.directory / f"{name}-{key[:40]}.json" if self.directory else None

    def get(self, name: str, key: str) -> Optional[Dict[str, Any]]:
        path = self._path(name, key)
        if path is None or not path.is_file():
            return None
        try:
            doc = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None
        return doc if isinstance(doc, dict) and doc.get("key") == key else None

    def put(self, name: str, key: str, doc: Dict[str, Any]) -> None:
        path = self._path(name, key)
        if path is None:
            return
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            # written whole then renamed: a reader never sees half a document
            fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".tmp-", suffix=".json")
            with os.fdopen(fd, "w", encoding="utf-8") as fh:
                json.dump(doc, fh, ensure_ascii=False, sort_keys=True)
            os.replace(tmp, path)
        except OSError:
            pass
