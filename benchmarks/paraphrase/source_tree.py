"""Facts read from an unpacked source tree: files, lines, text, and what Python's ``ast`` sees.

Every rule is the one a careful shell user would apply, so that the answer is what a correct command
shows: paths are relative with ``/``, hidden directories included (``find`` and ``grep -r`` see them),
a line count is ``wc -l``'s, a text search is ``grep -rl``'s (case-sensitive, on bytes). Anything that
could be read two ways here (a file without a final newline, a name defined twice) raises instead of
picking one reading: a fact with two right answers is no fact.
"""

from __future__ import annotations

import ast
import io
import tokenize
from functools import lru_cache
from pathlib import Path
from typing import Dict, List, Optional, Set, Tuple

__all__ = ["Tree"]

Def = Tuple[str, str]  # (path, qualified name such as "Lexer.get_tokens")


class Tree:
    def __init__(self, root: Path) -> None:
        self.root = Path(root)
        self._files = sorted(p.relative_to(self.root).as_posix() for p in self.root.rglob("*") if p.is_file())

    # ------------------------------------------------------------ files and text

    def files(self, under: str = "", suffix: str = "") -> List[str]:
        """Files below ``under`` (recursively; "" is the whole tree, a file is itself) whose names end
        with ``suffix``."""
        prefix = under.rstrip("/") + "/" if under else ""
        return [f for f in self._files if (f.startswith(prefix) or f == under) and f.endswith(suffix)]

    def in_dir(self, directory: str, suffix: str = "") -> List[str]:
        """Files directly in ``directory`` ("" is the root), not in its subdirectories."""
        return [f for f in self._files if _parent(f) == directory and f.endswith(suffix)]

    def files_per_dir(self) -> Dict[str, int]:
        """Files directly in each directory that has any ("" is the root)."""
        counts: Dict[str, int] = {}
        for f in self._files:
            counts[_parent(f)] = counts.get(_parent(f), 0) + 1
        return counts

    def top_dirs(self) -> List[str]:
        """Directories at the root (those that hold files somewhere below)."""
        return sorted({f.split("/", 1)[0] for f in self._files if "/" in f})

    @lru_cache(maxsize=None)
    def data(self, path: str) -> bytes:
        return (self.root / path).read_bytes()

    def size(self, path: str) -> int:
        return len(self.data(path))

    def lines(self, path: str) -> int:
        """``wc -l``: newline characters. A last line without a newline would make wc and an editor
        disagree by one, so such a file is refused."""
        data = self.data(path)
        if data and not data.endswith(b"\n"):
            raise ValueError(f"{path}: no final newline, its line count is ambiguous")
        return data.count(b"\n")

    def line_bounds(self, path: str) -> Tuple[int, int]:
        """``wc -l``'s count and the count of a reader who also counts an unterminated last line."""
        data = self.data(path)
        return data.count(b"\n"), data.count(b"\n") + int(bool(data) and not data.endswith(b"\n"))

    def size_bounds(self, path: str) -> Tuple[int, int]:
        """A size in bytes has one reading: its bounds are equal."""
        return self.size(path), self.size(path)

    def grep(self, text: str, under: str = "") -> List[str]:
        """``grep -rl TEXT``: files whose bytes contain the text, case-sensitive."""
        needle = text.encode()
        return [f for f in self.files(under) if needle in self.data(f)]

    def is_unique_name(self, path: str) -> bool:
        """Whether no other file in the tree has the same base name."""
        name = path.rsplit("/", 1)[-1]
        return sum(f.rsplit("/", 1)[-1] == name for f in self._files) == 1

    # ------------------------------------------------------------ Python source

    @lru_cache(maxsize=None)
    def module(self, path: str) -> ast.Module:
        return ast.parse(self.data(path), filename=path)

    def classes(self, path: str) -> List[ast.ClassDef]:
        return [n for n in self.module(path).body if isinstance(n, ast.ClassDef)]

    def functions(self, path: str) -> List[ast.FunctionDef]:
        """Top-level functions (``def`` at column 0), the ones ``grep -c '^def '`` counts."""
        return [n for n in self.module(path).body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))]

    def class_def(self, path: str, name: str) -> ast.ClassDef:
        (found,) = [c for c in self.classes(path) if c.name == name]
        return found

    def methods(self, path: str, cls: str) -> List[ast.FunctionDef]:
        return [n for n in self.class_def(path, cls).body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))]

    def bases(self, path: str, cls: str) -> List[str]:
        return [ast.unparse(b) for b in self.class_def(path, cls).bases]

    def defs(self, under: str = "") -> List[Tuple[str, str, ast.AST]]:
        """(path, qualified name, node) of every top-level class and function and every method."""
        out: List[Tuple[str, str, ast.AST]] = []
        for path in self.files(under, ".py"):
            for node in self.module(path).body:
                if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                    out.append((path, node.name, node))
                if isinstance(node, ast.ClassDef):
                    out.extend((path, f"{node.name}.{m.name}", m) for m in node.body
                               if isinstance(m, (ast.FunctionDef, ast.AsyncFunctionDef)))
        return out

    def where_defined(self, name: str, under: str = "") -> str:
        """The one file that defines a top-level class or function ``name``."""
        (path,) = {p for p, q, _ in self.defs(under) if q == name}
        return path

    def function(self, path: str, qualname: str) -> ast.FunctionDef:
        (node,) = [n for p, q, n in self.defs() if p == path and q == qualname]
        return node

    def assignments(self, name: str, under: str = "") -> List[Tuple[str, str]]:
        """(path, value source) of every module-level ``NAME = value``."""
        out = []
        for path in self.files(under, ".py"):
            for node in self.module(path).body:
                if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == name for t in node.targets):
                    out.append((path, ast.unparse(node.value)))
        return out

    def module_names(self, path: str) -> List[str]:
        """Names bound by module-level assignments, in order."""
        return [t.id for node in self.module(path).body if isinstance(node, ast.Assign)
                for t in node.targets if isinstance(t, ast.Name)]

    def docstring(self, path: str, qualname: Optional[str] = None) -> str:
        node = self.module(path) if qualname is None else self.function(path, qualname)
        return ast.get_docstring(node) or ""

    def default(self, path: str, qualname: str, param: str) -> str:
        """The source of a parameter's default value."""
        args = self.function(path, qualname).args
        positional = args.posonlyargs + args.args
        pairs = list(zip(positional[len(positional) - len(args.defaults):], args.defaults))
        pairs += [(a, d) for a, d in zip(args.kwonlyargs, args.kw_defaults) if d is not None]
        (value,) = [ast.unparse(d) for a, d in pairs if a.arg == param]
        return value

    def decorated(self, path: str, decorator: str) -> List[str]:
        """Qualified names of the functions and methods of ``path`` carrying ``@decorator`` or
        ``@decorator(...)`` (also as ``@x.decorator``)."""
        def name(d: ast.expr) -> str:
            d = d.func if isinstance(d, ast.Call) else d
            return d.id if isinstance(d, ast.Name) else d.attr if isinstance(d, ast.Attribute) else ""

        return [q for p, q, n in self.defs() if p == path and not isinstance(n, ast.ClassDef)
                and any(name(d) == decorator for d in n.decorator_list)]

    def comments(self, path: str) -> List[Tuple[int, str]]:
        """(line, text) of every ``#`` comment, as the tokenizer sees them (not ``#`` inside strings)."""
        tokens = tokenize.tokenize(io.BytesIO(self.data(path)).readline)
        return [(t.start[0], t.string) for t in tokens if t.type == tokenize.COMMENT]

    # ------------------------------------------------------------ imports and calls

    def module_of(self, path: str) -> str:
        """sqlparse/engine/grouping.py -> sqlparse.engine.grouping; a package's __init__ is the package."""
        parts = path[:-len(".py")].split("/")
        return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)

    @lru_cache(maxsize=None)
    def _modules(self) -> Set[str]:
        return {self.module_of(f) for f in self.files(suffix=".py")}

    def imports(self, path: str) -> Set[str]:
        """Modules ``path`` imports, ``from pkg import mod`` counted as an import of ``pkg.mod`` when
        that is a module of the tree (``from sqlparse import tokens as T`` imports sqlparse.tokens)."""
        out: Set[str] = set()
        for node in ast.walk(self.module(path)):
            if isinstance(node, ast.Import):
                out.update(a.name for a in node.names)
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    raise ValueError(f"{path}: relative import, not resolved here")
                for alias in node.names:
                    sub = f"{node.module}.{alias.name}"
                    out.add(sub if sub in self._modules() else node.module)
        return out

    def importers(self, module: str, under: str = "") -> List[str]:
        return [f for f in self.files(under, ".py") if module in self.imports(f)]

    def calls(self, path: str, qualname: str) -> Set[str]:
        """Names called in a function's body: ``f()`` gives f, ``obj.f()`` gives f."""
        out: Set[str] = set()
        for node in ast.walk(self.function(path, qualname)):
            if isinstance(node, ast.Call):
                func = node.func
                if isinstance(func, ast.Name):
                    out.add(func.id)
                elif isinstance(func, ast.Attribute):
                    out.add(func.attr)
        return out

    def callers(self, name: str, under: str = "") -> List[Def]:
        """Functions and methods (other than ``name`` itself) whose body calls ``name``."""
        return [(p, q) for p, q, n in self.defs(under) if not isinstance(n, ast.ClassDef)
                and q.rsplit(".", 1)[-1] != name and name in self.calls(p, q)]

    def subclasses(self, base: str, under: str = "") -> List[Def]:
        """Top-level classes that list ``base`` among their direct bases."""
        return [(p, c.name) for p in self.files(under, ".py") for c in self.classes(p)
                if base in [ast.unparse(b) for b in c.bases]]


def _parent(path: str) -> str:
    return path.rsplit("/", 1)[0] if "/" in path else ""
