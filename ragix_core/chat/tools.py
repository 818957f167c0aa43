"""The chat agent's three tools (spec 003 v2): repl, operator, search.

Each takes the orchestrator's ``tool_input`` (string values) and the thread's
earlier messages, and returns a ``ToolOutcome``; a failure is an outcome with an
``error`` (the orchestrator reads it and may fix the input or go on reasoning),
never an exception. Every call has a time limit.

- ``repl``: Python through the tool layer's ``python`` executor under the ``repl``
  profile (the same OS sandbox as everywhere, read-only project, no network,
  limits). Stateful within a thread: the thread's earlier cells are replayed
  before the new one (``repl_driver``), so a new thread starts clean and a thread
  read back from the store behaves the same.
- ``operator``: the tool layer's sympy/pint worker (math, units, logic).
- ``search``: the configured search providers (``chat.search``).
"""

from __future__ import annotations

import json
import re
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Dict, Iterable, List, Mapping, Optional, Sequence

from ragix_core import prompts
from ragix_core.core.events import EventBus, EventKind
from ragix_core.tools.preview import DryRunStop
from ragix_core.core.text import bounded, one_line
from ragix_core.core.types import ToolCall, ToolResult

from .messages import ChatMessage, tool_messages
from .search import SearchProvider, format_hits, search_all

__all__ = ["ToolOutcome", "ReplTool", "OperatorTool", "SearchTool", "ChatTools", "OUTPUT_CHARS",
           "repl_program", "operator_args"]

OUTPUT_CHARS = 4000  # of a tool's output kept in the thread (and shown to the models)
_REPL_BUDGET = 60_000  # characters of replayed + new code (the executor takes at most 64 KiB)
_ALIASES = {
    "code": ("code", "python", "source", "script"),
    "expression": ("expression", "expr", "quantity", "input", "formula"),
    "operation": ("operation", "op"),
    "to": ("to", "unit", "target", "to_unit"),
    "variable": ("variable", "var", "symbol"),
    "query": ("query", "q", "search", "keywords"),
    "sources": ("sources",),
}
_OPERATIONS = ("evaluate", "simplify", "expand", "factor", "solve", "diff", "integrate", "limit",
               "logic_simplify", "satisfiable", "convert")


@dataclass(frozen=True)
class ToolOutcome:
    output: str
    error: Optional[str] = None
    duration: float = 0.0
    meta: Dict[str, Any] = field(default_factory=dict)


def _shown_examples() -> frozenset:
    """The tool_input values the orchestrator's tool descriptions show as examples."""
    text = prompts.load("chat_tool_operator") + prompts.load("chat_tool_repl")
    return frozenset(" ".join(v.split()) for v in re.findall(r'"(?:expression|code)":\s*"((?:[^"\\]|\\.)*)"', text))


def _is_shown_example(value: str) -> bool:
    return " ".join(value.split()) in _shown_examples()


def _get(tool_input: Mapping[str, str], key: str) -> str:
    for alias in _ALIASES[key]:
        value = tool_input.get(alias)
        if isinstance(value, str) and value.strip():
            return value
    return ""


def _from_result(result: ToolResult, started: float, **meta: Any) -> ToolOutcome:
    out = (result.stdout or "").rstrip()
    err_text = (result.stderr or "").strip()
    if result.ok:
        if err_text:
            out = f"{out}\n[stderr]\n{err_text}" if out else f"[stderr]\n{err_text}"
        return ToolOutcome(bounded(out, OUTPUT_CHARS) or "(no output)", None, time.perf_counter() - started, meta)
    error = result.error or (err_text.splitlines()[-1] if err_text else f"exit status {result.returncode}")
    if result.error and err_text and err_text not in result.error:
        error = f"{result.error}: {one_line(err_text, 500)}"
    return ToolOutcome(bounded(out, OUTPUT_CHARS), one_line(error, 800), time.perf_counter() - started,
                       dict(meta, refused=result.refused))


# -- repl ------------------------------------------------------------------------


def _driver_source() -> str:
    return (Path(__file__).with_name("repl_driver.py")).read_text(encoding="utf-8")


