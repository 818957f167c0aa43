"""`ragix ask GOAL`: one entry for every specialist; the router picks the engine and says why.

    ragix ask "Which module defines the config loader?"        # graph (a project question)
    ragix ask "What does the manual say about backups?" --docs ./manuals    # research
    ragix ask "Where is this codebase risky?"                  # the audit kernels (report in .ragix/audit)
    ragix ask GOAL --route-only [--json]                       # only the routing decision
    ragix ask GOAL --rules-only                                # no model label when the rules cannot tell

The route is decided by general rules first (what the goal names: files, the project's parts,
documents, quantities and logic, greetings), by a model label when they cannot tell; one line on
stderr (and ``routing`` in --json) names the route, the engine, who decided and why.

Exit codes: 0 the run succeeded (or the route was shown), 1 it finished without success, 2 usage or
configuration error.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Dict, Optional

import typer

from ragix_core.cli import app

__all__ = ["ask"]


def _fail(message: str) -> None:
    typer.echo(f"error: {message}", err=True)
    raise typer.Exit(2)


@app.command("ask", help="Ask anything: routed to graph, research, tree, tutor, chat or the audit kernels.")
def ask(
    goal: str = typer.Argument(..., help="What you want done or answered, in plain words."),
    cwd: Path = typer.Option(Path("."), "--cwd", help="The project directory."),
    docs: Optional[Path] = typer.Option(None, "--docs", help="A directory of documents: research is then a route."),
    as_json: bool = typer.Option(False, "--json", help="Print the routing and the run as JSON."),
    route_only: bool = typer.Option(False, "--route-only", help="Decide the route, run nothing."),
    rules_only: bool = typer.Option(False, "--rules-only", help="No model label: the fallback route when rules cannot tell."),
    model: Optional[str] = typer.Option(None, "--model", help="Model for the label and every role of the run."),
    profile: Optional[str] = typer.Option(None, "--profile", help="safe | dev | sovereign (default: config)."),
    yes: bool = typer.Option(False, "--yes", "-y", help="Approve file writes without asking (dev profile)."),
) -> None:
    from ragix_core.collective.router import choose_route, project_names
    from ragix_core.collective.rules import RouteContext
    from ragix_core.config import ConfigError, load_config

    cwd = cwd.expanduser()
    if not cwd.is_dir():
        _fail(f"--cwd {cwd} is not a directory")
    if docs is not None and not docs.expanduser().is_dir():
        _fail(f"--docs {docs} is not a directory")
    if not goal.strip():
        _fail("the goal is empty")
    try:
        config = load_config(cwd=cwd)
    except ConfigError as exc:
        _fail(str(exc))
    context = RouteContext(project_names(cwd), docs is not None or bool(config.research.sources))
    client = None if rules_only else _label_client(config, model)
    routing = choose_route(goal, context, client)
    typer.echo(routing.line(), err=True)
    out: Dict[str, Any] = {"routing": routing.to_dict()}
    if route_only:
        if as_json:
            typer.echo(json.dumps(out, ensure_ascii=False, indent=2))
        return
    if routing.strategy is None:
        ok = _audit(cwd, out)
    else:
        where = docs.expanduser() if routing.route == "research" and docs is not None else cwd
        ok = _run(goal, where, config, routing.strategy, model, profile, yes, out)
    if as_json:
        typer.echo(json.dumps(out, ensure_ascii=False, indent=2, default=str))
    else:
        typer.echo(out["answer"])
    raise typer.Exit(0 if ok else 1)


def _label_client(config: Any, model: Optional[str]) -> Any:
    """The planner role's model labels goals (built lazily: nothing loads unless the rules cannot tell)."""
    from ragix_core.llm.base import LLMError
    from ragix_core.llm.factory import build_client

    try:
        settings = config.llm.for_role("planner")
        return build_client(settings.model_copy(update={"model": model}) if model else settings)
    except (LLMError, ValueError) as exc:
        _fail(f"cannot set up the labelling model: {exc}")


def _audit(cwd: Path, out: Dict[str, Any]) -> bool:
    from ragix_core.kernels.audit import KernelError, TreeError, run_all
    from ragix_core.kernels.presenter import write_report
    from ragix_core.kernels.presenter.answer import risk_answer

    try:
        docs = run_all(cwd)
        report = write_report(docs, Path(docs["metrics"]["root"]) / ".ragix" / "audit",
                              f"Audit of {Path(docs['metrics']['root']).name}")
    except (TreeError, KernelError) as exc:
        _fail(str(exc))
    except OSError as exc:
        _fail(f"cannot write the audit report: {exc.strerror or exc} (run `ragix audit DIR --out ...`)")
    out["answer"] = risk_answer(docs) + f"\nFull report: {report.directory}/report.md"
    out["report"] = str(report.directory / "report.md")
    return True


def _run(goal: str, where: Path, config: Any, strategy: str, model: Optional[str], profile: Optional[str],
         yes: bool, out: Dict[str, Any]) -> bool:
    from ragix_core.config import ConfigError
    from ragix_core.profiles import ProfileError
    from ragix_core.runtime.run import run_goal

    try:
        result = run_goal(goal, cwd=where, config=config, strategy=strategy, model=model, profile=profile,
                          assume_yes=yes)
    except (ConfigError, ProfileError, ValueError) as exc:
        _fail(str(exc))
    out["run"] = result.to_dict()
    out["answer"] = result.state.final_answer or "(no answer)"
    return result.state.stop_reason == "success"
