"""List answers bound to the definitions an output shows ("list the functions defined in FILE.py").

Measured on the regression set (issue 12 runs at 5ae6fa5 and c8031d9): `cat FILE.py` printed the
three ``def`` lines, and the 1.5B writer answered "FILE.py" — twice, with two different plans. A goal
that asks for the functions, methods or classes of a file (or of the project) is answered by
names the outputs show; so, deterministically:

- the definitions are read from outputs that print source lines: a one-file command's output
  (``cat FILE.py``, ``grep -n def FILE.py``) or a search's ``path:N:text`` / ``path:text`` lines;
  Python's ``def`` / ``async def`` for functions and methods, ``class`` for classes;
- when the goal names files, only the definitions of those files count;
- an answer that names none of them is replaced by the list, written from the outputs;
- an answer that names some gets the others appended, so a list answer names every item shown.

Only plural asks ("functions", "classes") with a list intent are checked: "which class is a
dataclass" or "how many functions" ask for a subset or a number, which a list cannot check.

Two more readings of definitions serve the binding:

- ``asked_names``: the names a goal asks about as definitions ("functions named execute",
  "the execute function", "load()"); ``definition_sites`` finds where a search showed them
  defined, and ``bind_named_definitions`` makes an answer name every such file (and a "how
  many … defined" answer state their number);
- ``bind_decorated`` makes an answer to "which class is a dataclass" name one of the
  definitions the outputs show under the decorator the goal names.
"""

from __future__ import annotations

import difflib
import os
import re
import shlex
from typing import Dict, List, Optional, Sequence, Tuple

from .path_hints import project_path

__all__ = ["asked_names", "bind_decorated", "bind_definitions", "bind_named_definitions", "definition_sites", "definitions_in"]

_KIND_WORDS = {
    "def": re.compile(r"\b(functions|methods|defs)\b", re.IGNORECASE),
    "class": re.compile(r"\b(classes)\b", re.IGNORECASE),
}
_DEFINES = re.compile(r"\bdefines?\b", re.IGNORECASE)  # what a file defines (not "declared as", "where defined")
_ONE_OF_KIND = {
    "def": re.compile(r"\b(function|method)\b", re.IGNORECASE),
    "class": re.compile(r"\bclass\b", re.IGNORECASE),
}
_LIST_INTENT = re.compile(r"\b(list|what|which|name|show|give|enumerate)\b", re.IGNORECASE)
_SUBSET_OR_COUNT = re.compile(r"\b(how many|count|number of|called|calls?|imports?|uses?|decorat\w*)\b",
                              re.IGNORECASE)
_SOURCE = {
    "def": re.compile(r"^\s*(?:async\s+)?def\s+([A-Za-z_]\w*)\s*\("),
    "class": re.compile(r"^\s*class\s+([A-Za-z_]\w*)\s*[:(]"),
}
_PREFIXED = re.compile(r"^(?P<path>[^\s:]+\.\w+):(?:\d+[:-])?(?P<text>.*)$")  # grep -rn / grep -r
_NUMBERED = re.compile(r"^\d+[:-](?P<text>.*)$")  # grep -n on one file
_CONTEXT = re.compile(r"^(?P<path>[^\s:]+?\.\w+)-\d+-(?P<text>.*)$")  # grep -A/-B/-C: a line near a match
_GOAL_FILE = re.compile(r"(?<![\w/.-])((?:[\w.-]+/)*[\w-]+\.py)\b")
_PYTHON = re.compile(r"\.pyi?$")  # def/class lines of a Markdown code block are not the project's
MAX_NAMES = 60
CLOSE_NAME = 0.75  # difflib's ratio for a stand-in's name, as path_hints reads a close name
# A name the goal asks about as a definition: "functions named execute", "the execute function", "execute()".
_ASKED = (
    re.compile(r"\b(?:functions?|methods?|classes|class)\s+(?:named|called)\s+[`'\"]?([A-Za-z_]\w*)", re.IGNORECASE),
    re.compile(r"\bthe\s+[`'\"]?([A-Za-z_]\w*)[`'\"]?\s+(?:function|method|class)\b", re.IGNORECASE),
    re.compile(r"[`'\"]?\b([A-Za-z_]\w*)\(\)"),
)
_NOT_NAMES = {"same", "first", "last", "other", "only", "next", "previous", "whole", "entire", "following",
              "given", "above", "below", "new", "old", "main's", "this", "that", "each", "every", "any"}
# A count of definitions is checked; a count of calls or uses is not.
_DEFINED = re.compile(r"\b(defined|defines|definitions?|declared)\b", re.IGNORECASE)
_HOW_MANY = re.compile(r"\b(how many|number of)\b", re.IGNORECASE)
_NUMBER = re.compile(r"(?<![\w.])\d+(?![\w.]*\w)")


