"""`ragix eval`: run scenario sets and benchmarks, judge them, report spec 000 §12 metrics.

    ragix eval tests/reasoning_v30/scenarios/*.yaml --strategy graph_v30 --strategy s0 \\
        --json eval.json --markdown eval.md
    ragix eval bench:gsm:20 bench:agentbench --limit 10
    ragix eval bench:nl2bash:fs_5 --limit 3
    ragix eval tests/reasoning_v30/scenarios/*.yaml --jobs 2       # two runs at a time, in worker processes
    ragix eval tests/reasoning_v30/scenarios/*.yaml --executor ray --address head.team.example:6379
    ragix eval tests/reasoning_v30/scenarios/learning_transfer.yaml \\
        --warmup tests/reasoning_v30/scenarios/learning_warmup.yaml      # learning curve

Exit codes: 0 the evaluation ran (whatever the pass rate, unless --min-pass-rate
is given and not met: 1), 2 bad input (scenario file, benchmark data, config).
"""

from __future__ import annotations

from pathlib import Path
from typing import List, Optional

import typer

from ragix_core.cli import app
from ragix_core.core.registry import BASELINE_ENGINE, engine_names

__all__ = ["eval_command"]


def _fail(message: str) -> None:
    from rich.console import Console
    from rich.markup import escape

    Console(stderr=True).print(f"[bold red]error:[/bold red] {escape(message)}")
    raise typer.Exit(2)


def chosen_strategies(strategy: List[str], baseline: bool, learning_curve: bool) -> List[Optional[str]]:
    """The --strategy list; without one, the configured strategy (None) then the s0 baseline, unless the
    baseline is off or this is a learning curve (s0 has no memory to learn with)."""
    if strategy:
        unknown = [s for s in strategy if s not in engine_names()]
        if unknown:
            raise ValueError(f"unknown strategy {unknown[0]!r}; allowed: {', '.join(engine_names())}")
        return list(strategy)
    return [None, BASELINE_ENGINE] if baseline and not learning_curve else [None]


