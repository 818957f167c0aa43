"""Lines a grep printed without their file's name, shown with it.

GNU grep names the file on each line only when it searches several; given one file (even
with ``-r``) it prints bare lines. Measured on the regression set at fc92558: `grep -rn FIXME
src/PKG/FILE.py` printed `15:    # FIXME: ...`, and the writer answered without naming FILE.py
— the file was only in the command line above the output. The writer's view of
such an output gets the file's name on each line, as grep prints it for several files; the
command and its real output stay in the trace.

Only a one-stage grep whose one operand is a plain word: a pipeline's later stages read
grep's lines (`| cut -d: -f1` would change meaning), a glob may name several files, and the
options that print no lines of text (-l, -L, -c, -q), or that already decide about names
(-h, -H), are left as they are. -o is left too: its matches are fragments, not lines.
"""

from __future__ import annotations

import os
from typing import Optional

from ragix_core.tools.grep_words import read_grep
from ragix_core.tools.lexer import GlobWord, split_pipeline
from ragix_core.tools.refusal import Refusal

from .path_hints import project_path

__all__ = ["one_file_searched", "attributed_lines", "ATTRIBUTED"]

ATTRIBUTED = "grep searched one file and printed no file names: each line is shown with the file's name"

# Short options after which nothing else prints file lines as text, or names are already decided.
_SKIP_FLAGS = set("lLcqhHoZ")
_SKIP_LONG = ("--files-with-matches", "--files-without-match", "--count", "--quiet", "--silent",
              "--no-filename", "--with-filename", "--only-matching", "--null")


def one_file_searched(command: str) -> Optional[str]:
    """The one file operand of a one-stage grep that prints lines without file names; else None."""
    try:
        stages = split_pipeline(command)
    except Refusal:
        return None
    if len(stages) != 1 or not stages[0] or os.path.basename(str(stages[0][0])) != "grep":
        return None
    g = read_grep(stages[0][1:])
    if set(g.flags) & _SKIP_FLAGS or set(g.long_names) & set(_SKIP_LONG):
        return None
    if any(isinstance(w, GlobWord) for w in [*g.pattern, *g.operands]):
        return None  # a glob may name several files
    return str(g.operands[0]) if len(g.operands) == 1 else None


def attributed_lines(path: str, output: str) -> Optional[str]:
    """``output`` with ``path:`` before each line (grep's context separators `--` left alone), or
    None when the lines already carry it (a directory searched with -r names each file)."""
    lines = output.splitlines()
    text = [line for line in lines if line.strip() and line != "--"]
    base = project_path(path).rstrip("/")
    if base in ("", "."):
        named = any(line.startswith("./") for line in text)
    else:
        named = any(project_path(line).startswith((base + "/", base + ":")) for line in text)
    if not text or named:
        return None
    return "\n".join(line if line == "--" or not line.strip() else f"{path}:{line}" for line in lines)
