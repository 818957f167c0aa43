"""A grep whose pattern is a file's text by substitution, written as the ``-f FILE`` it stands for.

Asked whether one file's lines are a subset of another's, the model writes
``grep -F -x -v "$(cat A)" B`` (NL2Bash fs_1-114 at 3a39c24 and b0068fe: every draw, refused, while the
plain call happened to write ``-f``). ragix runs no shell, so ``$(...)`` is refused; but a pattern
holding several lines is, to grep, one pattern per line, which is what ``-f A`` reads: bash would have
run the command with that meaning. Only that shape is rewritten (grep, the substitution ``cat FILE`` as
the whole pattern word, bare or in double quotes, no pattern given by an option); the result goes
through the same lexer and validation as any command, and the caller says what it ran.

One difference is kept out by looking at the file first: an empty file gives bash the empty pattern
(every line matches) and ``-f`` no pattern (none does), so an empty or missing file is not rewritten.
"""

from __future__ import annotations

import os
import re
import shlex
from pathlib import Path
from typing import Optional, Tuple

from ragix_core.tools.lexer import first_pipe

__all__ = ["substitution_as_pattern_file"]

_GREPS = ("grep", "egrep", "fgrep")
# The pattern word: "$(cat FILE)" or $(cat FILE), FILE one plain word, a whole word of the first stage.
_WORD = re.compile(r'''(?<=\s)(?P<q>"?)\$\(\s*cat\s+(?P<file>[\w./+@,-]+)\s*\)(?P=q)(?=\s|$)''')
# Options before the pattern that say nothing of it and take no value: the pattern is then the next word.
_FLAGS = re.compile(r"^-[abchHiIlLnoqrRsuUvwxzEFGPT]+$|^--[a-z-]+$")
_PATTERN_LONG = ("--regexp", "--file")


def substitution_as_pattern_file(command: str, root: Path) -> Optional[Tuple[str, str]]:
    """``grep OPTS "$(cat FILE)" REST`` as ``(grep OPTS -f FILE REST, note)`` when FILE is a non-empty file
    under ``root``; None for any other shape. Everything but the pattern word is kept as written."""
    command = (command or "").strip()
    if command.count("$(") != 1 or "`" in command:
        return None
    cut = first_pipe(command)
    head, tail = (command, "") if cut is None else (command[:cut], command[cut:])
    match = _WORD.search(head)
    before = head[:match.start()].split() if match else []
    if not before or os.path.basename(before[0]) not in _GREPS:
        return None
    if any(not _FLAGS.match(w) or w.startswith(_PATTERN_LONG) for w in before[1:]):
        return None  # a value option, a pattern given by -e/-f, or an operand before the pattern
    path = match.group("file")
    try:
        target = Path(root) / path
        if not target.is_file() or target.stat().st_size == 0:
            return None
    except OSError:
        return None
    rewritten = f"{head[:match.start()]}-f {shlex.quote(path)}{head[match.end():]}{tail}"
    note = (f"ragix runs no command substitution: the lines of {path} are grep's patterns, read with -f: "
            f"`{rewritten}`")
    return rewritten, note
