"""A command substitution that is only a list of files, written as the pipe it stands for.

Small models write ``grep -n '^## ' $(find . -name '*.md' | head -n 1)`` (seen in 3 of our
recorded graph runs, 2 goals; each refused). ragix runs no
shell, so ``$(...)`` is refused; but when the substitution is the last argument of the first
stage it only feeds words to that stage, which is what ``Y | xargs X`` does, with every item
checked as a path by ragix's own xargs. This module only rewrites the text: the result goes
through the same lexer and validation as any command, and the caller says what it ran.
"""

from __future__ import annotations

from typing import Optional, Tuple

from ragix_core.tools.lexer import first_pipe

__all__ = ["substitution_as_xargs"]


def _closing_paren(command: str, start: int) -> Optional[int]:
    """Index of the ``)`` closing the ``(`` at ``start``, quotes respected; None if unbalanced
    or if a nested substitution or backquote is inside (those are not rewritten)."""
    depth, i, n = 0, start, len(command)
    while i < n:
        c = command[i]
        if c == "'":
            end = command.find("'", i + 1)
            if end < 0:
                return None
            i = end
        elif c == '"':
            end = command.find('"', i + 1)
            if end < 0 or "$" in command[i + 1:end] or "`" in command[i + 1:end]:
                return None
            i = end
        elif c == "\\":
            i += 1
        elif c in "$`" and i > start:
            return None
        elif c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
            if depth == 0:
                return i
        i += 1
    return None


def substitution_as_xargs(command: str) -> Optional[Tuple[str, str]]:
    """``X args $(Y) [| Z]`` as ``(Y | xargs X args [| Z], note)``, or None when the command has any
    other shape: more than one substitution, one that is not the last word of the first stage,
    a nested one, a substitution inside quotes, or nothing before it."""
    command = (command or "").strip()
    start = command.find("$(")
    if start <= 0 or command[start - 1] != " " or command.count("$(") != 1:
        return None
    head = command[:start].rstrip()
    if not head or first_pipe(head) is not None or head.count("'") % 2 or head.count('"') % 2:
        return None
    end = _closing_paren(command, start + 1)
    if end is None:
        return None
    inner = command[start + 2:end].strip()
    tail = command[end + 1:].strip()
    if not inner or (tail and not tail.startswith("|")) or "$" in tail or "`" in tail:
        return None
    rewritten = f"{inner} | xargs {head}" + (f" {tail}" if tail else "")
    note = (f"ragix runs no command substitution: ran $({inner}) as its output piped to xargs: "
            f"`{rewritten}`")
    return rewritten, note
