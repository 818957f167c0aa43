"""The call chain a goal asks to trace, read from the project's Python source.

"Trace what happens for the cli command `get`: which functions are called?" asks for a walk a
person does with the source open: find where `get` is handled, read that code, follow each
call into the function it names, and so on down. The 1.5B planner cannot do this walk in a
fixed plan (it has to see each body to know the next name): cli-get-call-path failed every run
of every measured commit, grepping one name at a time or reading whole files over its budget.

ragix does the walk itself with Python's own parser (``ast``): the start is a function the goal
names, or the branch of the function that compares against a literal the goal quotes (the
command `get`); each call in it is followed into the project function of that name (the one the
caller's module imports, else the caller's own file's, else the only one), breadth first, each
function once, at most ``MAX_FUNCTIONS``. The result is a ``Trace``: the looks search the
goal's names (the evidence of where the walk starts) with the whole chain in words as that
search's aside, then print each function's lines with `sed -n`, so the writer reads the code.
"""

from __future__ import annotations

import ast
import re
from collections import deque
from dataclasses import dataclass
from pathlib import Path
from typing import Dict, List, Optional, Sequence, Set, Tuple

from ragix_core.core.types import PlanStep, StepStatus

from .path_hints import project_files

__all__ = ["asks_call_trace", "bind_trace", "call_chain", "Shown", "Trace", "MAX_FUNCTIONS", "TRACE_ASIDE"]

TRACE_ASIDE = "ragix followed the calls from here: "  # the search's aside that carries the chain in words

MAX_FUNCTIONS = 6  # functions shown for one trace
MAX_SHOWN_LINES = 40  # a function longer than this is shown from its start (the aside says so)
MAX_SOURCE_FILES = 500
MAX_SOURCE_BYTES = 256 * 1024

_TRACE = re.compile(
    r"\b(trace|tracing|call (?:chain|path|graph|tree|stack|hierarchy)|(?:which|what) functions? (?:are|is|get|gets) called"
    r"|what (?:functions? )?(?:does|do) [`'\"]?\w+(?:\(\))?[`'\"]? call|functions? (?:it|that) calls)\b",
    re.IGNORECASE)
_QUOTED = re.compile(r"[`'\"]([A-Za-z_][\w-]{0,60})(?:\(\))?[`'\"]")
_CALLED_NAME = re.compile(r"\b([A-Za-z_]\w*)\(\)")
_WORD = re.compile(r"[A-Za-z_]\w*")
_CLAUSE_NAME = re.compile(r"(?:^|; )([A-Za-z_]\w*) \(")  # "execute (src/cli.py) calls ...; ..."


def asks_call_trace(goal: str) -> bool:
    return bool(_TRACE.search(goal or ""))


@dataclass(frozen=True)
class _Function:
    name: str
    path: str  # project-relative
    start: int
    end: int
    calls: Tuple[str, ...]  # names called in the body, in source order


@dataclass(frozen=True)
class Shown:
    """One function of the chain: where its lines are, what the aside says of it, and what it calls."""
    name: str
    path: str
    start: int
    end: int
    why: str
    callees: Tuple[str, ...] = ()


@dataclass(frozen=True)
class Trace:
    """A call chain: the goal's names the walk started from, and the functions in the order walked."""
    tokens: Tuple[str, ...]
    shown: Tuple[Shown, ...]

    def summary(self) -> str:
        """Who calls whom, one clause a function: the chain in words for the writer."""
        return "; ".join(f"{f.name} ({f.path}) calls {', '.join(f.callees)}" if f.callees else
                         f"{f.name} ({f.path}) calls no function of the project" for f in self.shown)


class _Source:
    """The project's Python functions by name, and what each module imports by name."""

    def __init__(self, root: Path):
        self.functions: Dict[str, List[_Function]] = {}
        self.nodes: Dict[Tuple[str, int], ast.AST] = {}  # (path, start) -> the def node, for branches
        self.imported: Dict[str, Dict[str, str]] = {}  # path -> imported name -> module's last part
        self.modules: Dict[str, Set[str]] = {}  # path -> names bound to whole modules (`import json`)
        files = sorted(f for f in project_files(root) if f.endswith(".py"))[:MAX_SOURCE_FILES]
        for rel in files:
            tree = _parse(root / rel)
            if tree is not None:
                self._add(rel, tree)

    def _add(self, rel: str, tree: ast.AST) -> None:
        imported: Dict[str, str] = {}
        modules: Set[str] = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom):
                for alias in node.names:
                    imported[alias.asname or alias.name] = (node.module or "").rsplit(".", 1)[-1]
            elif isinstance(node, ast.Import):
                modules.update((a.asname or a.name).split(".")[0] for a in node.names)
            elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                fn = _Function(node.name, rel, node.lineno, node.end_lineno or node.lineno,
                               tuple(_calls(node.body, modules)))
                self.functions.setdefault(node.name, []).append(fn)
                self.nodes[(rel, node.lineno)] = node
        self.imported[rel], self.modules[rel] = imported, modules

    def resolve(self, name: str, caller: _Function) -> Optional[_Function]:
        """The project function ``caller`` means by ``name``: the imported one, its own file's, or the only one."""
        candidates = self.functions.get(name) or []
        module = self.imported.get(caller.path, {}).get(name)
        if module:
            from_module = [f for f in candidates if Path(f.path).stem == module]
            if len(from_module) == 1:
                return from_module[0]
        same_file = [f for f in candidates if f.path == caller.path]
        if len(same_file) == 1:
            return same_file[0]
        return candidates[0] if len(candidates) == 1 else None


