"""One evaluation as the CLI runs it: sources → scenarios → runs per strategy → report.

Kept apart from the command line so it is tested without a terminal. A source
is a scenario YAML file or a benchmark spec (``bench:gsm:20``). Scenarios from a
file in a ``scenarios/`` folder that has a sibling ``fixtures/mock_repo`` run
over that fixture unless ``--cwd`` says otherwise; others run over the current
directory (always a copy).
"""

from __future__ import annotations

import fnmatch
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

from ragix_core.eval.benchmarks.registry import BENCH_PREFIX, benchmark_scenarios
from ragix_core.eval.engines import get_runner, recording_runner, replay_runner
from ragix_core.eval.evaluate import ScenarioResult
from ragix_core.eval.executor import LocalExecutor, RunExecutor, RunJob, command_line_of
from ragix_core.eval.harness import CORPUS_MODES, EvalOptions, default_corpus_factory, run_scenarios
from ragix_core.eval.learning import learning_curve
from ragix_core.eval.metrics import aggregate, pass_frequency
from ragix_core.eval.report import build_report
from ragix_core.eval.scenario import Scenario, ScenarioError, load_scenario_file
from ragix_core.core.provenance import this_commit
from ragix_core.core.registry import DEFAULT_ENGINE

__all__ = ["SuiteSpec", "load_sources", "run_suite", "fixture_for", "executor_problem"]


def fixture_for(path: Path) -> Optional[Path]:
    """``<dir>/fixtures/mock_repo`` next to a ``<dir>/scenarios/*.yaml`` file, if it exists."""
    candidate = Path(path).resolve().parent.parent / "fixtures" / "mock_repo"
    return candidate if Path(path).resolve().parent.name == "scenarios" and candidate.is_dir() else None


def load_sources(sources: Sequence[str], skipped: Optional[List[Tuple[str, str]]] = None) -> List[Scenario]:
    out: List[Scenario] = []
    for src in sources:
        if src.startswith(BENCH_PREFIX):
            out.extend(benchmark_scenarios(src, skipped=skipped))
            continue
        scenarios = load_scenario_file(Path(src))
        fixture = fixture_for(Path(src))
        for s in scenarios:
            s.cwd = fixture
        out.extend(scenarios)
    seen: Dict[str, str] = {}
    for s in out:
        if s.id in seen:
            raise ScenarioError(f"{s.source}: duplicate scenario id {s.id!r} (also in {seen[s.id]})")
        seen[s.id] = s.source
    return out


def _select(scenarios: List[Scenario], only: Sequence[str], limit: Optional[int]) -> List[Scenario]:
    if only:
        scenarios = [s for s in scenarios if any(fnmatch.fnmatchcase(s.id, pat) for pat in only)]
    return scenarios[:limit] if limit is not None else scenarios


@dataclass
class SuiteSpec:
    sources: List[str]
    strategies: List[Optional[str]] = field(default_factory=lambda: [None])
    options: EvalOptions = field(default_factory=EvalOptions)
    warmup: List[str] = field(default_factory=list)  # learning curve: warm-up sources
    only: List[str] = field(default_factory=list)
    limit: Optional[int] = None
    record: Optional[Path] = None
    replay: Optional[Path] = None


def executor_problem(spec: SuiteSpec, asked: Optional[str]) -> Optional[str]:
    """Why ``spec`` cannot run on the executor the command line ``asked`` for (``--executor ray``, ``--jobs 2``;
    None: one run after another in this process, which runs anything); None when it can."""
    if asked is None:
        return None
    if spec.warmup:
        return f"--warmup runs the warm-up and the kept corpus in order, in this process: not with {asked}"
    if spec.options.corpus == "keep":
        return f"--corpus keep shares one corpus between runs in order, in this process: not with {asked}"
    if spec.replay is not None:
        return f"--replay runs no model, there is nothing to spread over workers: not with {asked}"
    if spec.record is not None:
        return f"--record writes each run from this process, where it ran: not with {asked}"
    return None


def _runner_for(spec: SuiteSpec, strategy: Optional[str]) -> Callable[..., Any]:
    if spec.replay is not None:
        return replay_runner(spec.replay)
    runner = get_runner(strategy)
    return recording_runner(runner, spec.record) if spec.record is not None else runner


