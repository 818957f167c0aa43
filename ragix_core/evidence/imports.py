"""Which modules import a module, directly or through others: searched by ragix, answered from import lines.

Measured (issue 12 runs): "which modules import from the M module?" was answered with every
file a loose `M` search printed (docstrings included), and "which modules depend on M.py, directly
or through another module?" needs a search per level, which a plan written before any output
cannot hold. A person greps for the import lines, then for the importers of
each importer. So:

- ``asked_module`` reads the module a goal asks the importers of (``M.py``, "the M
  module", "module M") and whether it asks for indirect ones too;
- ``importers`` reads, from any output's ``path:N:text`` lines that are import statements, which
  files import the module, and with ``transitive`` the files importing those, and so on;
- ``bind_importers``: an answer must name every importer the outputs show (the rest appended),
  and one naming none of them is replaced by the list.
"""

from __future__ import annotations

import re
from pathlib import PurePosixPath
from typing import Dict, List, Optional, Sequence, Set, Tuple

from .path_hints import project_path

__all__ = ["asked_module", "importers", "module_of", "bind_importers"]

# Asks who imports ("which modules import …", "dependents of …"), not what a file imports ("what does FILE.py import?").
_ASKS_IMPORTERS = re.compile(
    r"\b(importers?|dependents?|imported by|used by|depend\w* on|rel(?:y|ies) on)\b"
    r"|\b(which|what)\s+(?:\w+\s+){0,2}(?:modules?|files?|scripts?|packages?)\s+"
    r"(?:\w+\s+){0,2}(?:import|use|depend)\w*\b",
    re.IGNORECASE)
_INDIRECT = re.compile(r"\b(indirect\w*|through|transitive\w*|via)\b", re.IGNORECASE)
_MODULE_NAMED = (
    re.compile(r"(?<![\w/.-])(?:[\w.-]+/)*([A-Za-z_]\w*)\.py\b"),
    re.compile(r"\bthe\s+[`'\"]?([A-Za-z_]\w*)[`'\"]?\s+module\b", re.IGNORECASE),
    # "module m?", not "module uses"
    re.compile(r"\bmodule\s+[`'\"]?([A-Za-z_]\w*)[`'\"]?\s*(?:[?.,;:!]|$)", re.IGNORECASE),
)
_NOT_MODULES = {"another", "other", "each", "every", "this", "that", "same", "python", "given", "any"}
_SEARCH_LINE = re.compile(r"^(?P<path>[^\s:]+\.py):(?:\d+:)?(?P<text>.*)$", re.MULTILINE)
_FROM = re.compile(r"^\s*from\s+(?P<module>[\w.]+)\s+import\s+(?P<names>[\w\s,.()*]+)")
_IMPORT = re.compile(r"^\s*import\s+(?P<names>[\w\s,.]+)")
MAX_LEVELS = 4


def asked_module(goal: str) -> Optional[Tuple[str, bool]]:
    """``(module, transitive)`` for a goal asking which modules import or depend on a module."""
    if not _ASKS_IMPORTERS.search(goal):
        return None
    for rx in _MODULE_NAMED:
        for name in rx.findall(goal):
            if name.lower() not in _NOT_MODULES:
                return name, bool(_INDIRECT.search(goal))
    return None


def module_of(path: str) -> str:
    """The module name a file is imported by: its stem, or its package's name for ``__init__.py``."""
    p = PurePosixPath(path)
    return p.parent.name if p.stem == "__init__" and p.parent.name else p.stem


def _imported(text: str) -> Set[str]:
    """The module names an import statement names: a ``from`` line's module (the last part of its
    dotted name, or the names of ``from . import x``), every part of an ``import`` line's names."""
    m = _FROM.match(text)
    if m:
        parts = [x for x in m.group("module").split(".") if x]
        if parts:
            return {parts[-1]}
        return {n.strip("() ") for n in m.group("names").split(",") if n.strip("() ")}  # from . import x
    m = _IMPORT.match(text)
    if m:
        # `import os.path` imports os and os.path: every part is a module the file depends on
        return {part for n in m.group("names").split(",") if n.split() for part in n.split()[0].split(".") if part}
    return set()


def _graph(outputs: Sequence[str]) -> Dict[str, Set[str]]:
    """``module -> {importing file}`` from every import line the outputs print with its path."""
    graph: Dict[str, Set[str]] = {}
    for output in outputs:
        for m in _SEARCH_LINE.finditer(output):
            path = project_path(m.group("path"))
            for module in _imported(m.group("text")):
                graph.setdefault(module, set()).add(path)
    return graph


def importers(module: str, outputs: Sequence[str], transitive: bool) -> List[str]:
    """The files the outputs show importing ``module`` (and, ``transitive``, importing those), sorted."""
    graph = _graph(outputs)
    found: Set[str] = set()
    level = {module}
    for _ in range(MAX_LEVELS if transitive else 1):
        new = {f for m in level for f in graph.get(m, set())
               if f not in found and module_of(f) != module}
        if not new:
            break
        found |= new
        level = {module_of(f) for f in new}
    return sorted(found)


def bind_importers(goal: str, answer: str, evidence: Sequence[Tuple[str, str]]) -> Optional[Tuple[str, str]]:
    """``(new answer, reason)`` when the answer leaves out importers the outputs show; None otherwise."""
    asked = asked_module(goal)
    if asked is None:
        return None
    module, transitive = asked
    found = importers(module, [out for _, out in evidence], transitive)
    if not found:
        return None
    missing = [f for f in found if PurePosixPath(f).name not in answer]
    if not missing:
        return None
    how = "directly or through another module" if transitive else "directly"
    if len(missing) == len(found):
        return (f"{', '.join(found)} (the import lines the searches printed: these import {module}, {how}).\n\n"
                f"(ragix: the written answer named none of them; this answer is written from the outputs.)",
                "importers")
    return (f"{answer.rstrip()}\n\n(ragix: the import lines also show {', '.join(missing)} importing {module}, {how}.)",
            "importers_added")