def _kind(goal: str) -> Optional[str]:
    if _SUBSET_OR_COUNT.search(goal) or not _LIST_INTENT.search(goal):
        return None
    kinds = [k for k, rx in _KIND_WORDS.items() if rx.search(goal)]
    if not kinds and _DEFINES.search(goal):
        # "which function does it define?": one function asked for, but what the file defines is listed
        # whole (measured on the regression set at f994263: `cat FILE.py` read, and "the entry point
        # is defined in FILE.py" answered twice, the function never named).
        kinds = [k for k, rx in _ONE_OF_KIND.items() if rx.search(goal)]
    return kinds[0] if len(kinds) == 1 else None


def _one_file(command: str) -> Optional[str]:
    """The single source file a command reads, if it names exactly one."""
    try:
        words = shlex.split(command)
    except ValueError:
        return None
    files = [w for w in words[1:] if not w.startswith("-") and re.search(r"\.\w+$", w)]
    return files[0] if len(files) == 1 else None


def _name(path: str) -> str:
    return path.rsplit("/", 1)[-1]


def definitions_in(kind: str, evidence: Sequence[Tuple[str, str]]) -> Dict[str, List[str]]:
    """``file -> [name, ...]`` for every ``kind`` definition the outputs print, in output order."""
    found: Dict[str, List[str]] = {}
    for command, output in evidence:
        single = _one_file(command)
        for line in output.splitlines():
            m = _PREFIXED.match(line)
            path, text = (m.group("path"), m.group("text")) if m else (single, line)
            if not m:
                numbered = _NUMBERED.match(line)
                text = numbered.group("text") if numbered else line
            d = _SOURCE[kind].match(text)
            if d and path and _PYTHON.search(path):
                names = found.setdefault(project_path(path), [])
                if d.group(1) not in names:
                    names.append(d.group(1))
    return found


def _in_scope(goal: str, found: Dict[str, List[str]]) -> Dict[str, List[str]]:
    asked = {_name(f) for f in _GOAL_FILE.findall(goal)}
    if not asked:
        return found
    named = {path: names for path, names in found.items() if _name(path) in asked}
    if named:
        return named
    # A file the goal names that is not there is read through its stand-in of a close name: measured
    # on the regression set at 2fef1b8, the stand-in's `cat` printed its two functions for "the
    # functions defined in" the missing name, and the answer was the missing name.
    return {path: names for path, names in found.items() if any(_close(_name(path), a) for a in asked)}


def _close(name: str, asked: str) -> bool:
    """A close name by difflib's ratio whose stem starts the same way: `c.py` is not `x.py`'s namesake."""
    return (difflib.SequenceMatcher(None, name, asked).ratio() >= CLOSE_NAME
            and len(os.path.commonprefix([name.split(".")[0], asked.split(".")[0]])) >= 3)


def _named(answer: str, name: str) -> bool:
    return re.search(r"(?<!\w)" + re.escape(name) + r"(?!\w)", answer) is not None


def bind_definitions(goal: str, answer: str, evidence: Sequence[Tuple[str, str]]) -> Optional[Tuple[str, str]]:
    """``(new answer, reason)`` when the answer misses definitions the outputs show; None otherwise."""
    kind = _kind(goal)
    if kind is None:
        return None
    scoped = _in_scope(goal, definitions_in(kind, evidence))
    shown = [(path, name) for path, names in scoped.items() for name in names][:MAX_NAMES]
    if not shown:
        return None
    missing = [(path, name) for path, name in shown if not _named(answer, name)]
    if not missing:
        return None
    word = "Functions" if kind == "def" else "Classes"
    if len(missing) == len(shown):
        lines = [f"{word} defined in {path}: {', '.join(n for p, n in shown if p == path)}"
                 for path in dict.fromkeys(p for p, _ in shown)]
        return ("\n".join(lines) + "\n\n(ragix: the written answer named none of the definitions the "
                "outputs show; this answer is written from the outputs.)", "definitions")
    extra = ", ".join(f"{name} ({path})" for path, name in missing)
    return (f"{answer.rstrip()}\n\n(ragix: the outputs also show {extra}.)", "definitions_added")


def asked_names(goal: str) -> List[str]:
    """The function or class names ``goal`` asks about as definitions, in order."""
    names: List[str] = []
    for rx in _ASKED:
        for name in rx.findall(goal):
            if name.lower() not in _NOT_NAMES and name not in names:
                names.append(name)
    return names


def definition_sites(name: str, evidence: Sequence[Tuple[str, str]]) -> List[str]:
    """``path:line`` (``path`` when no output numbered it) of each definition of ``name`` the
    outputs show; one definition printed by two searches (``grep -r``, ``grep -rn``) counts once."""
    rx = re.compile(r"^(?P<path>[^\s:]+\.pyi?):(?:(?P<line>\d+)[:-])?\s*(?:async\s+)?(?:def|class)\s+"
                    + re.escape(name) + r"\b", re.MULTILINE)
    lines: Dict[str, List[str]] = {}
    for _, output in evidence:
        for m in rx.finditer(output):
            path = project_path(m.group("path"))
            numbered = lines.setdefault(path, [])
            if m.group("line") and m.group("line") not in numbered:
                numbered.append(m.group("line"))
    return [f"{path}:{n}" for path, numbered in lines.items() for n in numbered] + \
        [path for path, numbered in lines.items() if not numbered]


