"""One connection to an MCP server, used from synchronous code (the engines and the ToolBox).

The SDK is async and its client must be entered and left in one task, so each session owns an
event loop in a thread whose single task opens the client, serves calls from a queue, and closes
it. Every way a server can fail is a ``McpFailure`` with a name the run's stop reason takes:

    mcp_server_died      the process ended, or the connection closed
    mcp_server_timeout   no answer within the server's timeout (the session is then closed)
    mcp_bad_reply        the server answered something that is not MCP (a reply, a listing)
    mcp_unavailable      it could not be started or reached at all

A server that died, hung or could not be opened is then broken for the rest of its run: it is
closed, never restarted, and later calls fail at once with that first failure. A reply to one call
that is not MCP breaks only that call: the server is alive, and its other tools may still answer.
"""

from __future__ import annotations

import asyncio
import threading
from concurrent.futures import TimeoutError as FutureTimeout
from dataclasses import dataclass
from typing import Any, Dict, List, Optional

__all__ = ["McpFailure", "McpSession", "RemoteTool", "FAILURE_KINDS"]

FAILURE_KINDS = ("mcp_server_died", "mcp_server_timeout", "mcp_bad_reply", "mcp_unavailable")
_CLOSE = object()


class McpFailure(Exception):
    def __init__(self, kind: str, message: str) -> None:
        assert kind in FAILURE_KINDS, kind
        super().__init__(f"{kind}: {message}")
        self.kind, self.message = kind, message


@dataclass(frozen=True)
class RemoteTool:
    name: str
    description: str
    input_schema: Dict[str, Any]


def _classify(exc: BaseException, what: str) -> McpFailure:
    """Which failure an exception from the SDK or its transport is."""
    from pydantic import ValidationError

    from mcp.shared.exceptions import MCPError

    if isinstance(exc, McpFailure):
        return exc
    if isinstance(exc, (ValidationError, ValueError, TypeError)) and not isinstance(exc, MCPError):
        return McpFailure("mcp_bad_reply", f"{what}: not an MCP reply ({type(exc).__name__}: {str(exc)[:300]})")
    if isinstance(exc, MCPError) and "timed out" in str(exc):
        return McpFailure("mcp_server_timeout", f"{what}: {exc}")
    if isinstance(exc, MCPError) and getattr(exc, "code", None) not in (-32000, None):
        return McpFailure("mcp_bad_reply", f"{what}: {exc}")
    if isinstance(exc, BaseExceptionGroup):
        first = exc.exceptions[0] if exc.exceptions else exc
        return _classify(first, what)
    return McpFailure("mcp_server_died", f"{what}: {type(exc).__name__}: {str(exc)[:300] or 'connection closed'}")


def _fail(future: Any, exc: BaseException) -> None:
    """Hand ``exc`` to whoever waits on ``future``; a waiter that already gave up (timed out) is
    not there to read it, so it is marked read (asyncio would log it as never retrieved)."""
    if future is not None and not future.done():
        future.set_exception(exc)
        future.exception()


def _server_log() -> Any:
    """ragix's standard error as a stream a child process can inherit (it must have a descriptor)."""
    import os
    import sys

    stream = sys.__stderr__
    try:
        if stream is not None and not stream.closed:
            stream.fileno()
            return stream
    except (OSError, ValueError):
        pass
    return open(os.devnull, "w")  # noqa: SIM115 - lives as long as the server it is given to


