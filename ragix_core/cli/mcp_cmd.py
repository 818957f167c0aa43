"""`ragix mcp serve`: ragix's engines and tools over the Model Context Protocol (docs/MCP.md).

    ragix mcp serve --profile dev --root ~/project                 stdio (a desktop client starts it)
    RAGIX_MCP_TOKEN=... ragix mcp serve --http 0.0.0.0:8765        Streamable HTTP, token required

Exit codes: 0 the server stopped, 2 usage or configuration error (before anything is served).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Optional

import typer

from ragix_core.cli import app

__all__ = ["serve"]

mcp_app = typer.Typer(help="Serve ragix over MCP (Model Context Protocol).", no_args_is_help=True)
app.add_typer(mcp_app, name="mcp")


@mcp_app.command("serve")
def serve(
    profile: Optional[str] = typer.Option(None, "--profile", help="safe | dev | sovereign (default: config, else dev)."),
    root: Path = typer.Option(Path("."), "--root", help="Project root every tool works in (confined to it)."),
    http: Optional[str] = typer.Option(None, "--http", help="Serve Streamable HTTP on HOST:PORT instead of stdio "
                                                            "(loopback only unless RAGIX_MCP_TOKEN is set)."),
    config_path: Optional[Path] = typer.Option(None, "--config", help="ragix.yaml to use (default: the root's, "
                                                                      "then $RAGIX_HOME/ragix.yaml)."),
) -> None:
    """Serve the engines (run, reason, tutor, research, chat) and tools (exec, defs, importers, callers,
    calls, lines, tree, corpus_search). The profile and root are fixed here, never by a client."""
    try:
        from ragix_core.mcp_server.app import build_server
        from ragix_core.mcp_server.http import TOKEN_ENV, parse_bind, serve_http
        from ragix_core.mcp_server.launch import Launch
    except ImportError as exc:  # the optional dependency is missing
        typer.echo(f"error: ragix mcp needs the 'mcp' package ({exc.name}); pip install 'ragix[mcp]'", err=True)
        raise typer.Exit(2)
    token = os.environ.get(TOKEN_ENV) or None
    try:
        launch = Launch.open(root, profile, config_path)
        bind = parse_bind(http, token) if http else None
    except ValueError as exc:  # ConfigError and ProfileError are ValueErrors
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(2)
    server = build_server(launch)
    if bind is None:
        server.run("stdio")
    else:
        typer.echo(f"ragix mcp: serving {launch.root} (profile {launch.profile.name}) at "
                   f"http://{bind[0]}:{bind[1]}/mcp" + (" (token required)" if token else ""), err=True)
        serve_http(server, bind[0], bind[1], token)
