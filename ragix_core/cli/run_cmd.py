"""`ragix run GOAL`: the main job — a goal, a project directory, a grounded answer.

Run control (issue 40): Ctrl-C ends the run as ``user_abort`` and prints what was found (exit 130);
``--resume SESSION`` continues a graph run from its last checkpoint (runtime/run_control.py);
``--dry-run`` prints the plan and the confined commands the run would start, and starts none.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Optional

import typer
from rich.console import Console
from rich.live import Live
from rich.markup import escape

from ragix_core.cli import app
from ragix_core.cli.live_view import RunView
from ragix_core.core.event_lines import event_line
from ragix_core.cli.progress import follow_run
from ragix_core.cli.run_report import EXIT_ABORTED, exit_code, print_run
from ragix_core.config import ConfigError, load_config
from ragix_core.core.events import EventBus
from ragix_core.core.registry import engine_names

__all__ = ["run"]


@app.command("run")
def run(
    goal: Optional[str] = typer.Argument(None, help="What you want done or answered, in plain words."),
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
    resume: Optional[str] = typer.Option(None, "--resume", metavar="SESSION",
                                         help="Continue an interrupted run from its last checkpoint (its own goal, "
                                              "directory and settings)."),
    dry_run: bool = typer.Option(False, "--dry-run", help="Print the plan and the confined commands the run would "
                                 "start, with what each may read and write; run none (the model may be asked)."),
    seed: Optional[int] = typer.Option(None, "--seed", help="Number the run's sampled model calls from this seed: "
                                       "the same run twice draws the same samples (where the backend takes seeds)."),
) -> None:
    """Run GOAL with the configured reasoning strategy on real, confined tools.

    Exit codes: 0 the run succeeded (or a dry run was shown), 1 it finished without success (the
    answer says what was tried), 2 usage or configuration error, 130 stopped with Ctrl-C.
    """
    from ragix_core.core.interrupt import sigint_ends_run
    from ragix_core.profiles import ProfileError
    from ragix_core.runtime.run import run_goal
    from ragix_core.runtime.run_control import ResumeError, RunRecord, resume_point, save_record

    err = Console(stderr=True)
    resume_from: Optional[Path] = None
    session_id: Optional[str] = None
    if resume is not None:
        given = [flag for flag, value in (("GOAL", goal), ("--strategy", strategy), ("--profile", profile),
                                          ("--model", model), ("--planner-model", planner_model),
                                          ("--config", config_path), ("--cwd", cwd if cwd != Path(".") else None),
                                          ("--dry-run", dry_run or None), ("--seed", seed)) if value is not None]
        if given:
            err.print(f"[red]error:[/red] --resume continues a run with its own settings; leave out {', '.join(given)}")
            raise typer.Exit(2)
        try:
            record, resume_from = resume_point(resume)
        except ResumeError as exc:
            err.print(f"[red]error:[/red] {escape(str(exc))}", highlight=False)
            raise typer.Exit(2)
        goal, cwd, strategy, profile = record.goal, Path(record.cwd), record.strategy, record.profile
        model, planner_model, yes, session_id = record.model, record.planner_model, record.assume_yes, record.session_id
        seed = record.seed
        config_path = Path(record.config_path) if record.config_path else None
        err.print(f"[dim]resuming {session_id}: {escape(goal)}[/dim]", highlight=False)
    if not goal:
        err.print("[red]error:[/red] give a GOAL, or --resume SESSION to continue a run")
        raise typer.Exit(2)
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
    checkpoint = resume_from
    try:
        if resume_from is None and not dry_run:
            from ragix_core.runtime.run import resolve_strategy
            from ragix_core.runtime.context import new_session_id

            session_id = new_session_id()
            try:
                checkpoint = save_record(RunRecord(
                    session_id, goal, str(cwd.resolve()), resolve_strategy(strategy, config), profile, model,
                    planner_model, str(config_path.resolve()) if config_path else None, yes, seed=seed))
            except OSError as exc:
                err.print(f"[yellow]warning:[/yellow] this run cannot be resumed: {escape(str(exc))}", highlight=False)
        with sigint_ends_run():
            if live:
                live.start()
            result = run_goal(goal, cwd=cwd, config=config, strategy=strategy, model=model,
                              planner_model=planner_model, events=bus, profile=profile, assume_yes=yes,
                              session_id=session_id, checkpoint_path=checkpoint, dry_run=dry_run,
                              resume_from=resume_from, seed=seed)
    except (ConfigError, ProfileError, ValueError) as exc:
        if live:
            live.stop()
        err.print(f"[red]error:[/red] {escape(str(exc))}", highlight=False)
        raise typer.Exit(2)
    except KeyboardInterrupt:  # before the engine started (loading a model) or after it ended
        if live and live.is_started:
            live.stop()
        err.print("[yellow]interrupted[/yellow] before the run had started or after it had ended")
        raise typer.Exit(EXIT_ABORTED)
    finally:
        if live and live.is_started:
            live.stop()

    state = result.state
    if dry_run and "dry_run" in state.meta and not as_json:
        from ragix_core.cli.dry_run_view import dry_run_text

        print(dry_run_text(state.meta["dry_run"], state.final_answer or ""))
        raise typer.Exit(0)
    if as_json:
        print(json.dumps(result.to_dict(), ensure_ascii=False, indent=2))
    else:
        print_run(result, err, quiet)
    raise typer.Exit(exit_code(state.stop_reason))
