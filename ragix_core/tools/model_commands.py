"""Commands designed for the model: read-only, compact, self-describing output that needs no pipe.

SWE-agent (arXiv 2405.15793) measured that an interface designed for the model beats a plain shell
for small models: compact output, a bounded listing, a search that says when to narrow. A 1.5B
model that must count a file's functions with `grep -c def` or rank files with
`find | xargs wc -l | sort -n | tail` gets the pipeline wrong more often than the question; these
commands give the answer's lines directly:

    defs [-n NAME] [PATH...]      classes and functions of the Python files, with line numbers
    importers MODULE [PATH...]    the import lines that import MODULE
    callers NAME [PATH...]        where NAME is called, and in which function
    calls NAME [PATH...]          what the function NAME calls, and where each callee is defined
    lines [-r] [-g GLOB] [PATH...]  files ranked by line count, largest first (no total line)
    tree [-d] [-L DEPTH] [DIR]    the directory tree, bounded (-d: directories only, as the model writes it)

They run in ragix's own process, not as programs: their arguments are validated by the same
argument policy (layer 1) and every file is opened through the path guard (inside the project,
regular, not multiply linked, never ragix's state); the OS layer confines programs, and these are
not programs. Like grep, a command that finds nothing exits 1 with no output.
"""

from __future__ import annotations

import fnmatch
import os
from typing import Callable, Dict, Iterator, List, Optional, Tuple

from ragix_core.python_source import (SourceError, calls_in, calls_of, definitions, imports,
                                              imports_module, parse)
from ragix_core.tools.paths import PathGuard
from ragix_core.tools.policy import MODEL_COMMANDS
from ragix_core.tools.refusal import Refusal
from ragix_core.tools.runner import RawResult
from ragix_core.tools.specs_base import ANY, NUM, ToolSpec

__all__ = ["MODEL_COMMANDS", "MODEL_SPECS", "run_model_command", "describe"]

MAX_FILE_BYTES = 1 << 20  # a larger file is skipped (and said so): generated or data, not source
MAX_OUTPUT_LINES = 300
TREE_DEPTH, TREE_ENTRIES = 3, 150

MODEL_SPECS = [
    ToolSpec("defs", short_value={"n": ANY}),
    ToolSpec("importers", positionals="pattern_paths"),
    ToolSpec("callers", positionals="pattern_paths"),
    ToolSpec("calls", positionals="pattern_paths"),
    ToolSpec("lines", short="r", short_value={"g": ANY}),
    ToolSpec("tree", short="d", short_value={"L": NUM}, max_positionals=1),
]
assert tuple(spec.name for spec in MODEL_SPECS) == MODEL_COMMANDS, "tools/policy.MODEL_COMMANDS names them all"
_VALUED = "".join(sorted({letter for spec in MODEL_SPECS for letter in spec.short_value}))  # options taking a value

# One line each for the worker's prompt: what it prints, in the words a question would use.
_DESCRIPTIONS = {
    "defs": "`defs FILE_OR_DIR` the classes and functions of Python files with line numbers; "
            "`defs -n NAME .` where NAME is defined",
    "importers": "`importers MODULE` the files that import MODULE, with the import line",
    "callers": "`callers NAME` where NAME is called and in which function; "
               "`calls NAME` what function NAME calls and where each is defined",
    "lines": "`lines -g '*.EXT' DIR` files ranked by line count, largest first; `lines -r ...` smallest first",
    "tree": "`tree DIR` the directory tree, bounded",
}


def describe(allowed: List[str]) -> str:
    """The prompt's lines for the commands among ``allowed`` ("" when none is)."""
    lines = [f"- {text}" for name, text in _DESCRIPTIONS.items() if name in allowed]
    return ("Commands made for this (compact output, no pipe needed):\n" + "\n".join(lines) + "\n") if lines else ""


