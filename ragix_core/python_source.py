"""What a Python file defines, imports and calls, read with ``ast`` (never by running it).

A file that does not parse gives no records and says why (``SourceError``): the caller reports
it instead of guessing from the text.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, field
from typing import Dict, Iterator, List, Optional, Tuple, Union

__all__ = ["Definition", "Import", "Call", "SourceError", "parse", "definitions", "imports", "calls_in",
           "calls_of", "call_sites", "imports_module"]

_Function = Union[ast.FunctionDef, ast.AsyncFunctionDef]


class SourceError(ValueError):
    """The text is not Python this interpreter can parse."""


@dataclass
class Definition:
    line: int
    kind: str  # "class" | "def" | "async def"
    name: str
    qualname: str  # Outer.inner for a method or a nested function
    depth: int  # 0 at module level
    signature: str  # "(self, path)" for a function, "(Base, Mixin)" for a class ("" without bases)
    decorators: List[str] = field(default_factory=list)  # "dataclass", "property", "app.route('/x')"


@dataclass
class Import:
    line: int
    module: str  # as written after "from" / "import", leading dots kept ("..utils")
    names: List[str]  # the names imported from it ([] for "import x")
    text: str  # the statement as one line


@dataclass
class Call:
    line: int
    name: str  # the called name: f for f(...), m for obj.m(...)
    text: str  # the call as written, one line, bounded


def parse(source: str, filename: str = "<source>") -> ast.Module:
    try:
        return ast.parse(source, filename=filename)
    except (SyntaxError, ValueError) as exc:
        where = f" (line {exc.lineno})" if isinstance(exc, SyntaxError) and exc.lineno else ""
        raise SourceError(f"{filename}: not valid Python{where}: {getattr(exc, 'msg', exc)}") from None


def _unparsed(node: ast.AST, limit: int = 80) -> str:
    try:
        text = " ".join(ast.unparse(node).split())
    except Exception:  # a node ast cannot write back: show its kind rather than fail the file
        text = type(node).__name__
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _signature(node: Union[_Function, ast.ClassDef]) -> str:
    if isinstance(node, ast.ClassDef):
        bases = [_unparsed(b, 60) for b in node.bases] + [_unparsed(k, 60) for k in node.keywords]
        return f"({', '.join(bases)})" if bases else ""
    return f"({_unparsed(node.args, 120)})"


def _walk_definitions(body: List[ast.stmt], prefix: str, depth: int) -> Iterator[Definition]:
    for node in body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            kind = "class" if isinstance(node, ast.ClassDef) else \
                "async def" if isinstance(node, ast.AsyncFunctionDef) else "def"
            qualname = f"{prefix}{node.name}"
            yield Definition(node.lineno, kind, node.name, qualname, depth, _signature(node),
                             [_unparsed(d, 60) for d in node.decorator_list])
            yield from _walk_definitions(node.body, qualname + ".", depth + 1)
        elif isinstance(node, (ast.If, ast.Try, ast.With, ast.For, ast.While)):
            # definitions under `if TYPE_CHECKING:`, `try: ... except ImportError:` count too
            for part in ("body", "orelse", "finalbody", "handlers"):
                for child in getattr(node, part, []) or []:
                    inner = child.body if isinstance(child, ast.ExceptHandler) else [child]
                    yield from _walk_definitions(inner, prefix, depth)


def definitions(tree: ast.Module) -> List[Definition]:
    """Every class, function and method, in source order."""
    return list(_walk_definitions(tree.body, "", 0))


def imports(tree: ast.Module) -> List[Import]:
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                out.append(Import(node.lineno, alias.name, [], _unparsed(node, 160)))
        elif isinstance(node, ast.ImportFrom):
            module = "." * node.level + (node.module or "")
            out.append(Import(node.lineno, module, [a.name for a in node.names], _unparsed(node, 160)))
    return sorted(out, key=lambda i: i.line)


def imports_module(imp: Import, module: str) -> bool:
    """Whether ``imp`` imports ``module`` (a name like "mod" or "pkg.mod"): the module
    itself, a submodule path ending in it, or the module imported by name from its package
    (``from pkg import mod``, ``from . import mod``)."""
    want = module.strip(".").split(".")
    written = imp.module.lstrip(".").split(".") if imp.module.strip(".") else []

    def ends_with(parts: List[str]) -> bool:
        return len(parts) >= len(want) and parts[len(parts) - len(want):] == want

    if written and ends_with(written):
        return True
    return any(ends_with(written + [name]) for name in imp.names if name != "*")


def _called_name(node: ast.Call) -> Optional[str]:
    func = node.func
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute):
        return func.attr
    return None


def _calls(nodes: List[ast.AST]) -> List[Call]:
    out = []
    for top in nodes:
        for node in ast.walk(top):
            if isinstance(node, ast.Call):
                name = _called_name(node)
                if name:
                    out.append(Call(node.lineno, name, _unparsed(node, 100)))
    return sorted(out, key=lambda c: (c.line, c.name))


def _functions(tree: ast.Module) -> Iterator[Tuple[str, _Function]]:
    """(qualname, node) of every function and method."""
    def walk(body: List[ast.stmt], prefix: str) -> Iterator[Tuple[str, _Function]]:
        for node in body:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                yield f"{prefix}{node.name}", node
                yield from walk(node.body, f"{prefix}{node.name}.")
            elif isinstance(node, ast.ClassDef):
                yield from walk(node.body, f"{prefix}{node.name}.")
    yield from walk(tree.body, "")


def calls_in(tree: ast.Module, name: str) -> Dict[Tuple[str, int], List[Call]]:
    """The calls made in the body of every function or method named ``name`` (its own nested
    functions included), keyed by (qualname, line of the def)."""
    return {(qual, node.lineno): _calls(list(node.body)) for qual, node in _functions(tree) if node.name == name}


def call_sites(tree: ast.Module) -> List[Tuple[str, Call]]:
    """Every call in the file with its enclosing function's qualname ("<module>" outside any):
    the call edges of the file, each call counted once, in the innermost function holding it."""
    out: List[Tuple[str, Call]] = []
    inside = set()
    # innermost first: a call in a nested function belongs to it, not to the function around it
    for qual, node in reversed(list(_functions(tree))):
        for call in _calls(list(node.body)):
            key = (call.line, call.text)
            if key not in inside:
                inside.add(key)
                out.append((qual, call))
    for call in _calls(list(tree.body)):
        if (call.line, call.text) not in inside:
            out.append(("<module>", call))
    return sorted(out, key=lambda p: (p[1].line, p[1].name))


def calls_of(tree: ast.Module, name: str) -> List[Tuple[str, Call]]:
    """Where ``name`` is called: (the enclosing function's qualname, or "<module>", the call)."""
    return [(qual, call) for qual, call in call_sites(tree) if call.name == name]
