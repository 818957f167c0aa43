"""A find whose ``-name`` pattern holds a slash, written with ``-path``.

``-name`` matches the last component of a path only, so `find . -name 'config/FILE.yaml'` can
never find anything (GNU find warns on stderr and exits 0). Measured at temperature 0.3 (issue 12,
the stored traces of two three-set runs): 28 of 692 executed steps were such finds, 12 of them
`find . -name 'config/FILE.yaml'`, each an empty result the run then doubted, reflected on or
answered from. When such a find printed nothing, ragix runs it with ``-path '*PATTERN'``
(``-ipath`` for ``-iname``), which matches the same name at any depth, and says so. This module
only rewrites the text: the result goes through the same lexer and validation as any command.
"""

from __future__ import annotations

import shlex
from typing import Optional, Tuple

from ragix_core.tools.lexer import first_pipe, first_stage

__all__ = ["name_with_slash_as_path"]

_AS_PATH = {"-name": "-path", "-iname": "-ipath"}


def name_with_slash_as_path(command: str) -> Optional[Tuple[str, str]]:
    """``(the same find with -path, what ragix says)`` when ``command``'s first stage is a find
    with a ``-name``/``-iname`` pattern that holds a slash; None otherwise."""
    stage = first_stage(command, "find")
    if stage is None:
        return None
    words = [str(w) for w in stage]
    changed = []
    for i in range(1, len(words) - 1):
        pattern = words[i + 1]
        if words[i] in _AS_PATH and "/" in pattern.rstrip("/"):
            bare = pattern[2:] if pattern.startswith("./") else pattern
            words[i], words[i + 1] = _AS_PATH[words[i]], bare if bare.startswith("*") else "*" + bare
            changed.append(pattern)
    if not changed:
        return None
    cut = first_pipe(command)
    rest = "" if cut is None else command[cut:].strip()
    shown = ", ".join(f"`{p}`" for p in changed)
    return (" ".join(shlex.quote(w) for w in words) + (f" {rest}" if rest else ""),
            f"-name matches a file's own name only, so {shown} (with a directory) matched nothing; "
            f"ragix ran the same find with -path")