def _parse(path: Path) -> Optional[ast.AST]:
    try:
        if path.stat().st_size > MAX_SOURCE_BYTES:
            return None
        return ast.parse(path.read_text(encoding="utf-8", errors="replace"))
    except (OSError, SyntaxError, ValueError):
        return None


def _calls(body: Sequence[ast.stmt], modules: Set[str]) -> List[str]:
    """Names called in ``body`` in source order; a module's own functions (`json.load`) are not the project's."""
    found = []
    for stmt in body:
        for node in ast.walk(stmt):
            if not isinstance(node, ast.Call):
                continue
            func = node.func
            if isinstance(func, ast.Name):
                found.append((node.lineno, node.col_offset, func.id))
            elif isinstance(func, ast.Attribute) and not (isinstance(func.value, ast.Name) and func.value.id in modules):
                found.append((node.lineno, node.col_offset, func.attr))
    return list(dict.fromkeys(name for _, _, name in sorted(found)))


def _branch(node: ast.AST, literal: str) -> Optional[ast.If]:
    """The innermost ``if`` of ``node`` whose test compares against the string ``literal``."""
    best = None
    for sub in ast.walk(node):
        if isinstance(sub, ast.If) and any(isinstance(c, ast.Constant) and c.value == literal for c in ast.walk(sub.test)):
            if best is None or sub.lineno > best.lineno:
                best = sub
    return best


def _starts(goal: str, source: _Source) -> List[Tuple[_Function, Tuple[str, ...], str, str]]:
    """(function, the calls to follow from it, why it starts the chain, the goal's name it starts
    from) for what ``goal`` names."""
    words = {w.lower() for w in _WORD.findall(goal)}
    named = list(dict.fromkeys(_QUOTED.findall(goal) + _CALLED_NAME.findall(goal)))
    starts = []
    for token in named:
        defined = source.functions.get(token)
        if defined:
            starts += [(f, f.calls, f"the goal names {token}", token) for f in defined]
            continue
        for fns in source.functions.values():
            for f in fns:
                branch = _branch(source.nodes[(f.path, f.start)], token)
                if branch is not None:
                    starts.append((f, tuple(_calls(branch.body, source.modules.get(f.path, set()))),
                                   f"it handles '{token}' at line {branch.lineno}", token))
    # A file the goal names by its stem ("the cli command") picks among several starts.
    in_named_files = [s for s in starts if Path(s[0].path).stem.lower() in words]
    return in_named_files or starts


def call_chain(goal: str, root: Path) -> Optional[Trace]:
    """The call chain ``goal`` asks to trace, start first; None when it asks none or names no
    start the source has."""
    if not asks_call_trace(goal):
        return None
    source = _Source(root)
    starts = _starts(goal, source)
    if not starts:
        return None
    shown: List[Shown] = []
    seen: Set[Tuple[str, int]] = set()
    queue = deque((f, calls, why) for f, calls, why, _ in starts)
    while queue and len(shown) < MAX_FUNCTIONS:
        fn, calls, why = queue.popleft()
        if (fn.path, fn.start) in seen:
            continue
        seen.add((fn.path, fn.start))
        callees = [c for c in (source.resolve(name, fn) for name in calls) if c is not None]
        names = tuple(dict.fromkeys(c.name for c in callees))
        end = min(fn.end, fn.start + MAX_SHOWN_LINES - 1)
        cut = f" (its first {MAX_SHOWN_LINES} lines)" if end < fn.end else ""
        said = f"; it calls {', '.join(names)}" if names else "; it calls no function of the project"
        shown.append(Shown(fn.name, fn.path, fn.start, end, f"{fn.name} in {fn.path}{cut}: {why}{said}", names))
        queue.extend((c, c.calls, f"called by {fn.name}") for c in callees)
    return Trace(tuple(dict.fromkeys(token for *_, token in starts)), tuple(shown))


def bind_trace(goal: str, answer: str, steps: Sequence[PlanStep]) -> Optional[Tuple[str, str]]:
    """``(answer with the chain added, reason)`` when a trace goal's answer leaves out functions of the
    chain ragix walked (the search step's aside); None otherwise. Measured (cli-get-call-path at
    f994263): "the cli command `get` is called from src/inventory/cli.py at line 15 ..." never named
    execute, the function that handles it."""
    if not asks_call_trace(goal):
        return None
    for step in steps:
        aside = str(step.tool_call.args.get("aside") or "") if step.tool_call else ""
        if step.status != StepStatus.SUCCESS or not aside.startswith(TRACE_ASIDE):
            continue
        summary = aside[len(TRACE_ASIDE):]
        missing = [n for n in _CLAUSE_NAME.findall(summary) if not re.search(rf"\b{re.escape(n)}\b", answer)]
        if not missing:
            return None
        return f"{answer.rstrip()}\n\n(ragix: the calls followed in the source: {summary}.)", "trace_added"
    return None
