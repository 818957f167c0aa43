"""Small file helpers shared by the tests."""

from __future__ import annotations

from pathlib import Path


def write(path: Path, text: str) -> Path:
    """Write ``text`` to ``path``, creating its directories; returns the path."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path