def run_suite(spec: SuiteSpec, runner_factory: Optional[Callable[[Optional[str]], Callable[..., Any]]] = None,
              corpus_factory: Callable[..., Any] = default_corpus_factory,
              on_result: Optional[Callable[[ScenarioResult], None]] = None,
              on_total: Optional[Callable[[int], None]] = None,
              executor: Optional[RunExecutor] = None) -> Dict[str, Any]:
    """Run everything and return the JSON report (see ``report.build_report``). ``executor`` runs the
    independent runs (default: one after another, here); runs that share a corpus always run here, in order."""
    if spec.options.corpus not in CORPUS_MODES:
        raise ValueError(f"corpus mode must be one of {', '.join(CORPUS_MODES)}, got {spec.options.corpus!r}")
    if spec.options.repeat < 1:
        raise ValueError(f"repeat must be >= 1, got {spec.options.repeat}")
    executor = executor or LocalExecutor(corpus_factory)
    problem = executor_problem(spec, command_line_of(executor))
    if problem:
        raise ValueError(problem)
    commit = this_commit()  # before the runs: the tree may change during a long evaluation
    skipped: List[Tuple[str, str]] = []
    scenarios = _select(load_sources(spec.sources, skipped), spec.only, spec.limit)
    warmup = load_sources(spec.warmup) if spec.warmup else []
    if not scenarios:
        raise ScenarioError("no scenario selected (check the files, --only and --limit)")
    per_strategy = len(scenarios) * spec.options.repeat * (2 if warmup else 1) + len(warmup) * spec.options.repeat
    if on_total is not None:
        on_total(per_strategy * len(spec.strategies))
    make_runner = runner_factory or (lambda s: _runner_for(spec, s))
    results: List[ScenarioResult] = []
    by_strategy: Dict[str, Any] = {}
    frequencies: Dict[str, Dict[str, str]] = {}
    curves: Dict[str, Any] = {}
    runs: Dict[Optional[str], List[ScenarioResult]] = {s: [] for s in spec.strategies}
    runners = {s: make_runner(s) for s in spec.strategies}
    if warmup or spec.options.corpus == "keep":
        # A corpus kept across runs belongs to one strategy: each strategy runs its scenarios in order.
        for strategy in spec.strategies:
            opts = replace(spec.options, strategy=strategy)
            if warmup:
                curves[strategy or DEFAULT_ENGINE], runs[strategy] = learning_curve(
                    warmup, scenarios, runners[strategy], opts, corpus_factory, on_result)
            else:
                runs[strategy] = run_scenarios(scenarios, runners[strategy], opts, corpus_factory, on_result)
    else:
        # Every run is independent (a fresh corpus each): each scenario is run by every strategy before
        # the next, so a report stopped half-way compares the same scenarios, under the same load.
        jobs = [RunJob(scenario, run, runners[strategy], replace(spec.options, strategy=strategy))
                for scenario in scenarios for strategy in spec.strategies
                for run in range(1, spec.options.repeat + 1)]
        for job, res in zip(jobs, executor.run(jobs, on_result)):
            runs[job.opts.strategy].append(res)
    for strategy in spec.strategies:
        rs = runs[strategy]
        name = strategy or DEFAULT_ENGINE
        results.extend(rs)
        by_strategy[name] = aggregate(rs)
        if spec.options.repeat > 1:
            frequencies[name] = pass_frequency(rs)
    primary = spec.strategies[0] or DEFAULT_ENGINE
    meta = {
        "strategy": ", ".join(s or DEFAULT_ENGINE for s in spec.strategies),
        "primary_strategy": primary,
        "model": spec.options.model or "(config default)",
        "corpus": "learning curve (keep vs fresh)" if warmup else spec.options.corpus,
        "repeat": spec.options.repeat,
        "seed": spec.options.seed,
        "temperature": spec.options.temperature,
        "strict": spec.options.strict,
        "sources": ", ".join(spec.sources),
        "replayed_from": str(spec.replay) if spec.replay else None,
        "skipped_benchmark_tasks": len(skipped),
        "commit": commit,
        "executor": executor.describe(),
    }
    report = build_report([r for r in results if r.strategy == primary], meta)
    report["scenarios"] = [r.to_dict() for r in results]  # every strategy's rows, each tagged
    report["by_strategy"] = by_strategy
    if frequencies:
        report["pass_frequency"] = frequencies
    if curves:
        report["learning_curve"] = curves[primary]
        report["learning_curves"] = curves
    return report
