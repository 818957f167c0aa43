"""Check one tool's argv against its ToolSpec, the way GNU getopt would read it.

GNU getopt permutes: an option after a file name is still an option, so every
word starting with '-' (other than '-' itself) is parsed as an option until
'--'. Short options may be clustered (``-la``) and a value may be attached
(``-n5``) or be the next word. Long options must match exactly.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from typing import Dict, List, Set, Tuple

from ragix_core.tools.paths import PathGuard, TreeScan
from ragix_core.tools.policy import protected_reason
from ragix_core.tools.refusal import Refusal
from ragix_core.tools.specs_base import ToolSpec

__all__ = ["check_args", "ArgReport"]


@dataclass
class ArgReport:
    """What check_args learned: the options seen (with their values), which words are
    operands, and for a recursive reader the tree scan of each operand."""

    seen: Set[str] = field(default_factory=set)
    values: Dict[str, List[str]] = field(default_factory=dict)
    operands: List[int] = field(default_factory=list)  # indices into args of path operands
    scans: List[Tuple[str, TreeScan]] = field(default_factory=list)
    writes: bool = False
    args: "List[str] | None" = None  # the argv to run instead, when the checker adds options (tar)
    positionals: List[str] = field(default_factory=list)  # the operand words as getopt reads them (after "--" too)


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


def check_args(spec: ToolSpec, args: List[str], guard: PathGuard) -> ArgReport:
    """Validate ``args`` (argv without the tool name)."""
    report = ArgReport()
    seen = report.seen
    positionals: List[Tuple[int, str]] = []
    i, n, end_of_options = 0, len(args), False
    while i < n:
        a = args[i]
        if end_of_options or a == "-" or not a.startswith("-"):
            positionals.append((i, a))
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
                report.values.setdefault(name, []).append(value)
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
                    report.values.setdefault(ch, []).append(value)
                    seen.add(ch)
                    break
                raise _short_refusal(spec, ch)
        i += 1
    report.writes = spec.writes or bool(seen & spec.writes_when)
    report.positionals = [a for _, a in positionals]
    if spec.extra_check is not None:
        spec.extra_check(args, report, guard)
    _check_positionals(spec, positionals, report, guard)
    return report


def _check_positionals(spec: ToolSpec, indexed: List[Tuple[int, str]], report: ArgReport, guard: PathGuard) -> None:
    kind = spec.positionals
    seen = report.seen
    positionals = [a for _, a in indexed]
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
        indexed, positionals = indexed[1:], positionals[1:]
    if kind in ("paths", "pattern_paths"):
        if report.writes and spec.write_operands:
            for p in positionals:
                if p != "-":
                    guard.write(p)
                    guard.read(p)  # edited in place: it is read first
            report.operands = [i for i, a in indexed if a != "-"]
            return
        recursive = bool(seen & spec.recursive)
        if recursive and not positionals:
            report.scans.append(("", guard.scan(".", shown="")))  # grep -r alone searches "." and prints bare names
        for i, p in indexed:
            if p == "-":
                continue  # standard input
            report.operands.append(i)
            if recursive:
                report.scans.append((p, guard.scan(p)))
            else:
                guard.read(p)
        return
    if kind == "write":
        if not positionals:
            raise Refusal(f"{spec.name}: missing operand")
        for p in positionals:
            if seen & spec.recursive:
                guard.write_tree(p, hardlinks_ok=spec.name == "rm")
            else:
                guard.write(p)
        return
    if kind == "mode_write":  # chmod MODE FILE...: the mode was checked by the spec's extra_check
        if len(positionals) < 2:
            raise Refusal(f"{spec.name}: needs MODE FILE...")
        for p in positionals[1:]:
            if seen & spec.recursive:
                guard.write_tree(p, hardlinks_ok=False)  # a mode change reaches every name of an inode
            else:
                real = guard.write(p)
                if os.path.exists(real) and os.stat(real).st_nlink > 1 and not os.path.isdir(real):
                    raise Refusal(f"{spec.name}: {p!r} has several hard links")
        return
    if kind == "link":
        _check_symlink(spec, positionals, seen, guard)
        return
    if kind in ("copy", "move"):
        if len(positionals) < 2:
            raise Refusal(f"{spec.name}: needs SOURCE... DEST")
        *sources, dest = positionals
        for src in sources:
            if kind == "copy":
                guard.tree(src)  # a copy of a hard-linked secret would have one link
            else:
                guard.write_tree(src)  # the source name is removed; a repository inside may not move
        dest_real = guard.write(dest)
        into_dir = os.path.isdir(dest_real) and not ({"T", "no-target-directory"} & seen)
        for src in sources:
            src_real = guard.read(src)
            if into_dir:
                target = guard.write(os.path.join(os.path.relpath(dest_real, guard.root),
                                                  os.path.basename(src.rstrip("/"))))
            else:
                target = dest_real
            if kind == "copy" and os.path.isdir(target):
                guard.copy_into(src_real, target)  # merged into an existing tree
            elif kind == "copy" and os.path.isdir(src_real):
                guard.copy_into(src_real, target)  # a new tree: still no .git may appear in it
        return
    raise Refusal(f"{spec.name}: no argument policy")  # unknown kind: refuse, never guess


def _check_symlink(spec: ToolSpec, positionals: List[str], seen: Set[str], guard: PathGuard) -> None:
    """ln -s TARGET LINK: the link is a written path; its target, read from the link's own
    directory, must resolve inside the project and name nothing protected or hidden."""
    if len(positionals) != 2:
        raise Refusal("ln: use ln -s TARGET LINK (exactly two operands)")
    target, link = positionals
    if os.path.isabs(target):
        raise Refusal("ln: absolute link targets are refused; use a relative target inside the project")
    link_real = guard.write(link)
    if os.path.isdir(link_real) and not ({"T", "no-target-directory", "n", "no-dereference"} & seen):
        link_real = guard.write(os.path.join(os.path.relpath(link_real, guard.root), os.path.basename(target)))
    base = guard.root if {"r", "relative"} & seen else os.path.dirname(link_real)
    rel = os.path.relpath(os.path.join(base, target), guard.root)
    guard.read(rel)  # inside the root, not ragix's state, not a FIFO or hard link
    why = protected_reason(os.path.relpath(os.path.realpath(os.path.join(guard.root, rel)), guard.root))
    if why:
        raise Refusal(f"ln: the target {target!r} is protected: {why}")