def repl_program(cells: Sequence[str]) -> str:
    """The source the sandboxed interpreter runs: the driver, then ``main(cells)``."""
    return _driver_source() + "\nmain(" + repr(json.loads(json.dumps(list(cells)))) + ")\n"


def _earlier_cells(earlier: Sequence[ChatMessage]) -> List[str]:
    """Cells of this thread that ran (a refused or timed-out cell would only fail or hang again)."""
    return [m.meta["input"]["code"] for m in tool_messages(earlier)
            if m.meta.get("tool") == "repl" and m.meta.get("replayable") and isinstance(
                (m.meta.get("input") or {}).get("code"), str)]


class ReplTool:
    name = "repl"

    def __init__(self, toolbox: Any) -> None:
        self.toolbox = toolbox  # ToolBox(profile="repl")

    def run(self, tool_input: Mapping[str, str], earlier: Sequence[ChatMessage]) -> ToolOutcome:
        started = time.perf_counter()
        code = _get(tool_input, "code")
        if not code:
            return ToolOutcome("", "repl needs tool_input.code: the Python source to run", 0.0,
                               {"replayable": False})
        if _is_shown_example(code):
            return ToolOutcome("", "repl: this code is the example from the instructions, not this question: "
                                   "write the code for the question itself", 0.0, {"replayable": False})
        cells = _earlier_cells(earlier)
        dropped = 0
        while cells and len(repl_program(cells + [code])) > _REPL_BUDGET:
            cells.pop(0)
            dropped += 1
        program = repl_program(cells + [code])
        if len(program) > _REPL_BUDGET:
            return ToolOutcome("", f"repl code too long ({len(code)} characters)", 0.0, {"replayable": False})
        result = self.toolbox.run(ToolCall("python", {"code": program}))
        timed_out = bool(result.error and "timed out" in result.error)
        meta: Dict[str, Any] = {"replayable": not (result.refused or timed_out), "replayed_cells": len(cells)}
        if dropped:
            meta["dropped_cells"] = dropped
        return _from_result(result, started, **meta)


# -- operator --------------------------------------------------------------------


def operator_args(tool_input: Mapping[str, str]) -> Dict[str, Any]:
    """The operator worker's request from the orchestrator's input; ValueError naming what is missing."""
    expression = _get(tool_input, "expression")
    to = _get(tool_input, "to")
    operation = (_get(tool_input, "operation") or ("convert" if to else "evaluate")).strip().lower()
    if operation not in _OPERATIONS:
        raise ValueError(f"unknown operation {operation!r}; operations: {', '.join(_OPERATIONS)}")
    # A small model copies what it is shown: an error names what is missing in words, never with an
    # example it could paste, and an input equal to the instructions' own example is refused. Measured
    # (issue 34, an unseen chat asking for a rectangle's area): the orchestrator ran the example of
    # this error message and answered its value as the area.
    if not expression:
        raise ValueError("operator needs tool_input.expression: the computation written with the numbers of "
                         "the question (or a quantity with its unit, to convert)")
    if _is_shown_example(expression):
        raise ValueError(f"tool_input.expression {expression!r} is the example from the instructions, not this "
                         "question: write the computation with the question's own numbers")
    if operation == "convert":
        if not to:
            raise ValueError("convert needs tool_input.to: the unit to convert the quantity to")
        return {"op": "convert", "quantity": expression, "to": to}
    args: Dict[str, Any] = {"op": operation, "expr": expression}
    variable = _get(tool_input, "variable")
    if variable:
        args["var"] = variable
    for key in ("lower", "upper", "point", "order", "digits"):
        if tool_input.get(key):
            args[key] = tool_input[key]
    return args


class OperatorTool:
    name = "operator"

    def __init__(self, toolbox: Any) -> None:
        self.toolbox = toolbox

    def run(self, tool_input: Mapping[str, str], earlier: Sequence[ChatMessage]) -> ToolOutcome:
        started = time.perf_counter()
        try:
            args = operator_args(tool_input)
        except ValueError as exc:
            return ToolOutcome("", str(exc), 0.0)
        for key in ("order", "digits"):
            if key in args:
                try:
                    args[key] = int(args[key])
                except ValueError:
                    return ToolOutcome("", f"operator: {key} must be a whole number, got {args[key]!r}", 0.0)
        return _from_result(self.toolbox.run(ToolCall("operator", args)), started, request=args)


