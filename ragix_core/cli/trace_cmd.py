"""`ragix trace show SESSION`: render a past run from its trace file."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Optional

import typer
from rich.console import Console
from rich.table import Table

from ragix_core.cli import app
from ragix_core.core.event_lines import event_line
from ragix_core.core.events import Event

__all__ = ["trace_app"]

trace_app = typer.Typer(help="Inspect the traces of past runs.", no_args_is_help=True)
app.add_typer(trace_app, name="trace")


@trace_app.command("show")
def show(
    session: str = typer.Argument(..., help="Session id (printed at the end of `ragix run`), a trace file path, "
                                  "or a `ragix research` log folder."),
    cwd: Path = typer.Option(Path("."), "--cwd", help="Project directory whose .ragix/reasoning_traces to search "
                                 "first; then the global store, $RAGIX_HOME/experience/traces."),
    as_json: bool = typer.Option(False, "--json", help="Print the raw trace records as a JSON list."),
) -> None:
    """Show what a run did: nodes, plans, commands, reflections, model calls, in order."""
    from ragix_core.memory.traces import InvalidSessionId, default_trace_dirs, find_trace, read_trace

    err = Console(stderr=True)
    research_logs = Path(session) if Path(session).is_dir() else cwd / ".ragix" / "research" / session
    if (research_logs / "session_summary.json").is_file() or list(research_logs.glob("iteration_*.json")):
        from ragix_core.cli.research_cmd import show_research_logs

        show_research_logs(research_logs, as_json)  # `ragix research` logs: one file per agent turn
        return
    path: Optional[Path] = Path(session) if session.endswith(".jsonl") and Path(session).is_file() else None
    if path is None:
        try:
            path = find_trace(session, default_trace_dirs(cwd))
        except InvalidSessionId as exc:
            err.print(f"[red]error:[/red] {exc}", highlight=False)
            raise typer.Exit(2)
    if path is None:
        dirs = ", ".join(str(d) for d in default_trace_dirs(cwd))
        err.print(f"[red]error:[/red] no trace for session {session!r} in {dirs}", highlight=False)
        raise typer.Exit(2)
    records = read_trace(path)
    if as_json:
        print(json.dumps(records, ensure_ascii=False, indent=2))
        return
    table = Table(title=f"trace {path.name}", show_lines=False)
    table.add_column("t+s", justify="right", style="dim")
    table.add_column("event")
    t0 = records[0].get("ts", 0) if records else 0
    for rec in records:
        try:
            ev = Event.from_dict(rec)
        except (KeyError, ValueError):
            table.add_row("", f"(unreadable record: {str(rec)[:80]})")
            continue
        line = event_line(ev)
        if line is None:
            if ev.kind.value in ("run_start", "run_end", "respond"):
                line = f"{ev.kind.value} " + " ".join(f"{k}={v}" for k, v in ev.data.items()
                                                      if k not in ("event", "part"))
                if ev.data.get("part") is not None:  # a hierarchical worker's own run, under its part
                    line = f"  part {ev.data['part']} │ {line}"
            else:
                continue
        table.add_row(f"{ev.ts - t0:.1f}", line)
    Console().print(table)
