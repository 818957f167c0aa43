"""Questions about the project's files that one fixed command answers, read off the goal.

A person asked "which markdown file has the most lines?" does not plan: they run
`find . -type f -name '*.md' | xargs wc -l | sort -n` and read the table. The 1.5B planner
gets these shapes right most of the time, but each plan costs ~1,100 tokens and ~15 s on
2 cores, and a sampled plan sometimes reduces away the file names or ranks the wrong end.
So ragix writes the command itself for five shapes, each recognised from words a user of
any project would write, and the model still writes the answer from the output:

- files of one type ranked by line count (a superlative and "lines" or "line count");
- how many files of one type there are;
- a list of the files of one type (nothing else asked of them);
- the files containing a quoted literal;
- the marker comments (TODO, FIXME, XXX, HACK) written in capitals, in the files of a type
  when the goal names one.

Anything else, a goal that names two file types, or one that names a place ("in docs") the
whole-project commands would ignore, gets None: the model plans. Whether the
goal asks one thing only is the caller's to check (``without_count_tail`` helps: "which file
has the fewest lines, and how many?" asks one thing of one table).
"""

from __future__ import annotations

import re
import shlex
from typing import Optional, Tuple

from .reduction import asked_extreme

__all__ = ["file_question", "type_glob", "without_count_tail"]

# A file type as users name it, and the glob of its files. Only names that mean one type:
# "text" or "config" files could be many.
_TYPE_WORDS = {
    "markdown": "*.md", "python": "*.py", "yaml": "*.yaml", "json": "*.json", "shell": "*.sh",
    "javascript": "*.js", "typescript": "*.ts", "html": "*.html", "css": "*.css", "toml": "*.toml",
    "csv": "*.csv", "rust": "*.rs", "java": "*.java", "go": "*.go", "ruby": "*.rb", "php": "*.php",
}
_TYPE = re.compile(r"\b(" + "|".join(_TYPE_WORDS) + r")\s+(?:\(\s*\*?\.[a-z0-9]{1,6}\s*\)\s+)?files?\b", re.IGNORECASE)
_EXTENSION = re.compile(r"(?<![\w/])\*?\.([a-z0-9]{1,6})\s+files?\b", re.IGNORECASE)
_LINES = re.compile(r"\b(lines?|line counts?)\b", re.IGNORECASE)
_HOW_MANY_FILES = re.compile(r"\b(how many|number of|count (?:the |all )?)", re.IGNORECASE)
_LIST = re.compile(r"^\s*(?:please\s+)?(?:list|show|find|name)\s+(?:me\s+)?(?:all\s+|every\s+|the\s+)*", re.IGNORECASE)
# What may follow "<type> files" in a plain request for the list: where to look, nothing else.
_ONLY_WHERE = re.compile(r"^(?:(?:,?\s*(?:that are\s+)?(?:in|of|under|within|across)\s+(?:all\s+)?(?:this|the|my|our)?\s*"
                         r"(?:repo|repository|project|codebase|directory|directories|tree|folders?))\b|\s)*[.?!]?\s*$",
                         re.IGNORECASE)
_CONTAINING = re.compile(r"^\s*(?:please\s+)?(?:list|show|find|name|which|what)\b.*?\bfiles?\s+(?:that\s+|which\s+)?"
                         r"(?:contain|contains|containing|mention|mentions|mentioning)\s+"
                         r"(['\"`])(?P<literal>[^'\"`\n]{2,120})\1(?!\w)(?!\s+(?:extensions?|files?|suffix)\b)",
                         re.IGNORECASE)
_MARKER = re.compile(r"\b(TODO|FIXME|XXX|HACK)s?\b")  # written in capitals, as in code
_COMMENTS = re.compile(r"\bcomments?\b|\bnotes?\b", re.IGNORECASE)
# "in docs", "under src/": a place the fixed commands (which search the whole project) would ignore.
_PLACE = re.compile(r"\b(?:in|under|within|inside|from)\s+(?:the\s+|this\s+|all\s+|my\s+|our\s+|every\s+|its\s+)*"
                    r"([\w./-]+)", re.IGNORECASE)
_WHOLE_PROJECT = {"repo", "repository", "project", "codebase", "code", "tree", "directories", "folders", "files",
                  "file", "sources", "source"} | set(_TYPE_WORDS)
_COUNT_TAIL = re.compile(r",?\s+and\s+how\s+many(?:\s+lines)?(?:\s+(?:it|does it)\s+has)?\s*\?\s*$", re.IGNORECASE)


def without_count_tail(goal: str) -> str:
    """``goal`` without a closing "and how many?", which asks the count of the same ranking."""
    return _COUNT_TAIL.sub("?", goal or "")


def type_glob(goal: str) -> Optional[str]:
    """The glob of the one file type ``goal`` names ("markdown files", "Python (.py) files", ".md
    files"); None when it names none, or two different ones."""
    globs = {_TYPE_WORDS[m.group(1).lower()] for m in _TYPE.finditer(goal or "")}
    globs |= {f"*.{m.group(1).lower()}" for m in _EXTENSION.finditer(goal or "")}
    return globs.pop() if len(globs) == 1 else None


def _elsewhere(goal: str) -> bool:
    """The goal names a place other than the whole project ("in docs", "under src/")."""
    return any(m.group(1).lower().rstrip(".") not in _WHOLE_PROJECT for m in _PLACE.finditer(goal))


def file_question(goal: str) -> Optional[Tuple[str, str]]:
    """``(what ragix does, the command)`` for a goal of one of the module's shapes, else None."""
    goal = goal or ""
    if _elsewhere(goal):
        return None
    glob = type_glob(goal)
    find = f"find . -type f -name {shlex.quote(glob)}" if glob else ""
    if glob and asked_extreme(goal) and _LINES.search(goal):
        return (f"count the lines of every {glob} file, ranked", f"{find} | xargs wc -l | sort -n")
    if glob and _HOW_MANY_FILES.search(goal) and not _LINES.search(goal):
        return (f"count the {glob} files", f"{find} | wc -l")
    listed = _LIST.match(goal)
    typed = _TYPE.search(goal) or _EXTENSION.search(goal)
    if glob and listed and typed and typed.start() == listed.end() and _ONLY_WHERE.match(goal[typed.end():]):
        return (f"list the {glob} files", find)
    containing = _CONTAINING.search(goal)
    if containing and "'" not in containing.group("literal"):
        # Lines with their files, not -l's bare names: measured (grep-pattern at de5229f, 3 of 3 runs), the
        # writer named one of the two files -l printed, and both of the two lines -n printed (d506eb6).
        return ("find the files containing the quoted text", f"grep -rnF {shlex.quote(containing.group('literal'))} .")
    markers = {m.group(1) for m in _MARKER.finditer(goal)}
    if len(markers) == 1 and _COMMENTS.search(goal):
        include = f" --include={shlex.quote(glob)}" if glob else ""
        return (f"search the {next(iter(markers))} comments", f"grep -rnw{include} {next(iter(markers))} .")
    return None