class McpSession:
    """``McpSession(server, timeout).open()`` lists the tools; ``call(name, args)`` returns the SDK's
    CallToolResult; ``close()`` ends the server (idempotent). ``server``: whatever ``mcp.Client``
    takes (stdio parameters, a URL, a transport)."""

    def __init__(self, server: Any, name: str, timeout: float) -> None:
        self.server, self.name, self.timeout = server, name, timeout
        self.broken: Optional[McpFailure] = None
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, name=f"ragix-mcp-{name}", daemon=True)
        self._queue: Optional["asyncio.Queue[Any]"] = None
        self._ready: "asyncio.Future[List[RemoteTool]] | None" = None
        self._owner: Any = None
        self._opened = False  # it listed its tools: a bad reply after that is one call's, not the server's

    # -- synchronous API -----------------------------------------------------------------------
    def open(self) -> List[RemoteTool]:
        self._thread.start()
        self._owner = asyncio.run_coroutine_threadsafe(self._own(), self._loop)
        ready = asyncio.run_coroutine_threadsafe(self._wait_ready(), self._loop)
        listed = self._result(ready, "starting and listing tools")
        self._opened = True
        return listed

    def call(self, tool: str, arguments: Dict[str, Any]) -> Any:
        if self.broken is not None:
            raise self.broken
        done = asyncio.run_coroutine_threadsafe(self._submit(tool, arguments), self._loop)
        return self._result(done, f"calling {tool}")

    def close(self) -> None:
        if not self._thread.is_alive():
            return
        if self._queue is not None:
            self._loop.call_soon_threadsafe(self._queue.put_nowait, _CLOSE)
        if self._owner is not None:
            try:
                self._owner.result(timeout=10)
            except BaseException:  # noqa: BLE001 - closing a broken server: its end is not news
                self._owner.cancel()
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(timeout=10)

    # -- inside the loop -----------------------------------------------------------------------
    def _result(self, future: Any, what: str) -> Any:
        try:
            return future.result(timeout=self.timeout + 5)
        except FutureTimeout:
            failure = McpFailure("mcp_server_timeout", f"server {self.name!r} gave no answer in "
                                                       f"{self.timeout:g}s while {what}")
        except BaseException as exc:  # noqa: BLE001 - every failure becomes a named one
            failure = _classify(exc, f"server {self.name!r} {what}")
        if failure.kind == "mcp_bad_reply" and self._opened and self._owner is not None and not self._owner.done():
            raise failure  # one reply was garbage; the open connection still serves the next call
        self.broken = self.broken or failure
        self.close()
        raise failure

    async def _wait_ready(self) -> List[RemoteTool]:
        while self._ready is None:
            await asyncio.sleep(0.01)
        return await asyncio.wait_for(asyncio.shield(self._ready), self.timeout)

    async def _submit(self, tool: str, arguments: Dict[str, Any]) -> Any:
        assert self._queue is not None
        reply: "asyncio.Future[Any]" = self._loop.create_future()
        await self._queue.put((tool, arguments, reply))
        return await asyncio.wait_for(reply, self.timeout)

    def _transport(self) -> Any:
        """What ``mcp.Client`` connects to: a stdio server's stderr goes to ragix's own (fd 2) at
        the time it starts, not to whatever ``sys.stderr`` was when the SDK was imported (a stream
        a test harness may have closed since: measured, every later start failed on it)."""
        from mcp import StdioServerParameters
        from mcp.client.stdio import stdio_client

        if not isinstance(self.server, StdioServerParameters):
            return self.server
        return stdio_client(self.server, errlog=_server_log())

    async def _own(self) -> None:
        from mcp import Client

        self._queue = asyncio.Queue()
        self._ready = self._loop.create_future()
        try:
            async with Client(self._transport(), read_timeout_seconds=self.timeout, mode="legacy") as client:
                listed = await client.list_tools()
                self._ready.set_result([RemoteTool(t.name, t.description or "", dict(t.input_schema or {}))
                                        for t in listed.tools])
                while True:
                    item = await self._queue.get()
                    if item is _CLOSE:
                        return
                    tool, arguments, reply = item
                    try:
                        reply.set_result(await client.call_tool(tool, arguments))
                    except Exception as exc:  # handed to the caller, classified there
                        _fail(reply, exc)
        except BaseException as exc:  # the server died or never came up: every waiter hears why
            _fail(self._ready, exc)
            self._fail_pending(exc)
            if not isinstance(exc, Exception):
                raise

    def _fail_pending(self, exc: BaseException) -> None:
        assert self._queue is not None
        while not self._queue.empty():
            item = self._queue.get_nowait()
            if item is not _CLOSE:
                _fail(item[2], exc)
