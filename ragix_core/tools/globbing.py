"""Expand the model's `*` and `?` globs inside the project root, as bash would, but confined.

Models write `wc -l docs/*.md` all the time; refusing it cost a reflection
round per occurrence in measured runs. Expansion follows bash's defaults where
they are safe: matches are sorted, names starting with '.' only match a
pattern component that starts with '.', and a pattern that matches nothing
stays as its literal text (the tool then reports the missing file). Where bash
is a trap, ragix is stricter or friendlier:

- a pattern must stay inside the project: absolute patterns and '..' are refused;
- a match that starts with '-' gets './' in front, so a file name never becomes an option;
- ragix's own state (.ragix) and .git never match;
- the pattern right after find's -name/-path/... is find's own pattern, not expanded
  (bash would turn `find . -name *.md` into `find . -name README.md`);
- at most MAX_MATCHES paths per pattern;
- `**` as a whole path component matches zero or more directories, as in bash with `globstar`
  set: models write `grep -rn TODO src/**/*.py` meaning every level (measured, issue 12: 2 of 3
  runs of one regression question with plans written as text failed on it, as bash's default reads it as `*`).
  The walk follows no links, skips hidden directories like bash, and stops past MAX_WALKED entries.

Every expanded word is then validated like any argument the model wrote.
"""

from __future__ import annotations

import glob
import os
from typing import Callable, Dict, List, Optional

from ragix_core.tools.lexer import GlobWord
from ragix_core.tools.policy import NOT_PROJECT_DIRS
from ragix_core.tools.refusal import Refusal

__all__ = ["expand_globs", "MAX_MATCHES"]

MAX_MATCHES = 200
MAX_WALKED = 20000  # directory entries a `**` may walk
# find's tests that take a pattern of their own
_FIND_PATTERN_TESTS = {"-name", "-iname", "-path", "-ipath", "-wholename", "-iwholename", "-lname", "-ilname",
                       "-regex", "-iregex"}


Check = Callable[[str], Optional[str]]  # match -> None (usable) or the kind of path it is (skipped)
THROUGH_OUTSIDE = "glob match through a directory outside the project"


def _inside(real: str, root: str) -> bool:
    return real == root or real.startswith(root.rstrip("/") + "/")


def _globstar(word: GlobWord, pattern: str, root: str) -> Optional[List[str]]:
    """The matches of ``pattern`` with ``**`` as zero or more directories; None when it has no
    ``**`` component, or one this reading does not cover (a glob before it, a second one, nothing
    after it), which are matched like bash's default (``**`` as ``*``)."""
    parts = pattern.split("/")
    if "**" not in parts:
        return None
    at = parts.index("**")
    base, tail = "/".join(parts[:at]), "/".join(parts[at + 1:])
    if not tail or "**" in parts[at + 1:] or glob.has_magic(base):
        return None
    found, walked = [], 0
    for directory, subdirs, files in os.walk(os.path.join(root, base) if base else root, followlinks=False):
        relative = os.path.relpath(directory, root)
        subdirs[:] = sorted(d for d in subdirs if not d.startswith(".") and (relative != "." or d not in NOT_PROJECT_DIRS))
        walked += len(subdirs) + len(files)
        if walked > MAX_WALKED:
            raise Refusal(f"glob {str(word)!r} walks more than {MAX_WALKED} entries; narrow it, or use find ... | xargs")
        found += [os.path.normpath(os.path.join(relative, m)) for m in glob.glob(tail, root_dir=directory)]
    return found


def _expand(word: GlobWord, root: str, check: Optional[Check], skipped: Dict[str, List[str]]) -> List[str]:
    pattern = word.pattern
    if pattern.startswith("/") or ".." in pattern.split("/"):
        raise Refusal(f"glob {str(word)!r} must stay inside the project (no absolute path, no '..')")
    root = os.path.realpath(root)
    deep = _globstar(word, pattern, root)
    matches = sorted(glob.glob(pattern, root_dir=root) if deep is None else deep)
    kept = [m for m in matches if m.split("/", 1)[0] not in NOT_PROJECT_DIRS]
    # glob follows symlinked directories; a match reached through one that leaves the root is
    # dropped unnamed, so neither a refusal nor a note lists a file outside the project.
    inside = [m for m in kept if _inside(os.path.realpath(os.path.join(root, os.path.dirname(m))), root)]
    if len(inside) < len(kept):
        if not inside:
            raise Refusal(f"glob {str(word)!r} goes through a directory outside the project")
        skipped.setdefault(THROUGH_OUTSIDE, []).extend([str(word)] * (len(kept) - len(inside)))
    kept = inside
    if len(kept) > MAX_MATCHES:
        raise Refusal(f"glob {str(word)!r} matches {len(kept)} paths (more than {MAX_MATCHES}); narrow it, "
                      "or use find ... | xargs")
    if check is not None and kept:
        usable = []
        for m in kept:
            why = check(m)
            if why is None:
                usable.append(m)
            else:
                skipped.setdefault(why, []).append(m)
        if not usable:
            raise Refusal(f"glob {str(word)!r} matches only paths that cannot be read safely: {', '.join(kept[:10])} "
                          "(links out of the project, hard links, FIFOs or devices)")
        kept = usable
    return [f"./{m}" if m.startswith("-") else m for m in kept]


def expand_globs(tool: str, words: List[str], root: str, check: Optional[Check] = None,
                 skipped: Optional[Dict[str, List[str]]] = None) -> List[str]:
    """``words`` with each GlobWord replaced by its matches (or its literal text when none).

    With ``check``, a match it rejects is left out and recorded in ``skipped`` (kind -> names):
    `grep -n x *` searches the safe files instead of refusing because one match is a FIFO."""
    skipped = {} if skipped is None else skipped
    out: List[str] = []
    for index, word in enumerate(words):
        if not isinstance(word, GlobWord):
            out.append(word)
            continue
        previous = words[index - 1] if index else ""
        if index == 0 or (os.path.basename(tool) == "find" and previous in _FIND_PATTERN_TESTS):
            out.append(str(word))  # a tool name is never globbed; find's patterns are find's
            continue
        out.extend(_expand(word, root, check, skipped) or [str(word)])
    return out
