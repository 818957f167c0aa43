"""A size in disk blocks or rounded units where the goal asks for bytes.

`du` prints the disk space allocated to a file, in 1K blocks (a 12-byte file is 4 K), and `-h` (in `du`, `ls`)
rounds sizes to K, M, G. Asked for "the total size in bytes", small models write `du -sh` anyway: measured on
AgentBench OS at a6351b3, test-94 (`du -sh` over the .txt files; "12.0K", where 100 bytes was right, ended
`success`) and test-109 (`du -sh` per file; 20 for 101 bytes). test-84, which ran `du -b`, passed. Said at the
moment it happens, with the command that did it, it is execution feedback, like count_unit.py's lines.

The goal is read for one thing only: whether bytes are the unit it speaks of ("in bytes", "size (in bytes)",
"how many bytes", "total bytes", "byte-wise"); "kilobytes" or "the disk usage in 1K blocks" are not. The command side is a shape: a `du`
(direct or through `xargs`) that does not print bytes (no `-b`/`--bytes`, nor `--apparent-size` with a block
size of 1), or an `ls` with `-h`.
"""

from __future__ import annotations

import re
from typing import List, Optional

from ragix_core.tools.lexer import short_flags, split_pipeline, stage_program
from ragix_core.tools.refusal import Refusal

__all__ = ["asks_bytes", "size_not_in_bytes"]

# "bytes" as a word ("in bytes", "how many bytes", "total bytes"; not "kilobytes"), "byte count", "byte-wise".
_BYTES = re.compile(r"\bbytes\b|\bbyte[- ]?(?:count|size|wise)s?\b", re.IGNORECASE)
# xargs options that take a value in the next word
_XARGS_VALUED = ("-n", "-I", "-L", "-P", "-s", "-d", "-E", "-a")


def asks_bytes(goal: str) -> bool:
    """The goal asks for a quantity in bytes."""
    return bool(_BYTES.search(goal or ""))


def _program_and_args(stage: List[str]) -> "tuple[str, List[str]]":
    """The program a stage runs and its words; through `xargs`, the program xargs runs."""
    words = [str(w) for w in stage]
    if stage_program(words) != "xargs":
        return stage_program(words), words[1:]
    i = 1
    while i < len(words) and words[i].startswith("-"):
        i += 2 if words[i] in _XARGS_VALUED else 1
    inner = words[i:]
    return (stage_program(inner), inner[1:]) if inner else ("", [])


def _du_prints_bytes(args: List[str]) -> bool:
    flags = short_flags(args)
    if "h" in flags or "--human-readable" in args:
        return False
    if "b" in flags or "--bytes" in args:
        return True
    apparent = "--apparent-size" in args
    one = "-B1" in args or "--block-size=1" in args or any(a == "-B" and b == "1" for a, b in zip(args, args[1:]))
    return apparent and one


def size_not_in_bytes(goal: str, command: str) -> Optional[str]:
    """A sentence for the model's next request when ``goal`` asks for bytes and ``command`` prints sizes in
    disk blocks or rounded units; None otherwise."""
    if not asks_bytes(goal):
        return None
    try:
        stages = split_pipeline(command)
    except Refusal:
        return None
    for stage in stages:
        program, args = _program_and_args(stage)
        if program == "du" and not _du_prints_bytes(args):
            return ("`du` printed the disk space allocated to the files, in blocks (with -h rounded to K, M, G), "
                    "not the bytes they hold; the goal asks for bytes. `du -b` prints the bytes, as do `wc -c` "
                    "and `stat -c %s`.")
        if program == "ls" and "h" in short_flags(args):
            return ("`ls -h` printed sizes rounded to K, M, G; the goal asks for bytes. `ls -l` without -h prints "
                    "the bytes, as do `wc -c` and `stat -c %s`.")
    return None
