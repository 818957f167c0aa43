"""Recursive readers: keep ragix's state out of their view, and skip what is unsafe instead of refusing.

Two jobs, both done on the argv layer 1 already admitted:

- ragix's own state (.ragix: traces that quote the goal) is never part of a listing or a
  search. bubblewrap mounts an empty tmpfs over it, but layer 1 alone and Landlock do not,
  so grep -r gets --exclude-dir, find a -prune, ls --ignore and du --exclude — only when
  the project has a .ragix, so ordinary commands run exactly as written.
- a tree that holds a multiply-linked file (whose other name may be outside the root) is
  not refused whole: grep runs on the tree's safe regular files, named one by one (grep
  applies --include/--exclude to named files too; --exclude-dir is applied by the walk),
  and stderr says what was skipped.
"""

from __future__ import annotations

import fnmatch
import os
from typing import Callable, List, Optional

from ragix_core.tools.policy import RAGIX_STATE_DIR

__all__ = ["hide_state", "dir_matcher", "grep_file_args"]

# find's global options: they must come before the first test, or find warns on stderr.
_FIND_GLOBAL_VALUE = {"-maxdepth", "-mindepth"}
_FIND_GLOBAL = {"-depth", "-d", "-xdev", "-mount", "-noleaf", "-ignore_readdir_race", "-noignore_readdir_race"}
# Actions that switch off find's implicit -print (-prune and -quit do not).
_FIND_ACTIONS = {"-print", "-print0", "-printf", "-ls", "-fprint", "-fprint0", "-fprintf", "-fls", "-exec",
                 "-execdir", "-ok", "-okdir", "-delete"}


def dir_matcher(patterns: List[str]) -> Optional[Callable[[str], bool]]:
    """grep --exclude-dir=GLOB as a predicate on a directory's base name."""
    if not patterns:
        return None
    return lambda name: any(fnmatch.fnmatchcase(name, p) for p in patterns)


def hide_state(tool: str, args: List[str], root: str, recursive: bool) -> List[str]:
    """``args`` with the option that hides .ragix from ``tool``, when the project has one."""
    if not os.path.isdir(os.path.join(root, RAGIX_STATE_DIR)):
        return args
    if tool == "grep" and recursive:
        return [f"--exclude-dir={RAGIX_STATE_DIR}"] + args
    if tool == "ls":
        return [f"--ignore={RAGIX_STATE_DIR}"] + args
    if tool in ("du", "tar"):
        return [f"--exclude={RAGIX_STATE_DIR}"] + args
    if tool == "find":
        return _find_hidden(args)
    return args


def _is_expression_start(word: str) -> bool:
    return word.startswith("-") or word in ("(", ")", "!", ",")


def _find_hidden(args: List[str]) -> List[str]:
    i = 0
    head: List[str] = []
    while i < len(args) and args[i] == "-P":
        head.append(args[i])
        i += 1
    while i < len(args) and not _is_expression_start(args[i]):
        head.append(args[i])  # starting points
        i += 1
    expr, hoisted = [], []
    while i < len(args):
        word = args[i]
        if word in _FIND_GLOBAL_VALUE and i + 1 < len(args):
            hoisted += [word, args[i + 1]]
            i += 2
            continue
        if word in _FIND_GLOBAL:
            hoisted.append(word)
        else:
            expr.append(word)
        i += 1
    acts = any(w in _FIND_ACTIONS for w in expr)
    body = ["(", *expr, ")"] if expr else []
    if "-depth" in hoisted or "-d" in hoisted:
        # -prune does nothing under -depth: filter the state's paths out instead.
        hide = ["!", "-path", f"*/{RAGIX_STATE_DIR}", "!", "-path", f"*/{RAGIX_STATE_DIR}/*"]
        return head + hoisted + hide + body + ([] if acts else ["-print"])
    return head + hoisted + ["-name", RAGIX_STATE_DIR, "-prune", "-o"] + body + ([] if acts else ["-print"])


def grep_file_args(args: List[str], operands: List[int], seen: set) -> List[str]:
    """grep's own options and pattern, without its operands, for a run on named files.

    -H keeps the "file:line" form a recursive search prints (grep on one named file
    would drop the name) unless the model asked for -h."""
    fixed = [a for i, a in enumerate(args) if i not in set(operands)]
    if not seen & {"h", "no-filename", "H", "with-filename"}:
        fixed = ["-H"] + fixed
    return fixed
