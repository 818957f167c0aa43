"""Check a find command line: global options, starting points, expression.

find has its own grammar (predicates, not getopt options), so it gets its own
checker. The expression allowlist holds tests and stdout-only actions; every
action that runs a program, deletes, or writes a file is refused, and so is
following symlinks. Tests that name a reference file (-newer, -samefile) have
that file confined like any other path.
"""

from __future__ import annotations

import re
from typing import List

from ragix_core.tools.paths import PathGuard
from ragix_core.tools.refusal import Refusal
from ragix_core.tools.specs_base import NUM
from ragix_core.tools.specs_base import choice_value as _choice

__all__ = ["check_find"]

_DENIED = {
    "-exec": "runs a program",
    "-execdir": "runs a program",
    "-ok": "runs a program",
    "-okdir": "runs a program",
    "-delete": "deletes files",
    "-fprint": "writes a file",
    "-fprint0": "writes a file",
    "-fprintf": "writes a file",
    "-fls": "writes a file",
    "-L": "follows symlinks out of the project",
    "-H": "follows symlinks",
    "-follow": "follows symlinks out of the project",
    "-files0-from": "reads file names from a file (exfiltration through errors)",
    "-D": "debug output",
    "-O": "optimiser control",
    "-xtype": "follows symlinks",
}

_NO_ARG = set(
    "-print -print0 -prune -quit -empty -true -false -depth -xdev -mount -noleaf -readable -writable "
    "-executable -nouser -nogroup -ls -daystart -ignore_readdir_race -noignore_readdir_race -not -a -and "
    "-o -or ! , ( )".split()
)
_FREE_ARG = set("-name -iname -path -ipath -wholename -iwholename -regex -iregex -lname -ilname -printf -user -group -perm".split())
_NUM_ARG = set("-maxdepth -mindepth -mtime -mmin -atime -amin -ctime -cmin -size -links -inum -uid -gid -used".split())
_PATH_ARG = {"-newer", "-anewer", "-cnewer", "-samefile"}
_TYPE = re.compile(r"[bcdpflsD](,[bcdpflsD])*")
_REGEXTYPE = _choice("findutils-default", "ed", "emacs", "gnu-awk", "grep", "posix-awk", "awk", "posix-basic",
                     "posix-egrep", "egrep", "posix-extended", "posix-minimal-basic", "sed")


def _is_expression_start(word: str) -> bool:
    return word.startswith("-") or word in ("(", ")", "!", ",")


def check_find(args: List[str], guard: PathGuard) -> None:
    i, n = 0, len(args)
    while i < n and args[i] in ("-P",):  # -P (never follow symlinks) is the default
        i += 1
    if i < n and args[i] in _DENIED:
        raise Refusal(f"find: {args[i]} is not allowed ({_DENIED[args[i]]})")
    while i < n and not _is_expression_start(args[i]):
        guard.read(args[i])  # starting point
        i += 1
    depth = 0
    while i < n:
        word = args[i]
        value = args[i + 1] if i + 1 < n else None
        if word in _DENIED:
            raise Refusal(f"find: {word} is not allowed ({_DENIED[word]})")
        if word in _NO_ARG:
            depth += {"(": 1, ")": -1}.get(word, 0)
            if depth < 0:
                raise Refusal("find: unbalanced ')'")
            i += 1
            continue
        if word in _FREE_ARG or word in _NUM_ARG or word in _PATH_ARG or word in ("-type", "-regextype") or _newer_xy(word):
            if value is None:
                raise Refusal(f"find: {word} needs a value")
            if word in _NUM_ARG:
                NUM(value, word)
            elif word in _PATH_ARG:
                guard.read(value, must_exist=True)
            elif word == "-type" and not _TYPE.fullmatch(value):
                raise Refusal(f"find: -type expects one of b c d p f l s D, got {value!r}")
            elif word == "-regextype":
                _REGEXTYPE(value, word)
            elif _newer_xy(word) and not word.endswith("t"):
                guard.read(value, must_exist=True)  # -newerXY with Y != t names a reference file
            i += 2
            continue
        if not word.startswith("-"):
            raise Refusal(f"find: unexpected operand {word!r} in the expression (paths go before it)")
        raise Refusal(f"find: {word} is not allowed")
    if depth != 0:
        raise Refusal("find: unbalanced '('")


def _newer_xy(word: str) -> bool:
    return re.fullmatch(r"-newer[aBcm][aBcmt]", word) is not None
