"""`ragix serve`: the engines behind a local web page and JSON API (docs: README, `ragix serve --help`).

Binds loopback unless told otherwise; another address needs --token. Runs work only in the
--root directories, with at most the --profile given here, and only read (no one is at the server
to approve a write).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import List, Optional

import typer

from ragix_core.cli import app

__all__ = ["serve", "detach_terminal_input"]


def detach_terminal_input() -> None:
    """Give the server no terminal to read: a run's write approval asks the terminal when stdin is
    one, and a served run must never wait on a prompt that nobody at the page can see."""
    devnull = os.open(os.devnull, os.O_RDONLY)
    os.dup2(devnull, 0)
    os.close(devnull)


@app.command("serve")
def serve(
    root: List[str] = typer.Option([], "--root", help="A directory runs may work in, as DIR or NAME=DIR "
                                   "(repeatable; default: the current directory)."),
    host: str = typer.Option("127.0.0.1", "--host", help="Address to bind; anything but loopback needs --token."),
    port: int = typer.Option(8765, "--port", min=0, max=65535, help="Port to bind (0: any free port)."),
    token: Optional[str] = typer.Option(None, "--token", envvar="RAGIX_SERVE_TOKEN",
                                        help="Secret every request must carry (header or ?token= once)."),
    profile: Optional[str] = typer.Option(None, "--profile", help="The most a run may ask for: safe | dev | "
                                          "sovereign (default: config, else dev); a run may also ask for safe."),
    max_runs: int = typer.Option(1, "--max-runs", min=1, max=16, help="Runs executing at once."),
    max_queued: int = typer.Option(8, "--max-queued", min=0, max=1000, help="Runs waiting beyond those."),
) -> None:
    """Serve the run page and API: start runs of any engine, watch them live, browse past runs."""
    from rich.console import Console

    from ragix_core.config import ConfigError, load_config
    from ragix_core.serve.settings import ServeSettings, SettingsError, parse_root

    err = Console(stderr=True)

    def fail(message: str) -> None:
        err.print(f"[red]error:[/red] {message}", highlight=False, markup=False)
        raise typer.Exit(2)

    try:
        import uvicorn

        from ragix_core.serve.app import create_app
    except ImportError as exc:
        fail(f"`ragix serve` needs the serve extra ({exc.name} is missing): pip install 'ragix[serve]'")
        return
    roots = dict(parse_root(spec) for spec in (root or ["."]))
    if len(roots) != len(root or ["."]):
        fail("two --root options have the same name; name them NAME=DIR")
    try:
        max_profile = profile or load_config(cwd=Path(".")).profile
        settings = ServeSettings(roots=roots, max_profile=max_profile, host=host, port=port, token=token,
                                 max_active=max_runs, max_queued=max_queued)
    except (SettingsError, ConfigError) as exc:
        fail(str(exc))
        return
    detach_terminal_input()
    err.print(f"ragix serve: http://{host}:{port}/ · roots: "
              + ", ".join(f"{n}={p}" for n, p in settings.roots.items())
              + f" · profiles: {', '.join(settings.profiles)} · Ctrl-C stops", highlight=False, markup=False)
    uvicorn.run(create_app(settings), host=host, port=port)
