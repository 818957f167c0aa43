"""`ragix corpus migrate --to postgres|local`: move the corpus between local files and PostgreSQL.

Which corpora: the global one, and the project one when the user's
``memory.postgres.project_corpus`` names it (the project corpus otherwise stays
local and has nothing to migrate). The source is only read; the target must be
empty and is filled all-or-nothing, then checked against the source (counts,
and the hits of sample queries). Progress goes to stderr every 10,000 events.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Dict, List, Optional

import typer

from ragix_core.cli.corpus_cmd import JsonOpt, ProjectOpt, _print_json, _run, corpus_app

__all__ = ["migrate"]

DIRECTIONS = ("postgres", "local")


@corpus_app.command("migrate")
def migrate(
    to: str = typer.Option(..., "--to", help="postgres (local files → database) or local (database → files)."),
    as_json: bool = JsonOpt,
    project: Optional[Path] = ProjectOpt,
) -> None:
    """Copy the corpus to PostgreSQL (memory.postgres in your ragix.yaml) or back to local files."""

    def go() -> List[Dict[str, Any]]:
        from ragix_core.config import load_config
        from ragix_core.memory.backends import migration_pairs
        from ragix_core.memory.migrate import migrate as copy

        if to not in DIRECTIONS:
            raise ValueError(f"--to must be one of: {', '.join(DIRECTIONS)} (got {to!r})")
        project_dir = (project or Path.cwd()).expanduser()
        if not project_dir.is_dir():
            raise ValueError(f"project directory not found: {project_dir}")
        cfg = load_config(cwd=project_dir)
        reports = []
        for local, pg in migration_pairs(cfg.reasoning.experience, cfg.memory, project_dir):
            source, target = (local, pg) if to == "postgres" else (pg, local)

            def progress(done: int, total: int, name: str = source.name) -> None:
                typer.echo(f"{name}: {done}/{total} events ({100 * done // max(total, 1)}%)", err=True)

            try:
                reports.append(copy(source, target, progress).as_dict())
            finally:
                source.close()
                target.close()
        return reports

    reports = _run(go)
    if as_json:
        _print_json({"to": to, "corpora": reports})
        return
    for r in reports:
        typer.echo(f"{r['name']}: copied {r['events']} of {r['source_events']} event(s) from {r['source']} to "
                   f"{r['target']} in {r['seconds']} s; {r['identical_queries']}/{r['queries']} sample queries "
                   f"return the same hits")
        for query in r["differing"]:
            typer.echo(f"  differs: {query}")
