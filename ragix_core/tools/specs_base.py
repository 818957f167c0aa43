"""What a tool's argument policy is made of: the ToolSpec record and the value checks its
options use (shared by the core tools in specs.py and the everyday vocabulary in specs_more.py)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Callable, FrozenSet, Mapping, Optional

from ragix_core.tools.refusal import Refusal

__all__ = ["ToolSpec", "Value", "NUM", "LIST", "KEY", "CHAR", "ANY", "pattern_value", "choice_value"]

Value = Callable[[str, str], None]  # (value, option name) -> None or Refusal


def pattern_value(regex: str, what: str) -> Value:
    compiled = re.compile(regex)

    def check(value: str, option: str) -> None:
        if not compiled.fullmatch(value):
            raise Refusal(f"option {option} expects {what}, got {value!r}")

    return check


def choice_value(*choices: str) -> Value:
    def check(value: str, option: str) -> None:
        if value not in choices:
            raise Refusal(f"option {option} accepts {', '.join(choices)}; got {value!r}")

    return check


def _any(value: str, option: str) -> None:  # free text (patterns, formats); the lexer already refused control chars
    return None


NUM = pattern_value(r"[+-]?\d{1,15}[A-Za-z]{0,3}", "a number")
LIST = pattern_value(r"[0-9,\-]{1,200}", "a list like 1,3-5")
KEY = pattern_value(r"[0-9.,a-zA-Z]{1,50}", "a sort key like 2,2n")
CHAR = pattern_value(r"(?s).{1}", "a single character")
ANY = _any


@dataclass(frozen=True)
class ToolSpec:
    name: str
    short: str = ""  # single-letter options without a value
    short_value: Mapping[str, Value] = field(default_factory=dict)
    long: FrozenSet[str] = frozenset()
    long_value: Mapping[str, Value] = field(default_factory=dict)
    # "paths": every positional is a path read; "pattern_paths": first is a
    # pattern unless a pattern option was given; "free": not paths (tr sets);
    # "none": no positionals; "write": every positional is written;
    # "copy": sources read, last one written.
    positionals: str = "paths"
    max_positionals: Optional[int] = None
    numeric_shorthand: bool = False  # head -5 / tail -5
    recursive: FrozenSet[str] = frozenset()  # options that make the tool read whole trees
    pattern_options: FrozenSet[str] = frozenset()
    writes: bool = False
    denied: Mapping[str, str] = field(default_factory=dict)  # option -> why (clearer refusals)
    writes_when: FrozenSet[str] = frozenset()  # options that make a reader write (sed -i)
    write_operands: bool = False  # with a writes_when option, the file operands are written in place
    # (args, ArgReport, PathGuard) -> None or Refusal: a tool's own rule beyond its options (awk's program)
    extra_check: Optional[Callable[[Any, Any, Any], None]] = None
