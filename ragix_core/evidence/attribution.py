"""Lines a grep printed without their file's name, shown with it.

GNU grep names the file on each line only when it searches several; given one file (even
with ``-r``) it prints bare lines. Measured (fixme-comments at fc92558): `grep -rn FIXME
src/inventory/api.py` printed `15:    # FIXME: return 404 ...`, and the writer answered without
naming api.py — the file was only in the command line above the output. The writer's view of
such an output gets the file's name on each line, as grep prints it for several files; the
command and its real output stay in the trace.

Only a one-stage grep whose one operand is a plain word: a pipeline's later stages read
grep's lines (`| cut -d: -f1` would change meaning), a glob may name several files, and the
options that print no lines of text (-l, -L, -c, -q), or that already decide about names
(-h, -H), are left as they are. -o is left too: its matches are fragments, not lines.
"""

from __future__ import annotations

import os
from typing import List, Optional

from ragix_core.tools.lexer import GlobWord, split_pipeline
from ragix_core.tools.refusal import Refusal
from ragix_core.tools.specs import SPECS

from .path_hints import project_path

__all__ = ["one_file_searched", "attributed_lines", "ATTRIBUTED"]

ATTRIBUTED = "grep searched one file and printed no file names: each line is shown with the file's name"

# Short options after which nothing else prints file lines as text, or names are already decided.
_SKIP_FLAGS = set("lLcqhHoZ")
_SKIP_LONG = ("--files-with-matches", "--files-without-match", "--count", "--quiet", "--silent",
              "--no-filename", "--with-filename", "--only-matching", "--null")
# The options that take a value are the ones grep's tool spec admits with one (any other is refused
# before it runs, so this reader never sees it).
_VALUED = set(SPECS["grep"].short_value)
_VALUED_LONG = {f"--{name}" for name in SPECS["grep"].long_value}


def one_file_searched(command: str) -> Optional[str]:
    """The one file operand of a one-stage grep that prints lines without file names; else None."""
    try:
        stages = split_pipeline(command)
    except Refusal:
        return None
    if len(stages) != 1 or not stages[0] or os.path.basename(str(stages[0][0])) != "grep":
        return None
    words = stages[0][1:]
    operands: List[str] = []
    pattern_given = False  # -e gives the pattern: every plain word is then a file
    i = 0
    while i < len(words):
        word = words[i]
        text = str(word)
        i += 1
        if text == "--":
            operands.extend(str(w) for w in words[i:])
            if any(isinstance(w, GlobWord) for w in words[i:]):
                return None
            break
        if text.startswith("--"):
            name = text.split("=", 1)[0]
            if name in _SKIP_LONG:
                return None
            if name == "--regexp":
                pattern_given = True
            if name in _VALUED_LONG and "=" not in text:
                i += 1
            continue
        if text.startswith("-") and len(text) > 1:
            for j, flag in enumerate(text[1:]):
                if flag in _SKIP_FLAGS:
                    return None
                if flag in _VALUED:
                    pattern_given = pattern_given or flag == "e"
                    if j == len(text) - 2:  # the value is the next word
                        i += 1
                    break
            continue
        if isinstance(word, GlobWord):
            return None
        operands.append(text)
    files = operands if pattern_given else operands[1:]
    return files[0] if len(files) == 1 else None


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
