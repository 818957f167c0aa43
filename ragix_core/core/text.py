"""Bounding untrusted text (model replies, tool output, file names) before it
goes into a prompt, an event or a report: one function, so every cut says the
same thing and none is silent."""

from __future__ import annotations

from typing import Any

__all__ = ["bounded", "one_line"]


def bounded(text: Any, limit: int, *, marker: bool = True) -> str:
    """``text`` cut to ``limit`` characters. A cut block ends with a line saying how
    much was cut; with ``marker=False`` (one-line fields) it ends with "…" instead."""
    text = "" if text is None else str(text)
    if len(text) <= limit:
        return text
    if not marker:
        return text[: max(limit - 1, 0)] + "…"
    return text[:limit] + f"\n[... {len(text) - limit} more characters cut]"


def one_line(text: Any, limit: int) -> str:
    """Whitespace collapsed to single spaces, then bounded with "…" (for listings)."""
    return bounded(" ".join(str(text or "").split()), limit, marker=False)
