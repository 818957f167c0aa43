"""Bounding untrusted text (model replies, tool output, file names) before it
goes into a prompt, an event or a report: one function, so every cut says the
same thing and none is silent."""

from __future__ import annotations

from typing import Any

__all__ = ["bounded", "one_line", "json_command"]


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


def json_command(text: str) -> str:
    """A command line read from a model's JSON reply, with a backspace or a newline put back as the
    ``\\b`` or ``\\n`` the model wrote. In JSON ``"\\b"`` is a backspace and ``"\\n"`` a newline; in a
    grep, sed or awk pattern the model means a word boundary or a newline escape (measured on
    the regression set: `grep -oP '(?<=def ).*\\b'` arrived with U+0008, and
    `grep -oP '(?<=## ).*(?=\\n)'` with U+000A; each was refused as a control character). No command
    line holds a real backspace; a newline is put back only inside quotes, where it can only have been
    part of a pattern (a newline between two commands is still refused, with the lexer's message).
    A tab is left alone (a real tab is a field separator the tools accept as written)."""
    if not isinstance(text, str):
        return text
    out, quote = [], None
    for c in text.replace("\b", "\\b"):
        if quote is None and c in "'\"":
            quote = c
        elif c == quote:
            quote = None
        out.append("\\n" if c == "\n" and quote else c)
    return "".join(out)