class _Args:
    """The already validated argv of a command: options with their values, and operands."""

    def __init__(self, args: List[str]):
        self.flags: Dict[str, str] = {}
        self.operands: List[str] = []
        i = 0
        while i < len(args):
            a = args[i]
            if a == "--":
                self.operands += args[i + 1:]
                break
            if a.startswith("-") and len(a) > 1:
                letter = a[1]
                if letter in _VALUED:
                    value = a[2:] if len(a) > 2 else (args[i + 1] if i + 1 < len(args) else "")
                    i += 0 if len(a) > 2 else 1
                    self.flags[letter] = value
                else:
                    for ch in a[1:]:
                        self.flags[ch] = ""
            else:
                self.operands.append(a)
            i += 1


class _Reader:
    """The files under the operands, read through the path guard; what was skipped, for stderr."""

    def __init__(self, guard: PathGuard):
        self.guard = guard
        self.notes: List[str] = []

    def files(self, operands: List[str], suffix: str = "") -> Iterator[str]:
        for operand in operands or ["."]:
            real = self.guard.read(operand)
            if not os.path.exists(real):
                raise FileNotFoundError(f"{operand}: No such file or directory")  # as coreutils say it
            if suffix and not operand.endswith(suffix) and not os.path.isdir(real):
                self.notes.append(f"[ragix] {operand}: not a {suffix} file")
                continue
            scan = self.guard.scan(operand)
            for why, names in scan.skipped.items():
                self.notes.append(f"[ragix] skipped {len(names)} {why}: {', '.join(names[:5])}")
            for name in scan.files:
                if not suffix or name.endswith(suffix):
                    yield name

    def read(self, name: str) -> Optional[bytes]:
        real = self.guard.read(name, must_exist=True)
        if os.path.getsize(real) > MAX_FILE_BYTES:
            self.notes.append(f"[ragix] skipped {name}: larger than {MAX_FILE_BYTES // 1024} KiB")
            return None
        with open(real, "rb") as fh:
            return fh.read(MAX_FILE_BYTES + 1)

    def python(self, operands: List[str]) -> Iterator[Tuple[str, object]]:
        """(name, parsed module) of every Python file; one that does not parse is a note."""
        for name in self.files(operands, ".py"):
            data = self.read(name)
            if data is None:
                continue
            try:
                yield name, parse(data.decode("utf-8", "replace"), name)
            except SourceError as exc:
                self.notes.append(f"[ragix] {exc}")


def _defs(args: _Args, reader: _Reader) -> List[str]:
    wanted = args.flags.get("n")
    out: List[str] = []
    for name, tree in reader.python(args.operands):
        found = [d for d in definitions(tree) if wanted is None or d.name == wanted]
        if not found:
            continue
        if wanted is not None:
            out += [f"{name}:{d.line}: {d.kind} {d.qualname}{d.signature}" for d in found]
            continue
        out.append(f"{name}:")
        for d in found:
            decorated = "".join(f"@{x} " for x in d.decorators)
            out.append(f"{'  ' * (d.depth + 1)}{d.line}: {decorated}{d.kind} {d.name}{d.signature}")
    return out


def _needs_name(args: _Args, command: str) -> Tuple[str, List[str]]:
    if not args.operands:
        raise Refusal(f"{command}: give the name to look for, e.g. `{command} NAME`")
    return args.operands[0], args.operands[1:]


def _module_name(written: str) -> str:
    """``src/pkg/mod.py`` or ``pkg.mod`` -> the module as imports name it."""
    text = written[:-3] if written.endswith(".py") else written
    text = text.strip("./").replace("/", ".")
    return text[:-9] if text.endswith(".__init__") else text


def _importers(args: _Args, reader: _Reader) -> List[str]:
    written, paths = _needs_name(args, "importers")
    module = _module_name(written)
    # src/pkg/mod.py: a file's path need not be its import path (src/ is not imported); its name is
    candidates = {module, module.split(".")[-1]}
    return [f"{name}:{imp.line}: {imp.text}" for name, tree in reader.python(paths) for imp in imports(tree)
            if any(imports_module(imp, m) for m in candidates)]


def _callers(args: _Args, reader: _Reader) -> List[str]:
    target, paths = _needs_name(args, "callers")
    return [f"{name}:{call.line}: in {where}: {call.text}"
            for name, tree in reader.python(paths) for where, call in calls_of(tree, target)]