# -- search ----------------------------------------------------------------------


def close_each(items: Iterable[Any]) -> None:
    """Call ``close()`` on each item that has one."""
    for item in items:
        closer = getattr(item, "close", None)
        if callable(closer):
            closer()


class SearchTool:
    name = "search"

    def __init__(self, providers: Sequence[SearchProvider], top_k: int, timeout: float,
                 notes: Sequence[str] = (), bus: Optional[EventBus] = None, session_id: str = "") -> None:
        self.providers = list(providers)
        self.top_k = top_k
        self.timeout = timeout
        self.notes = list(notes)
        self.bus = bus
        self.session_id = session_id

    def close(self) -> None:
        """Close the providers that hold something open (``close`` is optional in their protocol)."""
        close_each(self.providers)

    def run(self, tool_input: Mapping[str, str], earlier: Sequence[ChatMessage]) -> ToolOutcome:
        started = time.perf_counter()
        query = _get(tool_input, "query")
        if not query:
            return ToolOutcome("", "search needs tool_input.query: a few keywords", 0.0)
        if not self.providers:
            return ToolOutcome("", "no search source is configured here: " + "; ".join(self.notes), 0.0)
        providers = self.providers
        only = _get(tool_input, "sources")  # "docs": ragix's own search of the user's documents (chat/nodes.py)
        if only:
            wanted = {n.strip() for n in only.split(",")}
            providers = [p for p in self.providers if p.name in wanted]
            if not providers:
                return ToolOutcome("", f"no search source named {only!r} here", 0.0)
        hits, errors = search_all(providers, query, self.top_k, self.timeout)
        duration = time.perf_counter() - started
        if self.bus is not None:  # the other tools' processes are published by the tool box
            self.bus.publish(EventKind.TOOL_CALL, self.session_id, tool="search", call_tool="search",
                             command=f"search {one_line(query, 200)}", argv=[], returncode=0 if hits or not errors
                             else 1, refused=False, reason="; ".join(errors) or None, duration=duration,
                             truncated=False)
        sources = [{"source": h.source, "title": h.title, "ref": h.ref} for h in hits]
        output = format_hits(hits)
        if errors and not hits:
            return ToolOutcome("", "search failed: " + "; ".join(errors), duration, {"sources": sources})
        if errors:
            output += "\n\n(not searched: " + "; ".join(errors) + ")"
        return ToolOutcome(bounded(output, OUTPUT_CHARS), None, duration, {"sources": sources})


# -- the set ---------------------------------------------------------------------


class ChatTools:
    """The tools of one chat, by name. ``run`` never raises."""

    def __init__(self, tools: Sequence[Any]) -> None:
        self.tools: Dict[str, Any] = {t.name: t for t in tools}

    @property
    def names(self) -> List[str]:
        return list(self.tools)

    @property
    def searches_documents(self) -> bool:
        """The search tool reads the user's own documents (``--docs DIR``), not only memory or the web."""
        search = self.tools.get("search")
        return any(getattr(p, "name", "") == "docs" for p in getattr(search, "providers", ()))

    def close(self) -> None:
        """Release what the tools hold open (a search's document index); the chat is over."""
        close_each(self.tools.values())

    def run(self, name: str, tool_input: Mapping[str, str], earlier: Sequence[ChatMessage]) -> ToolOutcome:
        tool = self.tools.get(name)
        if tool is None:
            return ToolOutcome("", f"tool {name!r} is not available here; available: {', '.join(self.tools) or 'none'}")
        started = time.perf_counter()
        try:
            return tool.run(tool_input, earlier)
        except DryRunStop:
            raise  # a dry run ends at its first tool call, whatever the engine
        except Exception as exc:  # a bug in a tool must not end the conversation
            return ToolOutcome("", f"internal error in {name}: {type(exc).__name__}: {one_line(exc, 300)}",
                               time.perf_counter() - started)

