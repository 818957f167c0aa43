"""`ragix ask GOAL`: one entry for every specialist; the router picks the engine and says why.

    ragix ask "Which module defines the config loader?"        # graph (a project question)
    ragix ask "What does the manual say about backups?" --docs ./manuals    # research
    ragix ask "Where is this codebase risky?"                  # the audit kernels (report under $RAGIX_HOME/audit;
                                                                # with --yes in a profile that writes: .ragix/audit)
    ragix ask GOAL --route-only [--json]                       # only the routing decision
    ragix ask GOAL --rules-only                                # no model label when the rules cannot tell

The route is decided by general rules first (what the goal names: files, the project's parts,
documents, quantities and logic, greetings), by a model label when they cannot tell; one line on
stderr (and ``routing`` in --json) names the route, the engine, who decided and why. The labelling
model (the planner role's) is set up only when the rules cannot tell, and only after the profile has
allowed it: a goal the rules decide never reaches a model, and needs none to be installed.

The answer is printed as `ragix run` prints it (cli/run_report.py: its caveat under it), with the same
exit codes: 0 the run succeeded (or the route was shown), 1 it finished without success, 2 usage or
configuration error, 130 stopped with Ctrl-C.
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
    yes: bool = typer.Option(False, "--yes", "-y", help="Approve file writes without asking (dev profile); the "
                             "audit route's report then goes into the project's .ragix/audit."),
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
    label = None if rules_only else (lambda: _label_client(config, model, profile))
    routing = choose_route(goal, context, make_client=label)
    typer.echo(routing.line(), err=True)
    out: Dict[str, Any] = {"routing": routing.to_dict()}
    if route_only:
        if as_json:
            typer.echo(json.dumps(out, ensure_ascii=False, indent=2))
        return
    if routing.strategy is None:
        _audit(cwd, config, profile, yes, out)
        typer.echo(json.dumps(out, ensure_ascii=False, indent=2, default=str) if as_json else out["answer"])
        return
    where = docs.expanduser() if routing.route == "research" and docs is not None else cwd
    _run(goal, where, config, routing.strategy, model, profile, yes, as_json, out)


def _label_client(config: Any, model: Optional[str], profile: Optional[str]) -> Any:
    """The planner role's model labels the goal, once the profile has allowed that model."""
    from ragix_core.llm.base import LLMError
    from ragix_core.llm.factory import build_client
    from ragix_core.profiles import ProfileError, check_models, get_profile

    try:
        check_models(get_profile(profile or config.profile), config.llm, ["planner"])
    except ProfileError as exc:
        _fail(f"{exc} (--rules-only routes without a model)")
    try:
        settings = config.llm.for_role("planner")
        return build_client(settings.model_copy(update={"model": model}) if model else settings)
    except (LLMError, ValueError) as exc:
        _fail(f"cannot set up the labelling model: {exc} (--rules-only routes without a model)")


def _audit_dir(root: Path, config: Any, profile: Optional[str], yes: bool) -> Path:
    """Into the project only when asked (--yes) and the profile may write it; else the user's own
    ragix directory, one folder per project (docs/DECISIONS.md)."""
    import hashlib

    from ragix_core.core.home import ragix_home
    from ragix_core.profiles import ProfileError, get_profile
    from ragix_core.tools.profiles import get_profile as tool_profile

    try:
        writes = tool_profile(get_profile(profile or config.profile).tool_profile).writes
    except (ProfileError, ValueError) as exc:
        _fail(str(exc))
    if yes and writes:
        return root / ".ragix" / "audit"
    digest = hashlib.sha256(str(root).encode("utf-8")).hexdigest()[:10]
    return ragix_home() / "audit" / f"{root.name or 'root'}-{digest}"


def _audit(cwd: Path, config: Any, profile: Optional[str], yes: bool, out: Dict[str, Any]) -> None:
    from ragix_core.cli.audit_cmd import write_plain_report
    from ragix_core.kernels.audit import KernelError, TreeError, run_all
    from ragix_core.kernels.presenter.answer import risk_answer

    try:
        docs = run_all(cwd)
    except (TreeError, KernelError) as exc:
        _fail(str(exc))
    root = Path(docs["metrics"]["root"])
    target = _audit_dir(root, config, profile, yes)
    try:
        report = write_plain_report(docs, target)
    except KernelError as exc:
        _fail(str(exc))
    except OSError as exc:
        _fail(f"cannot write the audit report in {target}: {exc.strerror or exc} (run `ragix audit DIR --out ...`)")
    in_project = root / ".ragix" / "audit"
    if target != in_project:
        typer.echo(f"the report is in {target}, outside the project (--yes, in a profile that writes, puts it in "
                   f"{in_project})", err=True)
    out["answer"] = risk_answer(docs) + f"\nFull report: {report.directory}/report.md"
    out["report"] = str(report.directory / "report.md")


def _run(goal: str, where: Path, config: Any, strategy: str, model: Optional[str], profile: Optional[str],
         yes: bool, as_json: bool, out: Dict[str, Any]) -> None:
    """Run the routed engine as `ragix run` would, Ctrl-C included, and print and exit as it does."""
    from rich.console import Console

    from ragix_core.cli.run_report import EXIT_ABORTED, exit_code, print_run
    from ragix_core.config import ConfigError
    from ragix_core.core.interrupt import sigint_ends_run
    from ragix_core.profiles import ProfileError
    from ragix_core.runtime.run import run_goal

    try:
        with sigint_ends_run():
            result = run_goal(goal, cwd=where, config=config, strategy=strategy, model=model, profile=profile,
                              assume_yes=yes)
    except (ConfigError, ProfileError, ValueError) as exc:
        _fail(str(exc))
    except KeyboardInterrupt:  # before the engine started (loading a model) or after it ended
        typer.echo("interrupted before the run had started or after it had ended", err=True)
        raise typer.Exit(EXIT_ABORTED)
    if as_json:
        out["run"] = result.to_dict()
        out["answer"] = result.state.final_answer or "(no answer)"
        typer.echo(json.dumps(out, ensure_ascii=False, indent=2, default=str))
    else:
        print_run(result, Console(stderr=True))
    raise typer.Exit(exit_code(result.state.stop_reason))
