"""`ragix run GOAL`: the main job — a goal, a project directory, a grounded answer."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Optional

import typer
from rich.console import Console
from rich.live import Live
from rich.markdown import Markdown
from rich.markup import escape
from rich.panel import Panel

from ragix_core.cli import app
from ragix_core.cli.live_view import RunView, event_line
from ragix_core.cli.progress import follow_run
from ragix_core.config import ConfigError, load_config
from ragix_core.core.events import EventBus
from ragix_core.core.registry import engine_names

__all__ = ["run"]


@app.command("run")
def run(
    goal: str = typer.Argument(..., help="What you want done or answered, in plain words."),
    cwd: Path = typer.Option(Path("."), "--cwd", help="Project directory the tools work in (confined to it)."),
    profile: Optional[str] = typer.Option(None, "--profile", help="safe | dev | sovereign (default: config, else dev)."),
    strategy: Optional[str] = typer.Option(None, "--strategy", help=f"{' | '.join(engine_names())} "
                                           "(default: config, else graph_v30; s0 is the one-command baseline)."),
    model: Optional[str] = typer.Option(None, "--model", help="Model for every role: a GGUF path or a server model name."),
    planner_model: Optional[str] = typer.Option(None, "--planner-model", help="Model for the planner role only."),
    config_path: Optional[Path] = typer.Option(None, "--config", help="ragix.yaml to use (default: ragix.yaml in the --cwd directory, then $RAGIX_HOME/ragix.yaml)."),
    yes: bool = typer.Option(False, "--yes", "-y", help="Approve file writes without asking (dev profile)."),
    as_json: bool = typer.Option(False, "--json", help="Print the final state as JSON on stdout."),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="Print only the final answer."),
) -> None:
    """Run GOAL with the configured reasoning strategy on real, confined tools.

    Exit codes: 0 the run succeeded, 1 it finished without success (the answer
    says what was tried), 2 usage or configuration error.
    """
    from ragix_core.profiles import ProfileError
    from ragix_core.runtime.run import run_goal

    err = Console(stderr=True)
    cwd = cwd.expanduser()
    if not cwd.is_dir():
        err.print(f"[red]error:[/red] --cwd {cwd} is not a directory")
        raise typer.Exit(2)
    try:
        config = load_config(config_path, cwd=cwd)
    except ConfigError as exc:
        err.print(f"[red]error:[/red] {escape(str(exc))}", highlight=False)
        raise typer.Exit(2)

    bus = EventBus()
    view = RunView(goal)
    live: Optional[Live] = None
    if not (as_json or quiet):
        live = follow_run(bus, err, view, event_line)
    try:
        if live:
            live.start()
        result = run_goal(goal, cwd=cwd, config=config, strategy=strategy, model=model,
                          planner_model=planner_model, events=bus, profile=profile, assume_yes=yes)
    except (ConfigError, ProfileError, ValueError) as exc:
        if live:
            live.stop()
        err.print(f"[red]error:[/red] {exc}", highlight=False)
        raise typer.Exit(2)
    finally:
        if live and live.is_started:
            live.stop()

    state = result.state
    if as_json:
        print(json.dumps(result.to_dict(), ensure_ascii=False, indent=2))
    elif quiet:
        print(state.final_answer or "")
    else:
        out = Console()
        style = "green" if state.stop_reason == "success" else "yellow"
        out.print(Panel(Markdown(state.final_answer or "(no answer)"), title="answer", border_style=style))
        u = result.usage
        err.print(f"[dim]stop: {state.stop_reason} · complexity: {state.complexity.value} · steps: "
                  f"{len(state.executed_steps)} · reflections: {state.reflection_count} · llm calls: {u['llm_calls']} "
                  f"({u['prompt_tokens']}+{u['completion_tokens']} tokens) · {result.wall_time:.1f}s · "
                  f"session {result.session_id}[/dim]")
        if state.stop_reason != "success" and state.last_error:
            err.print("last error: " + state.last_error, style="yellow", highlight=False, markup=False)
    raise typer.Exit(0 if state.stop_reason == "success" else 1)
