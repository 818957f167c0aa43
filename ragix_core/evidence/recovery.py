"""What a person would look at before retrying a failed command.

Self-repair is only as good as its feedback (Olausson et al., arXiv 2306.09896), and
reflection without new evidence hurts (Huang et al., arXiv 2310.01798). So REFLECT is
given facts, each gathered without a model and each named in ``used``:
- ``exit_code`` and ``stderr`` of the failed command (ragix's close-name hints come first
  in it when a path was missing: ``close_names``);
- ``nearest_directory``: for a missing path, the listing of its nearest existing parent;
- ``project_search``: which files mention the names the goal gives (quoted text, file
  names, identifiers), searched with the read-only tools;
- ``loosened_search``: when searches came back empty, each word they looked for (then the
  goal's own keywords), searched alone and in any case, with the lines it is on (measured:
  ``grep 'from mod'`` found nothing where the code says ``from .mod import load``;
  ``grep 'quantity: 0'`` where the JSON says ``"quantity": 0``; ``grep maintainer`` where the
  guide says ``Maintainer:``). A pattern of several words is first searched with its words in
  order and anything between them (``from.*mod``). The searches of the plan's own words
  that found lines are also returned (``found_by``) for the replan to run as evidence the
  writer sees; a word an in-order search already found is not run again alone.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, List, Optional, Sequence

from ragix_core.core.text import bounded
from ragix_core.tools.grep_words import read_grep
from ragix_core.tools.lexer import split_pipeline
from ragix_core.tools.policy import NOT_PROJECT_DIRS
from ragix_core.tools.refusal import Refusal

from .excerpt import goal_keywords
from .path_hints import FILE_LIKE, missing_paths

__all__ = ["RecoveryEvidence", "gather", "goal_names", "searched_words", "ordered_patterns"]

MAX_NAMES = 3
MAX_LINES = 5  # per word of a loosened search
MAX_LISTING = 30
MAX_LOOSENED = 4  # words searched alone after empty searches
MAX_STEP_LINES = 30  # a loosened search with more lines than this is shown to REFLECT, not run again as a step
_QUOTED = re.compile(r"[\"'`]([^\"'`]{2,60})[\"'`]")
_IDENT = re.compile(r"\b([A-Za-z]+_[A-Za-z0-9_]+|[a-z]+[A-Z][A-Za-z0-9]*|[A-Z][a-z]+[A-Z][A-Za-z0-9]*|[A-Z]{3,})\b")


@dataclass
class RecoveryEvidence:
    text: str = ""
    used: List[str] = field(default_factory=list)
    # The loosened searches that found lines: the replan runs them as evidence of its own, since a
    # 1.5B planner shown their lines replanned the empty search (0 of 11 reflections recovered).
    found_by: List[str] = field(default_factory=list)


def goal_names(goal: str) -> List[str]:
    """The specific names a goal gives: quoted text, file names, code identifiers, ALLCAPS words."""
    names: List[str] = []
    for found in (_QUOTED.findall(goal), [m.group(0) for m in FILE_LIKE.finditer(goal)], _IDENT.findall(goal)):
        for name in found:
            name = name.strip()
            if name and name not in names:
                names.append(name)
    return names[:MAX_NAMES]


_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]{2,}")
_ANY_WORD = re.compile(r"[A-Za-z0-9_]+")
# Words of a search pattern too common to say what it looked for.
_COMMON = {"from", "import", "def", "class", "the", "and", "for", "with", "return", "self", "none", "true", "false",
           "not", "are", "this", "that"}
_GREPS = {"grep", "egrep", "fgrep"}
# Goal words that name what code is made of, not what the user looks for: on most lines of a project.
_GENERIC = {"module", "import", "item", "data", "function", "class", "code", "python", "value", "thing", "part",
            "content", "text", "word", "comment"}
_OPTION_WITH_VALUE = {"-A", "-B", "-C", "-m", "-d", "-D", "--include", "--exclude", "--exclude-dir"}


def _grep_patterns(argv: Sequence[str]) -> List[str]:
    g = read_grep(argv)
    if "f" in g.flags or "--file" in g.long_names:
        return []  # the patterns are a file's lines: none is written on the command line
    patterns, rest, i = [], [], 0
    while i < len(argv):
        arg = argv[i]
        if arg in ("-e", "--regexp"):
            patterns.extend(argv[i + 1:i + 2])
            i += 2
            continue
        if arg in _OPTION_WITH_VALUE:
            i += 2
            continue
        if not arg.startswith("-"):
            rest.append(arg)
        i += 1
    return patterns or rest[:1]


def _patterns_searched(commands: Sequence[str]) -> List[str]:
    """The patterns the grep stages of ``commands`` searched for, in order."""
    patterns: List[str] = []
    for command in commands:
        try:
            stages = split_pipeline(command)  # ragix's own lexer: a '|' inside a quoted pattern stays in it
        except Refusal:
            continue
        for stage in stages:
            argv = [str(word) for word in stage]
            if argv and os.path.basename(argv[0]) in _GREPS:
                patterns.extend(_grep_patterns(argv[1:]))
    return patterns


def searched_words(commands: Sequence[str]) -> List[str]:
    """The words the grep stages of ``commands`` looked for, longest (most specific) first."""
    words: List[str] = []
    for pattern in _patterns_searched(commands):
        for word in _WORD.findall(pattern):
            if word.lower() not in _COMMON and word not in words:
                words.append(word)
    return sorted(words, key=len, reverse=True)[:MAX_NAMES]


def ordered_patterns(commands: Sequence[str]) -> List[str]:
    """For each grep pattern of ``commands`` with two words or more, the words in order with anything
    between them (``from.*mod`` for 'from mod'): the search loosened without losing what the words
    said together. Measured on the regression set (targeted run of c8031d9): 'mod' alone also found
    the docstrings of mod.py and __init__.py, and the writer listed them."""
    out: List[str] = []
    for pattern in _patterns_searched(commands):
        words = _ANY_WORD.findall(pattern)
        joined = ".*".join(words)
        if len(words) >= 2 and joined not in out:
            out.append(joined)
    return out[:MAX_NAMES]


def _goal_words(goal: str) -> List[str]:
    """The goal's keywords that say what the user looks for (not what code is made of), longest first."""
    return [w for w in sorted(goal_keywords(goal), key=lambda w: (-len(w), w))
            if w not in _GENERIC and w.rstrip("s") not in _GENERIC]


