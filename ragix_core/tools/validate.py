"""Layer 1: turn a command (string or argv) into validated pipeline stages.

Tool names are exact and resolved to absolute paths in fixed system
directories (never through $PATH, never a path given by the model). Each stage
is checked on its own by the tool's argument policy; ``xargs`` is not run as a
program but interpreted by the executor (see pipeline.py), so the items it
appends are validated as paths at run time too.
"""

from __future__ import annotations

import functools
import os
import re
from dataclasses import dataclass, field
from typing import Any, Callable, Collection, List, Optional, TypeVar

from ragix_core.tools.argcheck import check_args
from ragix_core.tools.findcheck import check_find
from ragix_core.tools.globbing import expand_globs
from ragix_core.tools.lexer import check_text, split_pipeline
from ragix_core.tools.paths import PathGuard
from ragix_core.tools.refusal import Refusal
from ragix_core.tools.specs import NUM, SPECS

__all__ = ["Stage", "XargsPlan", "Validator", "resolve_tool", "SYSTEM_BIN_DIRS"]

SYSTEM_BIN_DIRS = ("/usr/bin", "/bin", "/usr/sbin", "/sbin")
F = TypeVar("F", bound=Callable[..., Any])
_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.+-]{0,63}")


def _refuse_on_error(fn: F) -> F:
    """Any unexpected exception inside validation means "refuse", never "run"."""

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return fn(*args, **kwargs)
        except Refusal:
            raise
        except Exception as exc:
            raise Refusal(f"validation failed ({type(exc).__name__}: {exc}); refusing") from None

    return wrapper  # type: ignore[return-value]


def resolve_tool(name: str) -> str:
    """Absolute path of tool ``name`` in the fixed system directories, or Refusal."""
    if not isinstance(name, str) or not _NAME.fullmatch(name):
        raise Refusal(f"tool name {name!r} is not a plain tool name (paths such as ./ls or /bin/ls are refused)")
    for d in SYSTEM_BIN_DIRS:
        candidate = os.path.join(d, name)
        if os.path.isfile(candidate) and os.access(candidate, os.X_OK):
            return candidate
    raise Refusal(f"tool {name!r} is not installed in {', '.join(SYSTEM_BIN_DIRS)}")


@dataclass
class XargsPlan:
    tool: str
    fixed: List[str]  # the target's own arguments, already validated
    null: bool = False
    max_args: int = 1000
    no_run_if_empty: bool = False


@dataclass
class Stage:
    tool: str
    argv: List[str]  # argv[0] is the absolute executable path
    writes: bool = False
    xargs: Optional[XargsPlan] = None
    words: List[str] = field(default_factory=list)  # as the model wrote them


class Validator:
    def __init__(self, guard: PathGuard, tools: Collection[str], *, writes_allowed: bool, any_command: bool) -> None:
        self.guard = guard
        self.tools = set(tools)
        self.writes_allowed = writes_allowed
        self.any_command = any_command

    @_refuse_on_error
    def command(self, text: str) -> List[Stage]:
        stages = [expand_globs(words[0], words, self.guard.root) for words in split_pipeline(text)]
        return [self.stage(words, first=(i == 0)) for i, words in enumerate(stages)]

    @_refuse_on_error
    def stage(self, words: List[str], first: bool = True) -> Stage:
        if not isinstance(words, list) or not words or not all(isinstance(w, str) for w in words):
            raise Refusal("a command needs a tool name followed by string arguments")
        for w in words:
            check_text(w, "argument")
        name, args = words[0], words[1:]
        if name == "xargs":
            if first:
                raise Refusal("xargs needs input from a previous pipeline stage")
            return self._xargs(args, words)
        self._check_tool_name(name)
        path = resolve_tool(name)
        writes = self.check_argv(name, args)
        return Stage(tool=name, argv=[path] + list(args), writes=writes, words=list(words))

    def _check_tool_name(self, name: str) -> None:
        if self.any_command:
            return
        if name not in self.tools:
            allowed = ", ".join(sorted(t for t in self.tools if t in SPECS)) or "none"
            raise Refusal(f"tool {name!r} is not allowed in this profile (allowed: {allowed})")

    def check_argv(self, name: str, args: List[str]) -> bool:
        """Validate the arguments of one tool; return whether it writes."""
        if self.any_command:
            return True  # sovereign: any argv; the OS layer confines it, so treat it as a writer
        spec = SPECS.get(name)
        if spec is None:
            raise Refusal(f"tool {name!r} has no argument policy")
        if spec.writes and not self.writes_allowed:
            raise Refusal(f"{name} writes files; this profile is read-only")
        if spec.positionals == "find":
            check_find(args, self.guard)
        else:
            check_args(spec, args, self.guard)
        return spec.writes

    def _xargs(self, args: List[str], words: List[str]) -> Stage:
        plan = XargsPlan(tool="", fixed=[])
        i = 0
        while i < len(args) and args[i].startswith("-"):
            a = args[i]
            if a in ("-0", "--null"):
                plan.null = True
            elif a in ("-r", "--no-run-if-empty"):
                plan.no_run_if_empty = True
            elif a == "-n" or a == "--max-args":
                if i + 1 >= len(args):
                    raise Refusal(f"xargs: {a} needs a value")
                i += 1
                plan.max_args = self._max_args(args[i])
            elif a.startswith("--max-args="):
                plan.max_args = self._max_args(a.split("=", 1)[1])
            elif re.fullmatch(r"-n\d+", a):
                plan.max_args = self._max_args(a[2:])
            else:
                raise Refusal(f"xargs: option {a} is not allowed (allowed: -0 --null -r --no-run-if-empty -n N --max-args=N)")
            i += 1
        if i >= len(args):
            raise Refusal("xargs: name the tool to run (e.g. xargs wc -l)")
        tool, fixed = args[i], args[i + 1 :]
        if tool == "xargs":
            raise Refusal("xargs: nested xargs is not allowed")
        self._check_tool_name(tool)
        spec = SPECS.get(tool)
        if spec is not None and spec.writes:
            raise Refusal(f"xargs: {tool} writes files; xargs may only run read-only tools")
        resolve_tool(tool)
        self.check_argv(tool, fixed)  # the fixed part alone; items are checked at run time
        plan.tool, plan.fixed = tool, list(fixed)
        return Stage(tool="xargs", argv=["xargs"] + list(args), xargs=plan, words=list(words))

    @staticmethod
    def _max_args(value: str) -> int:
        NUM(value, "-n")
        n = int(value)
        if not 1 <= n <= 1000:
            raise Refusal("xargs: -n must be between 1 and 1000")
        return n

    @_refuse_on_error
    def xargs_argv(self, plan: XargsPlan, items: List[str]) -> List[str]:
        """Full argv for one xargs batch; the items are validated as paths (after '--')."""
        fixed = list(plan.fixed)
        tail = items if "--" in fixed else ["--"] + items
        args = fixed + tail
        self.check_argv(plan.tool, args)
        return [resolve_tool(plan.tool)] + args
