"""`ragix trust`: decide which project ragix.yaml files may configure ragix.

    ragix trust DIR            trust DIR/ragix.yaml as it is now (an edit revokes it)
    ragix trust --list         the trusted projects, and whether each file is unchanged
    ragix trust --revoke DIR   forget DIR

An untrusted project file may only tighten your own config (ragix_core/trust.py).
Exit codes: 0 done, 2 usage error (no ragix.yaml, not trusted, unreadable trust list).
"""

from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer

from ragix_core.cli import app

__all__ = ["trust_command"]


@app.command("trust", help="Trust a project's ragix.yaml (it may then set models and widen the profile).")
def trust_command(
    directory: Optional[Path] = typer.Argument(None, help="Project directory holding the ragix.yaml to trust."),
    list_: bool = typer.Option(False, "--list", help="List trusted projects."),
    revoke: Optional[Path] = typer.Option(None, "--revoke", help="Forget this project directory."),
) -> None:
    from ragix_core import trust
    from ragix_core.config import CONFIG_FILENAME

    chosen = sum([directory is not None, list_, revoke is not None])
    if chosen != 1:
        typer.echo("error: give exactly one of DIR, --list or --revoke DIR", err=True)
        raise typer.Exit(2)
    try:
        if list_:
            entries = trust.trusted()
            if not entries:
                typer.echo("no trusted projects")
            for entry in entries:
                config = Path(entry["path"]) / CONFIG_FILENAME
                state = "missing" if not config.is_file() else trust.status(config)[1]
                typer.echo(f"{entry['path']}\t{entry['sha256'][:12]}\t{entry['trusted_at']}\t{state}")
        elif revoke is not None:
            if not trust.revoke(revoke):
                typer.echo(f"error: {revoke.resolve()} is not trusted (see ragix trust --list)", err=True)
                raise typer.Exit(2)
            typer.echo(f"revoked {revoke.resolve()}")
        else:
            assert directory is not None
            entry = trust.trust(directory, CONFIG_FILENAME)
            typer.echo(f"trusted {entry['path']}/{CONFIG_FILENAME} (sha256 {entry['sha256'][:12]}); "
                       "editing the file revokes it")
    except trust.TrustError as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(2) from None