def _with_goal_words(goal: str, searched: List[str]) -> List[str]:
    known = {w.lower() for w in searched}
    extra = [w for w in _goal_words(goal) if w not in known]
    return searched + extra[:max(0, MAX_LOOSENED - len(searched))]


def _whole(alternatives: str) -> str:
    """An extended regex matching ``alternatives`` as whole words, where an underscore also ends a
    word: grep's -w takes `_` for a letter, so `version` missed `__version__ = "1.2.3"` (measured
    on the regression set at 789e1a5, whose writer then invented "0.1.0"); letters and digits still
    bound a word ("port" is in every "import" line)."""
    return f"(^|[^[:alnum:]])({alternatives})([^[:alnum:]]|$)"


def _loosened_command(word: str, whole_word: bool) -> str:
    # A searched word may be part of a name (billing in billing_api); a goal's word is matched whole.
    if whole_word:
        return f"grep -rniE -e {_quote(_whole(re.escape(word)))} ."
    return f"grep -rniF -e {_quote(word)} ."


def _nearest_listing(missing: str, root: Path) -> Optional[str]:
    target = (root / missing).resolve() if not os.path.isabs(missing) else Path(missing)
    parent = target.parent
    while True:
        try:
            parent.relative_to(root)
        except ValueError:
            return None
        if parent.is_dir():
            break
        parent = parent.parent
    entries = sorted(e.name + ("/" if e.is_dir() else "") for e in parent.iterdir()
                     if e.name not in NOT_PROJECT_DIRS)[:MAX_LISTING]
    rel = os.path.relpath(parent, root)
    return f"{rel}/: " + (", ".join(entries) or "(empty)")


def gather(goal: str, result: Any, root: Path, search: Optional[Callable[[str], Any]] = None,
           empty_commands: Sequence[str] = ()) -> RecoveryEvidence:
    """Evidence about a failed step's ``result`` (a ToolResult or None) and about ``empty_commands``
    (searches that found nothing); ``search(command)`` runs a read-only command (REFLECT's confined
    shell) for the project searches."""
    ev = RecoveryEvidence()
    parts: List[str] = []
    if result is not None:
        parts.append(f"exit code: {result.returncode}" + (" (refused by ragix's policy)" if result.refused else ""))
        ev.used.append("exit_code")
        err = (result.stderr or result.error or "").strip()
        if err:
            parts.append("stderr:\n" + bounded(err, 800))
            ev.used.append("stderr")
            if "[ragix]" in err:
                ev.used.append("close_names")
        listings = [x for x in (_nearest_listing(p, root) for p in missing_paths(err)[:2]) if x]
        if listings:
            parts.append("nearest existing directory:\n" + "\n".join(listings))
            ev.used.append("nearest_directory")
    if search is not None and empty_commands:
        found = []
        covered = set()  # words whose in-order search found lines: not run again alone for the writer
        for ordered in ordered_patterns(empty_commands):
            command = f"grep -rniE -e {_quote(ordered)} ."
            lines = _lines(search(command))
            if 0 < len(lines) <= MAX_STEP_LINES:
                ev.found_by.append(command)
                covered.update(w.lower() for w in ordered.split(".*"))
            found.append(_shown(f"{ordered.replace('.*', ' ... ')!r} (the words in this order)", lines))
        searched = searched_words(empty_commands)
        for word in _with_goal_words(goal, searched):
            command = _loosened_command(word, whole_word=word not in searched)
            lines = _lines(search(command))
            # Only what the plan itself looked for is run again for the writer: a goal's keyword
            # brings in lines about anything (measured on the regression set: a writer answered
            # from README's "test fixture" line), and a word on every other line is no evidence either.
            if word in searched and 0 < len(lines) <= MAX_STEP_LINES and word.lower() not in covered:
                ev.found_by.append(command)
            found.append(_shown(repr(word), lines))
        if found:
            parts.append("the searches found nothing; their words searched in order, then each alone, in any case:\n"
                         + "\n".join(found))
            ev.used.append("loosened_search")
    if search is not None:
        hits = []
        for name in goal_names(goal):
            files = _lines(search(f"grep -rlF -e {_quote(name)} ."))[:8]
            hits.append(f"{name!r}: " + (", ".join(files) if files else "in no file"))
        if hits:
            parts.append("files mentioning the goal's names:\n" + "\n".join(hits))
            ev.used.append("project_search")
    ev.text = "\n\n".join(parts)
    return ev


def _lines(result: Any) -> List[str]:
    """The non-blank lines a search printed."""
    return [line for line in (getattr(result, "stdout", "") or "").splitlines() if line.strip()]


def _shown(label: str, lines: List[str]) -> str:
    """A loosened search for REFLECT: its label and its first lines, or "in no file"."""
    return f"{label}: " + ("\n  ".join([""] + [bounded(x, 200) for x in lines[:MAX_LINES]]) if lines else "in no file")


def _quote(text: str) -> str:
    return "'" + text.replace("'", "'\\''") + "'"