def _calls(args: _Args, reader: _Reader) -> List[str]:
    target, paths = _needs_name(args, "calls")
    trees = list(reader.python(paths))
    sites: Dict[str, str] = {}
    for name, tree in trees:
        for d in definitions(tree):
            sites.setdefault(d.name, f"{name}:{d.line}")
    out: List[str] = []
    for name, tree in trees:
        for (qual, line), found in calls_in(tree, target).items():
            out.append(f"{name}:{line}: def {qual} calls:")
            seen = set()
            for call in found:
                if call.name in seen:
                    continue
                seen.add(call.name)
                where = f"defined at {sites[call.name]}" if call.name in sites else "not defined in the project"
                out.append(f"  {call.line}: {call.name}  ({where})")
    return out


def _lines(args: _Args, reader: _Reader) -> List[str]:
    pattern = args.flags.get("g")
    counted = []
    for name in reader.files(args.operands):
        if pattern and not fnmatch.fnmatch(os.path.basename(name), pattern):
            continue
        data = reader.read(name)
        if data is not None:
            counted.append((data.count(b"\n"), name))
    smallest = "r" in args.flags
    counted.sort(key=lambda c: (c[0] if smallest else -c[0], c[1]))
    return [f"{n} {name}" for n, name in counted]


def _tree(args: _Args, reader: _Reader) -> List[str]:
    depth = max(1, min(int(args.flags.get("L") or TREE_DEPTH), 10))
    # -d as GNU tree has it: measured (issue 34, an unseen question about top-level directories) the model
    # wrote `tree -d` six turns running, each refused while only -L was allowed.
    dirs_only = "d" in args.flags
    top = args.operands[0] if args.operands else "."
    files = sorted(reader.files([top]))
    prefix = top.rstrip("/") + "/"
    out = [prefix]
    shown_dirs = set()
    below: Dict[str, int] = {}
    for name in files:
        parts = name[len(prefix):].split("/") if name.startswith(prefix) else [name]
        for level in range(min(len(parts) - 1, depth)):
            d = "/".join(parts[: level + 1])
            if d not in shown_dirs:
                shown_dirs.add(d)
                out.append(f"{'  ' * (level + 1)}{parts[level]}/")
        if len(parts) - 1 < depth:
            if not dirs_only:
                out.append(f"{'  ' * len(parts)}{parts[-1]}")
        else:
            cut = "/".join(parts[:depth])
            below[cut] = below.get(cut, 0) + 1
    for d, n in below.items():  # said once per cut directory, after its line
        index = out.index(f"{'  ' * depth}{d.split('/')[-1]}/")
        out[index] += f" ({n} files below, not shown: `tree {prefix}{d}`)"
    if len(out) > TREE_ENTRIES:
        out = out[:TREE_ENTRIES] + [f"... ({len(out) - TREE_ENTRIES} more entries: name a subdirectory)"]
    return out


_RUN: Dict[str, Callable[[_Args, _Reader], List[str]]] = {
    "defs": _defs, "importers": _importers, "callers": _callers, "calls": _calls, "lines": _lines, "tree": _tree,
}


def run_model_command(name: str, args: List[str], guard: PathGuard) -> RawResult:
    """Run ``name`` (one of MODEL_COMMANDS) with its validated ``args``; like grep, exit 1 with no
    output when it found nothing, exit 2 with the reason on stderr when it could not run."""
    reader = _Reader(guard)
    try:
        lines = _RUN[name](_Args(args), reader)
    except Refusal as exc:
        return RawResult(2, b"", f"{name}: {exc.reason}\n".encode())
    except FileNotFoundError as exc:
        return RawResult(2, b"", f"{name}: {exc.args[0]}\n".encode())
    except (OSError, ValueError) as exc:
        return RawResult(2, b"", f"{name}: {exc}\n".encode())
    if len(lines) > MAX_OUTPUT_LINES:
        lines = lines[:MAX_OUTPUT_LINES] + [f"... ({len(lines) - MAX_OUTPUT_LINES} more lines: name a narrower path)"]
    stderr = "".join(n + "\n" for n in reader.notes).encode()
    if not lines:
        return RawResult(1, b"", stderr)
    return RawResult(0, ("\n".join(lines) + "\n").encode(), stderr)
