"""The run's MCP servers: started (or reached) when the run opens, closed when it closes.

Which servers a run may use is the profile's decision (``mcp.servers.<name>.profiles``; never
under ``safe``); each one's allowed tools join the run's tool box. A server that cannot start,
hangs or answers garbage while the run opens is that run's named failure (see mcp_session.py):
the run stops with it, as it would when its model is unreachable, rather than answer without
tools the user configured.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, List, Optional

from ragix_core.tools.mcp_session import McpFailure, McpSession
from ragix_core.tools.mcp_tools import McpToolSet

__all__ = ["McpServers", "open_servers"]


@dataclass
class McpServers:
    toolsets: List[McpToolSet] = field(default_factory=list)
    sessions: List[McpSession] = field(default_factory=list)
    failure: Optional[McpFailure] = None  # the first server that failed to open

    def close(self) -> None:
        while self.sessions:
            self.sessions.pop().close()


def _transport(name: str, server: Any, root: Path) -> Any:
    from mcp import StdioServerParameters

    from ragix_core.tools.mcp_launch import sandboxed_argv

    if server.url is not None:
        return server.url
    try:
        argv = sandboxed_argv(server.command, str(root), network=server.network, env=server.env, mounts=server.mounts)
    except ValueError as exc:
        raise McpFailure("mcp_unavailable", f"server {name!r}: {exc}") from None
    # bwrap clears the environment itself; the empty one here keeps the SDK from passing its defaults.
    return StdioServerParameters(command=argv[0], args=argv[1:], env={}, cwd=str(root))


def open_servers(config: Any, profile_name: str, root: Path, toolbox: Any) -> McpServers:
    """Open the servers ``profile_name`` may use and attach their tools to ``toolbox``."""
    out = McpServers()
    for name, server in config.mcp.for_profile(profile_name).items():
        try:
            session = McpSession(_transport(name, server, root), name, server.timeout)
            out.sessions.append(session)
            listed = session.open()
        except McpFailure as exc:
            out.failure = out.failure or exc
            continue
        toolset = McpToolSet(name, session, listed, server.tools, toolbox.limits.output_bytes,
                             toolbox.publish_tool_call)
        toolbox.attach_remote(toolset)
        out.toolsets.append(toolset)
    return out