def bind_named_definitions(goal: str, answer: str, evidence: Sequence[Tuple[str, str]]) -> Optional[Tuple[str, str]]:
    """For a goal about a named function or class, the answer must name every file a search showed
    defining it, and a "how many" goal must state how many. Measured (issue 12 runs): a question about
    "the NAME function" answered from one file where another defines one too, and "how many
    functions named NAME" counted the four files that mention the word."""
    for name in asked_names(goal):
        sites = definition_sites(name, evidence)
        if not sites:
            continue
        where = ", ".join(sites)
        if _HOW_MANY.search(goal) and not _DEFINED.search(goal):
            continue  # a count of calls or uses is not a count of definitions
        if _HOW_MANY.search(goal) and str(len(sites)) not in _NUMBER.findall(answer):
            return (f"{len(sites)}: {name} is defined at {where} (the search outputs' definition lines).\n\n"
                    f"(ragix: the written answer did not state how many definitions the outputs show; "
                    f"this answer is written from them.)", "named_count")
        unnamed = [s for s in sites if _name(s.split(":")[0]) not in answer]
        if unnamed and len(sites) > 1:
            return (f"{answer.rstrip()}\n\n(ragix: {name} is defined in {len(sites)} places: {where}.)",
                    "named_sites")
    return None


# "declared as a dataclass", "decorated with @cache", "marked with functools.lru_cache", "the @property
# decorator", "@dataclass classes".
_NAMED_DECORATOR = (
    re.compile(r"\b(?:declared|defined|decorated|marked|registered)\s+(?:as|with)\s+(?:an?\s+|the\s+)?@?"
               r"([A-Za-z_][\w.]*)", re.IGNORECASE),
    re.compile(r"(?<![\w.])@([A-Za-z_][\w.]*)"),  # not an e-mail address's domain
    re.compile(r"\b([A-Za-z_][\w.]*)\s+decorator\b", re.IGNORECASE),
)
_NOT_DECORATORS = {"a", "an", "the", "this", "that", "which", "what", "one", "same", "class", "function", "method",
                   "subclass", "instance", "constant", "variable", "global", "module", "field", "attribute", "member",
                   "type", "string", "list", "dict", "tuple", "integer", "number", "private", "public", "abstract"}


def _named_decorators(goal: str) -> List[str]:
    names: List[str] = []
    for pattern in _NAMED_DECORATOR:
        for m in pattern.finditer(goal):
            name = m.group(1).rstrip(".")
            if name.lower() not in _NOT_DECORATORS and name not in names:
                names.append(name)
    return names


def decorated_in(decorators: Sequence[str], evidence: Sequence[Tuple[str, str]]) -> List[Tuple[str, str]]:
    """``(file, name)`` of each def or class the outputs print right under one of ``decorators``
    (other decorator lines between them allowed): a search with context (``path:6:@dataclass`` then
    ``path-7-class NAME:``) or a file's source (``cat FILE.py``)."""
    wanted = {d.rsplit(".", 1)[-1] for d in decorators}
    found: List[Tuple[str, str]] = []
    for command, output in evidence:
        single = _one_file(command)
        pending: Optional[str] = None  # the file whose last line was a wanted decorator
        for line in output.splitlines():
            m = _PREFIXED.match(line) or _CONTEXT.match(line)
            path, text = (m.group("path"), m.group("text")) if m else (single, line)
            if not m:
                numbered = _NUMBERED.match(line)
                text = numbered.group("text") if numbered else line
            decorator = re.match(r"^\s*@([A-Za-z_][\w.]*)", text)
            if decorator:
                if decorator.group(1).rsplit(".", 1)[-1] in wanted:
                    pending = path
                continue
            d = _SOURCE["class"].match(text) or _SOURCE["def"].match(text)
            if d and pending is not None and path == pending and path and _PYTHON.search(path):
                item = (project_path(path), d.group(1))
                if item not in found:
                    found.append(item)
            pending = None
    return found[:MAX_NAMES]


def bind_decorated(goal: str, answer: str, evidence: Sequence[Tuple[str, str]]) -> Optional[Tuple[str, str]]:
    """For a goal asking which definition a decorator it names marks ("Which class is declared as a
    dataclass?"), an answer naming none of the definitions the outputs show under it
    is replaced by them. Measured on the regression set (at a9a2574 and 789e1a5): the search printed
    ``FILE.py:6:@dataclass`` and ``FILE.py-7-class NAME:``, and the answer was the file's path."""
    if not _LIST_INTENT.search(goal):
        return None
    decorators = _named_decorators(goal)
    items = decorated_in(decorators, evidence) if decorators else []
    if not items or any(_named(answer, name) for _, name in items):
        return None
    shown = "; ".join(f"{name} ({path})" for path, name in items)
    return (f"Decorated with @{decorators[0]}: {shown}.\n\n(ragix: the written answer named none of the "
            f"definitions the outputs show under the decorator; this answer is written from the outputs.)",
            "decorated")
