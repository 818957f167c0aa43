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
- at most MAX_MATCHES paths per pattern.

Every expanded word is then validated like any argument the model wrote.
"""

from __future__ import annotations

import glob
import os
from typing import List

from ragix_core.tools.lexer import GlobWord
from ragix_core.tools.policy import NOT_PROJECT_DIRS
from ragix_core.tools.refusal import Refusal

__all__ = ["expand_globs", "MAX_MATCHES"]

MAX_MATCHES = 200
# find's tests that take a pattern of their own
_FIND_PATTERN_TESTS = {"-name", "-iname", "-path", "-ipath", "-wholename", "-iwholename", "-lname", "-ilname",
                       "-regex", "-iregex"}


def _expand(word: GlobWord, root: str) -> List[str]:
    pattern = word.pattern
    if pattern.startswith("/") or ".." in pattern.split("/"):
        raise Refusal(f"glob {str(word)!r} must stay inside the project (no absolute path, no '..')")
    matches = sorted(glob.glob(pattern, root_dir=root))
    kept = [m for m in matches if m.split("/", 1)[0] not in NOT_PROJECT_DIRS]
    if len(kept) > MAX_MATCHES:
        raise Refusal(f"glob {str(word)!r} matches {len(kept)} paths (more than {MAX_MATCHES}); narrow it, "
                      "or use find ... | xargs")
    return [f"./{m}" if m.startswith("-") else m for m in kept]


def expand_globs(tool: str, words: List[str], root: str) -> List[str]:
    """``words`` with each GlobWord replaced by its matches (or its literal text when none)."""
    out: List[str] = []
    for index, word in enumerate(words):
        if not isinstance(word, GlobWord):
            out.append(word)
            continue
        previous = words[index - 1] if index else ""
        if index == 0 or (os.path.basename(tool) == "find" and previous in _FIND_PATTERN_TESTS):
            out.append(str(word))  # a tool name is never globbed; find's patterns are find's
            continue
        out.extend(_expand(word, root) or [str(word)])
    return out