@app.command("eval")
def eval_command(
    scenarios: List[str] = typer.Argument(..., help="Scenario YAML files and/or benchmark specs "
                                          "(bench:agentbench[:dev|test], bench:gsm[:SIZE[:SEED]], "
                                          "bench:nl2bash[:fs_1|fs_5], bench:paraphrase[:FACTS])."),
    cwd: Optional[Path] = typer.Option(None, "--cwd", help="Directory copied for each scenario (default: the "
                                       "fixture next to the scenario file, else the current directory)."),
    strategy: List[str] = typer.Option([], "--strategy", "-s", help=f"{' | '.join(engine_names())}; "
                                       "repeat to compare (the first is the primary). Default: the configured "
                                       "strategy, then the s0 baseline."),
    baseline: bool = typer.Option(True, "--baseline/--no-baseline", help="Without --strategy, also run the s0 "
                                  "baseline next to the engine (not with --warmup: s0 has no memory)."),
    model: Optional[str] = typer.Option(None, "--model", "-m", help="GGUF path or model name for all roles."),
    repeat: int = typer.Option(1, "--repeat", "-k", min=1, help="Runs per scenario."),
    json_out: Optional[Path] = typer.Option(None, "--json", help="Write the JSON report here (rewritten after "
                                            "each run with the runs so far, marked meta.partial, until the final "
                                            "report replaces it)."),
    markdown_out: Optional[Path] = typer.Option(None, "--markdown", help="Write the Markdown report here."),
    corpus: str = typer.Option("fresh", "--corpus", help="fresh: empty experience per run; keep: one corpus "
                               "shared by all runs in order."),
    warmup: List[Path] = typer.Option([], "--warmup", help="Learning curve: run these first with a kept corpus, "
                                      "then SCENARIOS kept vs fresh."),
    only: List[str] = typer.Option([], "--only", help="Run only scenario ids matching this glob (repeatable)."),
    limit: Optional[int] = typer.Option(None, "--limit", min=1, help="Run only the first N scenarios."),
    profile: Optional[str] = typer.Option(None, "--profile", help="Agent profile (safe, dev, sovereign)."),
    config_path: Optional[Path] = typer.Option(None, "--config", help="ragix.yaml to use."),
    record: Optional[Path] = typer.Option(None, "--record", help="Also save every run here (for --replay)."),
    replay: Optional[Path] = typer.Option(None, "--replay", help="Judge runs saved by --record; no model."),
    trace_dir: Optional[Path] = typer.Option(None, "--trace-dir", help="Keep each run's trace file here."),
    min_pass_rate: Optional[float] = typer.Option(None, "--min-pass-rate", help="Exit 1 below this pass rate."),
    seed: Optional[int] = typer.Option(None, "--seed", help="Number the sampled model calls from this seed (run r "
                                       "of a scenario starts at SEED + r - 1): repeatable runs at temperature > 0."),
    temperature: Optional[float] = typer.Option(None, "--temperature", min=0.0, max=2.0,
                                                help="Every role's temperature (with --repeat: runs differ above 0)."),
    strict: bool = typer.Option(False, "--strict", help="A run passes only if it also ended in stop_reason success."),
    executor_name: str = typer.Option("local", "--executor", help="local: the runs on this machine (one after "
                                      "another, or --jobs at a time); ray: each run a Ray task on a cluster "
                                      "(docs/SCALE.md), not with --warmup, --corpus keep, --record or --replay."),
    jobs: int = typer.Option(1, "--jobs", "-j", min=0, help="Runs at a time with --executor local, each in a worker "
                             "process of its own that loads the model once (memory: one model per worker); the "
                             "model's threads are cores // JOBS. 1 (default): one after another in this process; "
                             "0: one per core. Above 1, not with --warmup, --corpus keep, --record or --replay."),
    address: Optional[str] = typer.Option(None, "--address", help="The Ray cluster (host:port of its head) for "
                                          "--executor ray; default: RAY_ADDRESS, else a new one of this run's "
                                          "own on this machine, listening on loopback only."),
    cpus_per_run: float = typer.Option(1.0, "--cpus-per-run", help="CPUs a Ray task reserves for one run (also "
                                       "the embedded model's threads, unless the config sets them)."),
    yes: bool = typer.Option(False, "--yes", "-y", help="Let the runs write, as `ragix run --yes` does (each run "
                             "works in a throwaway copy; tasks that ask for a change, like NL2Bash's, need it)."),
) -> None:
    """Evaluate engines on scenarios with known answers (spec 000 §8, §12)."""
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    from ragix_core.config import ConfigError, load_config
    from ragix_core.eval.benchmarks.registry import BenchmarkError
    from ragix_core.eval.engines import EngineUnavailable
    from ragix_core.eval.executor import ExecutorError
    from ragix_core.eval.executors import EXECUTORS, make_executor
    from ragix_core.eval.pool_executor import cores
    from ragix_core.eval.harness import CORPUS_MODES, EvalOptions
    from ragix_core.eval.report import partial_report, rich_table, to_markdown, write_json
    from ragix_core.eval.scenario import ScenarioError
    from ragix_core.eval.suite import SuiteSpec, executor_problem, run_suite
    from ragix_core.eval.workspace import WorkspaceError

    if corpus not in CORPUS_MODES:
        _fail(f"--corpus must be one of {', '.join(CORPUS_MODES)}, got {corpus!r}")
    if record and replay:
        _fail("--record and --replay exclude each other")
    if executor_name not in EXECUTORS:
        _fail(f"--executor must be one of {', '.join(EXECUTORS)}, got {executor_name!r}")
    if address is not None and executor_name != "ray":
        _fail("--address names a Ray cluster: it needs --executor ray")
    if not cpus_per_run > 0:
        _fail(f"--cpus-per-run must be > 0, got {cpus_per_run}")
    if jobs != 1 and executor_name != "local":
        _fail("--jobs sets the worker processes of --executor local; on Ray, the cluster's CPUs divided by "
              "--cpus-per-run decide how many runs run at once")
    jobs = jobs or cores()
    if cwd is not None and not cwd.is_dir():
        _fail(f"--cwd {cwd}: directory not found")
    try:
        config = load_config(config_path) if config_path or replay is None else None
    except ConfigError as exc:
        _fail(str(exc))
    try:
        strategies = chosen_strategies(strategy, baseline, bool(warmup))
    except ValueError as exc:
        _fail(str(exc))
    spec = SuiteSpec(
        sources=list(scenarios), strategies=strategies,
        options=EvalOptions(cwd=cwd.resolve() if cwd else None, model=model, profile=profile, config=config,
                            repeat=repeat, corpus=corpus, trace_dir=trace_dir, seed=seed, temperature=temperature,
                            strict=strict, extra={"assume_yes": True} if yes else {}),
        warmup=[str(w) for w in warmup], only=list(only), limit=limit, record=record, replay=replay,
    )
    if cwd is None:
        spec.options.cwd = Path.cwd()  # scenarios with a sibling fixture use it instead
    asked = f"--executor {executor_name}" if executor_name != "local" else (f"--jobs {jobs}" if jobs > 1 else None)
    problem = executor_problem(spec, asked)
    if problem:
        _fail(problem)
    try:  # after every check of the arguments: starting or joining a Ray cluster takes seconds
        executor = make_executor(executor_name, address=address, cpus_per_run=cpus_per_run, jobs=jobs)
    except (ExecutorError, ValueError) as exc:
        _fail(str(exc))
    console = Console(stderr=True)
    with Progress(TextColumn("[bold]eval[/]"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                  TextColumn("{task.description}"), console=console, transient=True) as progress:
        task = progress.add_task("", total=None)

        done = [0]
        finished: List = []

        def on_result(res) -> None:
            if json_out:  # rewritten after every run: a stopped evaluation keeps what it measured
                finished.append(res)
                write_json(partial_report(finished, progress.tasks[0].total), json_out)
            mark = "[green]pass[/]" if res.passed else "[red]fail[/]"
            progress.update(task, advance=1, description=f"{res.id} {mark}")
            done[0] += 1
            if not console.is_terminal:  # the bar is invisible in logs and CI: one line per run instead
                total = progress.tasks[0].total
                console.print(f"eval {done[0]}/{total or '?'} {getattr(res, 'strategy', '')} {res.id} "
                              f"{'pass' if res.passed else 'fail'} ({res.stop_reason}, {res.wall_time:.0f}s)",
                              highlight=False, markup=False)

        try:
            report = run_suite(spec, on_result=on_result, on_total=lambda n: progress.update(task, total=n),
                               executor=executor)
        except (ScenarioError, BenchmarkError, EngineUnavailable, WorkspaceError, ConfigError, ValueError) as exc:
            progress.stop()
            _fail(str(exc))
        finally:
            executor.close()
    Console().print(rich_table(report))
    if json_out:
        write_json(report, json_out)
        console.print(f"JSON report: {json_out}")
    if markdown_out:
        markdown_out.parent.mkdir(parents=True, exist_ok=True)
        markdown_out.write_text(to_markdown(report), encoding="utf-8")
        console.print(f"Markdown report: {markdown_out}")
    rate = report["aggregates"].get("pass_rate") or 0.0
    if min_pass_rate is not None and rate < min_pass_rate:
        console.print(f"pass rate {rate:.2f} < --min-pass-rate {min_pass_rate:.2f}")
        raise typer.Exit(1)
