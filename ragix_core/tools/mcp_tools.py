"""A server's MCP tools as ToolBox executors named ``mcp.<server>.<tool>``.

A call is checked against the tool's input schema before it is sent (a mismatch is a refusal
naming the field), its result becomes a ToolResult like a command's (text on stdout, a tool error
on stderr with returncode 1, output cut at the box's limit), and it is one TOOL_CALL event in the
trace. A failing server gives a failed ToolResult whose error starts with the failure's name
(``mcp_server_died: ...``, see mcp_session.py): a failed step the engine can reflect on. A server
that died or hung is unavailable for the rest of the run: a later call to it is refused with that
failure (no new process), and its tools are no longer offered (``available``). A run that ends
without an answer after such a failure stops with its name (``server_failure``).

What a server says about itself is data: its descriptions are cut and shown to the model as
quoted text, and nothing it says changes which tools exist, what the profile allows, or how a
result is judged. Only tools whose names are plain words, and that the config allows, are offered.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from typing import Any, Callable, Dict, List, Optional, Sequence

from ragix_core.core.types import ToolCall, ToolResult
from ragix_core.tools.mcp_session import FAILURE_KINDS, McpFailure, RemoteTool
from ragix_core.tools.refusal import Refusal
from ragix_core.tools.toolbox import REFUSED_RC

__all__ = ["McpToolSet", "ToolOffer", "PREFIX", "failure_kind", "server_failure", "DESCRIPTION_CHARS"]

PREFIX = "mcp."
DESCRIPTION_CHARS = 300  # a tool's description as the model sees it, at most
SCHEMA_CHARS = 1500  # its input schema, as JSON text, at most (a longer one: the tool is not offered)
_TOOL_NAME_CHARS = set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-")

Publish = Callable[..., None]


@dataclass(frozen=True)
class ToolOffer:
    """What the planner is shown of one remote tool."""

    name: str  # mcp.<server>.<tool>
    description: str
    input_schema: Dict[str, Any]


def failure_kind(result: ToolResult) -> Optional[str]:
    """The server failure a result reports (mcp_server_died, ...), or None."""
    head = (result.error or "").split(":", 1)[0]
    return head if head in FAILURE_KINDS else None


def server_failure(results: Sequence[Optional[ToolResult]]) -> Optional[str]:
    """The first MCP server failure among ``results`` (a run's step results), or None."""
    for result in results:
        kind = failure_kind(result) if result is not None else None
        if kind:
            return kind
    return None


def _plain(name: str) -> bool:
    return 0 < len(name) <= 64 and set(name) <= _TOOL_NAME_CHARS


class McpToolSet:
    def __init__(self, server: str, session: Any, listed: Sequence[RemoteTool], allowed: Optional[Sequence[str]],
                 output_bytes: int, publish: Publish) -> None:
        self.server, self.session, self.output_bytes, self.publish = server, session, output_bytes, publish
        wanted = set(allowed) if allowed is not None else None
        self.tools: Dict[str, RemoteTool] = {}
        self.skipped: List[str] = []  # listed but not offered, each with why (for doctor and the trace)
        for tool in listed:
            why = self._unfit(tool, wanted)
            if why:
                self.skipped.append(f"{tool.name[:80]!r}: {why}")
            else:
                self.tools[tool.name] = tool

    @staticmethod
    def _unfit(tool: RemoteTool, wanted: Optional[set]) -> Optional[str]:
        if not _plain(tool.name):
            return "its name is not a plain word"
        if wanted is not None and tool.name not in wanted:
            return "not in the config's tools"
        if tool.input_schema.get("type", "object") != "object":
            return "its input schema is not an object"
        if len(json.dumps(tool.input_schema)) > SCHEMA_CHARS:
            return f"its input schema is longer than {SCHEMA_CHARS} characters"
        return None

    @property
    def unavailable(self) -> Optional[McpFailure]:
        """Why this server may not be called again in this run (it died or hung), or None."""
        return getattr(self.session, "broken", None)

    def offers(self) -> List[ToolOffer]:
        return [ToolOffer(f"{PREFIX}{self.server}.{t.name}", " ".join(t.description.split())[:DESCRIPTION_CHARS],
                          t.input_schema) for t in self.tools.values()]

    def executors(self) -> Dict[str, Callable[[ToolCall], ToolResult]]:
        return {f"{PREFIX}{self.server}.{name}": self._executor(name) for name in self.tools}

    def _executor(self, name: str) -> Callable[[ToolCall], ToolResult]:
        return lambda call: self.run(name, call)

    def run(self, name: str, call: ToolCall) -> ToolResult:
        """Refusal (raised, the box records it) for arguments the schema rejects; else a result."""
        args = call.args if isinstance(call.args, dict) else None
        if args is None:
            raise Refusal(f"{call.tool}: arguments must be a JSON object")
        problem = schema_problem(self.tools[name].input_schema, args)
        if problem:
            raise Refusal(f"{call.tool}: arguments do not match the tool's input schema: {problem}")
        shown = f"{call.tool} {json.dumps(args, ensure_ascii=False, sort_keys=True)}"
        if self.unavailable is not None:
            return self._refused_unavailable(call.tool, shown, self.unavailable)
        start = time.perf_counter()
        try:
            reply = self.session.call(name, args)
            result = self._result(call.tool, reply, shown)
        except McpFailure as exc:
            result = ToolResult(tool=call.tool, returncode=1, error=str(exc), command=shown)
        self.publish(tool=call.tool, command=shown, argv=[], returncode=result.returncode, refused=False,
                     reason=result.error, duration=time.perf_counter() - start, truncated=result.truncated,
                     call_tool=call.tool)
        return result

    def _refused_unavailable(self, tool: str, shown: str, failure: McpFailure) -> ToolResult:
        """A call to a server that already died or hung: refused at once, with that failure's name
        first (the step fails as the first call did) and no attempt to start the server again."""
        error = f"{failure.kind}: server {self.server!r} is unavailable for the rest of this run ({failure.message})"
        self.publish(tool=tool, command=shown, argv=[], returncode=REFUSED_RC, refused=True, reason=error, duration=0.0,
                     truncated=False, call_tool=tool)
        return ToolResult(tool=tool, returncode=REFUSED_RC, error=error, refused=True, command=shown)

    def _result(self, tool: str, reply: Any, shown: str) -> ToolResult:
        parts: List[str] = []
        for item in getattr(reply, "content", None) or []:
            text = getattr(item, "text", None)
            parts.append(text if isinstance(text, str) else f"[{getattr(item, 'type', 'content')} content]")
        structured = getattr(reply, "structured_content", None)
        if not parts and structured is not None:
            parts.append(json.dumps(structured, ensure_ascii=False, sort_keys=True))
        data = "\n".join(parts).encode("utf-8", "replace")
        truncated = len(data) > self.output_bytes
        text = data[: self.output_bytes].decode("utf-8", "ignore")
        if getattr(reply, "is_error", False):
            return ToolResult(tool=tool, returncode=1, stderr=text, truncated=truncated, command=shown,
                              error=f"the tool reported an error: {' '.join(text.split())[:200]}")
        return ToolResult(tool=tool, returncode=0, stdout=text, truncated=truncated, command=shown)


def schema_problem(schema: Dict[str, Any], args: Dict[str, Any]) -> Optional[str]:
    """The first way ``args`` breaks ``schema`` (field path and reason), or None."""
    import jsonschema

    try:
        validator = jsonschema.validators.validator_for(schema, default=jsonschema.Draft202012Validator)
        validator.check_schema(schema)
    except jsonschema.SchemaError as exc:
        return f"the server's schema itself is invalid ({exc.message[:200]})"
    error = jsonschema.exceptions.best_match(validator(schema).iter_errors(args))
    if error is None:
        return None
    where = ".".join(str(p) for p in error.absolute_path) or "(the arguments)"
    return f"{where}: {error.message[:300]}"
