"""Check one tool's argv against its ToolSpec, the way GNU getopt would read it.

GNU getopt permutes: an option after a file name is still an option, so every
word starting with '-' (other than '-' itself) is parsed as an option until
'--'. Short options may be clustered (``-la``) and a value may be attached
(``-n5``) or be the next word. Long options must match exactly.
"""

from __future__ import annotations

import os
import re
from typing import List, Set

from ragix_core.tools.paths import PathGuard
from ragix_core.tools.refusal import Refusal
from ragix_core.tools.specs import ToolSpec

__all__ = ["check_args"]


def _allowed_list(spec: ToolSpec) -> str:
    names = [f"-{c}" for c in spec.short] + [f"-{c} V" for c in spec.short_value]
    names += [f"--{n}" for n in sorted(spec.long)] + [f"--{n}=V" for n in sorted(spec.long_value)]
    return " ".join(names) or "none"


def _long_refusal(spec: ToolSpec, name: str) -> Refusal:
    if name in spec.denied:
        return Refusal(f"{spec.name}: option --{name} is not allowed ({spec.denied[name]})")
    known = set(spec.long) | set(spec.long_value) | {k for k in spec.denied if len(k) > 1}
    if name and any(k.startswith(name) for k in known):
        return Refusal(f"{spec.name}: abbreviated long option --{name} is refused; write options in full")
    return Refusal(f"{spec.name}: option --{name} is not allowed (allowed: {_allowed_list(spec)})")


def _short_refusal(spec: ToolSpec, ch: str) -> Refusal:
    if ch in spec.denied:
        return Refusal(f"{spec.name}: option -{ch} is not allowed ({spec.denied[ch]})")
    return Refusal(f"{spec.name}: option -{ch} is not allowed (allowed: {_allowed_list(spec)})")


def check_args(spec: ToolSpec, args: List[str], guard: PathGuard) -> Set[str]:
    """Validate ``args`` (argv without the tool name). Returns the options seen."""
    seen: Set[str] = set()
    positionals: List[str] = []
    i, n, end_of_options = 0, len(args), False
    while i < n:
        a = args[i]
        if end_of_options or a == "-" or not a.startswith("-"):
            positionals.append(a)
        elif a == "--":
            end_of_options = True
        elif a.startswith("--"):
            name, eq, value = a[2:].partition("=")
            if name in spec.long:
                if eq:
                    raise Refusal(f"{spec.name}: option --{name} takes no value")
            elif name in spec.long_value:
                if not eq:
                    if i + 1 >= n:
                        raise Refusal(f"{spec.name}: option --{name} needs a value")
                    i += 1
                    value = args[i]
                spec.long_value[name](value, f"--{name}")
            else:
                raise _long_refusal(spec, name)
            seen.add(name)
        elif spec.numeric_shorthand and re.fullmatch(r"-\d{1,15}", a):
            seen.add("n")
        else:
            j = 1
            while j < len(a):
                ch = a[j]
                if ch in spec.short:
                    seen.add(ch)
                    j += 1
                    continue
                if ch in spec.short_value:
                    value = a[j + 1 :]
                    if not value:
                        if i + 1 >= n:
                            raise Refusal(f"{spec.name}: option -{ch} needs a value")
                        i += 1
                        value = args[i]
                    spec.short_value[ch](value, f"-{ch}")
                    seen.add(ch)
                    break
                raise _short_refusal(spec, ch)
        i += 1
    _check_positionals(spec, positionals, seen, guard)
    return seen


def _check_positionals(spec: ToolSpec, positionals: List[str], seen: Set[str], guard: PathGuard) -> None:
    kind = spec.positionals
    if spec.max_positionals is not None and len(positionals) > spec.max_positionals:
        raise Refusal(f"{spec.name}: at most {spec.max_positionals} operand(s) allowed")
    if kind == "none":
        if positionals:
            raise Refusal(f"{spec.name}: takes no operands")
        return
    if kind == "free":
        return
    if kind == "pattern_paths" and not (seen & spec.pattern_options):
        if not positionals:
            raise Refusal(f"{spec.name}: missing pattern")
        positionals = positionals[1:]
    if kind in ("paths", "pattern_paths"):
        recursive = bool(seen & spec.recursive)
        if recursive and not positionals:
            positionals = ["."]  # grep -r with no operand searches the working directory
        for p in positionals:
            if p == "-":
                continue  # standard input
            if recursive:
                guard.tree(p)
            else:
                guard.read(p)
        return
    if kind == "write":
        if not positionals:
            raise Refusal(f"{spec.name}: missing operand")
        for p in positionals:
            guard.write(p)
        return
    if kind in ("copy", "move"):
        if len(positionals) < 2:
            raise Refusal(f"{spec.name}: needs SOURCE... DEST")
        *sources, dest = positionals
        for src in sources:
            if kind == "copy":
                guard.tree(src)  # a copy of a hard-linked secret would have one link
            else:
                guard.write(src)  # the source name is removed
        dest_real = guard.write(dest)
        if os.path.isdir(dest_real):
            for src in sources:
                guard.write(os.path.join(os.path.relpath(dest_real, guard.root), os.path.basename(src.rstrip("/"))))
        return
    raise Refusal(f"{spec.name}: no argument policy")  # unknown kind: refuse, never guess
