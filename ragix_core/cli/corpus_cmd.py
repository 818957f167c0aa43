"""`ragix corpus …`: search and maintain the experience corpus from the shell.

The global corpus lives in ``$RAGIX_HOME`` (``~/.ragix``), the project one in
``<project>/.ragix`` (``--project``, default the current directory); roots and
ages come from ragix.yaml's ``reasoning.experience`` section when present.
Rich tables for people, ``--json`` for scripts. Every known failure (bad
config, unreadable or unwritable corpus) prints one message and exits 2.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Callable, Dict, List, Optional

import typer

from ragix_core.cli import app

__all__ = ["corpus_app"]

corpus_app = typer.Typer(
    help="Search and maintain the experience corpus (project .ragix + global ~/.ragix).",
    no_args_is_help=True,
)
app.add_typer(corpus_app, name="corpus")

ProjectOpt = typer.Option(None, "--project", "-p", help="Project directory (default: current directory).")
JsonOpt = typer.Option(False, "--json", help="Print one JSON object instead of tables.")


def _fail(message: str) -> None:
    from rich.console import Console
    from rich.markup import escape

    Console(stderr=True).print(f"[bold red]error:[/bold red] {escape(message)}")
    raise typer.Exit(2)


def _run(fn: Callable[[], Any]) -> Any:
    """Turn the errors a user can cause into a message and exit code 2."""
    from ragix_core.config import ConfigError
    from ragix_core.memory.errors import CorpusError

    try:
        return fn()
    except (CorpusError, ConfigError, OSError, ValueError) as exc:
        _fail(str(exc))


def _hybrid(project: Optional[Path], create: bool = False) -> Any:
    from ragix_core.config import load_config
    from ragix_core.memory.experience import HybridExperienceCorpus

    project_dir = (project or Path.cwd()).expanduser()
    if not project_dir.is_dir():
        raise ValueError(f"project directory not found: {project_dir}")
    cfg = load_config(cwd=project_dir)
    # Reading commands must not leave .ragix/ directories behind in whatever directory they ran.
    return HybridExperienceCorpus.from_config(cfg.reasoning.experience, project_dir, create=create,
                                              memory=cfg.memory)


def _print_json(data: Any) -> None:
    typer.echo(json.dumps(data, ensure_ascii=False, indent=2, default=str))


@corpus_app.command("search")
def search(
    query: str = typer.Argument(..., help="Free text; any characters are accepted."),
    top_k: int = typer.Option(5, "--top-k", "-k", min=1, max=100, help="Hits per corpus."),
    as_json: bool = JsonOpt,
    project: Optional[Path] = ProjectOpt,
) -> None:
    """Find past events relevant to QUERY (BM25 x recency x outcome)."""

    def go() -> List[Any]:
        hybrid = _hybrid(project)
        return [hit for corpus in hybrid.corpora() for hit in corpus.search_events(query, top_k=top_k)]

    hits = _run(go)
    keys = ("timestamp", "session_id", "event_type", "outcome_status", "goal", "step_description", "error", "llm_critique")
    rows = [{"source": h.source, "score": round(h.score, 4), **{k: h.event.get(k) for k in keys}} for h in hits]
    if as_json:
        _print_json({"query": query, "hits": rows})
        return
    from rich.console import Console
    from rich.table import Table

    console = Console()
    if not rows:
        console.print("No matching experience.")
        return
    table = Table(title=f"Experience for: {query}", show_lines=True)
    for col in ("#", "source", "score", "when", "outcome", "goal / lesson"):
        table.add_column(col, overflow="fold")
    for i, r in enumerate(rows, 1):
        lesson = "\n".join(
            f"{label}: {r[k]}" for label, k in (("step", "step_description"), ("error", "error"), ("critique", "llm_critique")) if r.get(k)
        )
        text = str(r["goal"]) + ("\n" + lesson if lesson else "")
        table.add_row(str(i), r["source"], f"{r['score']:.2f}", str(r["timestamp"])[:19], str(r["outcome_status"] or "-"), text)
    console.print(table, markup=False)


@corpus_app.command("stats")
def stats(as_json: bool = JsonOpt, project: Optional[Path] = ProjectOpt) -> None:
    """Event counts, sizes, age range and index state of both corpora."""
    data: List[Dict[str, Any]] = _run(lambda: [c.stats() for c in _hybrid(project).corpora()])
    if as_json:
        _print_json({"corpora": data})
        return
    from rich.console import Console
    from rich.table import Table

    console = Console()
    for s in data:  # one key/value table per corpus: paths are long, terminals are narrow
        table = Table(title=f"{s['name']} experience", show_header=False)
        table.add_column("key", style="bold")
        table.add_column("value", overflow="fold")
        rows = [("backend", s["backend"]), ("events", s["events"])]
        if s["backend"] == "local":
            rows += [("bytes", s["bytes"]), ("skipped lines", s["skipped_lines"] + int(s["partial_tail"]))]
        else:
            rows.append(("table bytes (all corpora)", s.get("table_bytes", 0)))
        rows += [
            ("expired (prunable)", s["expired"]), ("undated", s["undated"]),
            ("oldest", s["oldest"] or "-"), ("newest", s["newest"] or "-"),
            ("max age", f"{s['max_age_days']} days"), ("location", s["location"]),
        ]
        if "index" in s:
            rows.append(("index", f"{s['index']['path']} ({s['index']['db_bytes']} bytes"
                                  f"{', stale' if s['index']['stale'] else ''})"))
        if s.get("quarantine_bytes"):
            rows.append(("quarantined bytes", s["quarantine_bytes"]))
        for key, value in rows:
            table.add_row(key, str(value))
        console.print(table, markup=False)


@corpus_app.command("prune")
def prune(
    dry_run: bool = typer.Option(False, "--dry-run", help="Only count what would be removed."),
    as_json: bool = JsonOpt,
    project: Optional[Path] = ProjectOpt,
) -> None:
    """Remove events older than each corpus's max age (atomic rewrite)."""

    def go() -> List[Dict[str, Any]]:
        out = []
        for c in _hybrid(project).corpora():
            n = c.count_expired() if dry_run else c.prune()
            out.append({"name": c.name, "path": c.location, "removed": n, "max_age_days": c.max_age_days})
        return out

    data = _run(go)
    if as_json:
        _print_json({"dry_run": dry_run, "corpora": data})
        return
    verb = "would remove" if dry_run else "removed"
    for d in data:
        typer.echo(f"{d['name']}: {verb} {d['removed']} event(s) older than {d['max_age_days']} days ({d['path']})")


@corpus_app.command("rebuild")
def rebuild(as_json: bool = JsonOpt, project: Optional[Path] = ProjectOpt) -> None:
    """Rebuild the search indexes from the stored events (they are derived data)."""
    data = _run(lambda: [{"name": c.name, "path": c.location, "events": c.rebuild()}
                         for c in _hybrid(project).corpora()])
    if as_json:
        _print_json({"corpora": data})
        return
    for d in data:
        typer.echo(f"{d['name']}: indexed {d['events']} event(s) from {d['path']}")
