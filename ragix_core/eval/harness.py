"""Run scenarios through an engine, each in its own working copy, and judge them.

The engine is any callable with the signature of ``ragix_core.runtime.run.run_goal``
(``goal, *, cwd, config, strategy, model, corpus, events, profile`` returning a
RunResult). It is injected, so the harness is tested without a model and the
baseline ``s0`` is measured exactly like the engines.

Experience corpus: with ``corpus="fresh"`` every run gets an empty corpus of its
own; with ``"keep"`` one corpus is shared by all runs in order, so later
scenarios can find the events of earlier ones. Either way the corpus lives in a
temporary directory (or ``corpus_dir``): an evaluation never reads or writes
the user's own experience.
"""

from __future__ import annotations

import platform
import shutil
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Dict, List, Optional, Sequence

from ragix_core.eval.evaluate import ScenarioResult, error_result, evaluate_run
from ragix_core.eval.scenario import Scenario
from ragix_core.eval.workspace import WorkspaceError, fingerprint, working_copy
from ragix_core.core.provenance import this_commit
from ragix_core.core.registry import DEFAULT_ENGINE

__all__ = ["EvalOptions", "run_one", "run_scenarios", "default_corpus_factory", "CORPUS_MODES"]

CORPUS_MODES = ("fresh", "keep")
Runner = Callable[..., Any]
CorpusFactory = Callable[[Path], Any]


def default_corpus_factory(root: Path) -> Any:
    """The engine's own corpus (spec 000 §5), rooted in an evaluation directory."""
    from ragix_core.memory.experience import HybridExperienceCorpus  # lazy: engine may be absent

    return HybridExperienceCorpus(global_root=root / "global", project_root=root / "project")


@dataclass
class EvalOptions:
    cwd: Optional[Path] = None  # default working directory for scenarios without their own
    strategy: Optional[str] = None
    model: Optional[str] = None
    profile: Optional[str] = None
    config: Any = None
    repeat: int = 1
    corpus: str = "fresh"
    corpus_dir: Optional[Path] = None  # where corpora live; a temp dir when None
    trace_dir: Optional[Path] = None  # traces are copied here before the working copy is removed
    seed: Optional[int] = None  # run r of a scenario gets seed + r - 1: repeats differ, reruns repeat
    temperature: Optional[float] = None  # every role's temperature (repeats only differ above 0)
    strict: bool = False  # a run passes only if it also ended in stop_reason "success"
    extra: Dict[str, Any] = field(default_factory=dict)  # passed to the runner as keywords


def _copy_trace(result: Any, opts: EvalOptions, scenario: Scenario, run: int, strategy: str) -> Optional[str]:
    src = getattr(result, "trace_path", None)
    if not opts.trace_dir or not src or not Path(src).is_file():
        return None  # a trace inside the working copy is removed with it
    opts.trace_dir.mkdir(parents=True, exist_ok=True)
    # The strategy is in the name: `ragix eval -s graph_v30 -s s0` runs each scenario once per strategy
    # into the same directory, and the baseline's trace must not replace the engine's.
    dst = opts.trace_dir / f"{strategy}-{scenario.id}-{run}{Path(src).suffix or '.jsonl'}"
    shutil.copyfile(src, dst)
    return str(dst)


def _configured(scenario: Scenario, config: Any, work: Path) -> Any:
    """The run's configuration (``_isolated``), with ``tools.home: project`` for a scenario whose working copy
    stands for a home directory."""
    config = _isolated(config, work)
    if scenario.home_is_workdir:
        config = config.model_copy(update={"tools": config.tools.model_copy(update={"home": "project"})})
    return config


def _isolated(config: Any, work: Path) -> Any:
    """The run's configuration with the user's global trace store switched off: an evaluation's hundreds of
    throwaway runs must not push the user's own sessions out of that bounded store, nor be found from their
    projects as experience."""
    from ragix_core.config import load_config

    config = config if config is not None else load_config(cwd=work)
    shared = config.memory.global_traces
    if not shared.enabled:
        return config
    isolated = config.model_copy(update={"memory": config.memory.model_copy(
        update={"global_traces": shared.model_copy(update={"enabled": False})})})
    return isolated


def run_one(scenario: Scenario, run: int, runner: Runner, opts: EvalOptions, corpus: Any) -> ScenarioResult:
    """Run ``scenario`` once in a working copy of its directory and judge it; never raises for a broken run
    (only KeyboardInterrupt). The result names the machine and the commit that ran it."""
    res = _run_one(scenario, run, runner, opts, corpus)
    res.host, res.commit = platform.node() or "unknown", this_commit()
    return res


def _run_one(scenario: Scenario, run: int, runner: Runner, opts: EvalOptions, corpus: Any) -> ScenarioResult:
    source = None if scenario.empty_workdir else (scenario.cwd if scenario.cwd is not None else opts.cwd)
    strategy = opts.strategy or DEFAULT_ENGINE
    before = fingerprint(source) if source is not None else None
    started = time.monotonic()
    try:
        with working_copy(source) as work:
            if scenario.setup is not None:
                try:
                    scenario.setup(work)
                except Exception as exc:
                    return error_result(scenario, f"setup failed: {exc}", run, strategy)
            sampling: Dict[str, Any] = {}
            if opts.seed is not None:
                sampling["seed"] = opts.seed + run - 1
            if opts.temperature is not None:
                sampling["temperature"] = opts.temperature
            try:
                result = runner(
                    scenario.input, cwd=work, config=_configured(scenario, opts.config, work), strategy=opts.strategy,
                    model=opts.model, corpus=corpus, events=None, profile=opts.profile, **sampling, **opts.extra,
                )
            except KeyboardInterrupt:
                raise
            except Exception as exc:  # one broken run must not hide the others
                return error_result(scenario, f"runner raised {type(exc).__name__}: {exc}", run, strategy,
                                    time.monotonic() - started)
            if getattr(getattr(result, "state", None), "stop_reason", None) == "user_abort":
                raise KeyboardInterrupt  # the engine ended the run on Ctrl-C; the user meant the whole eval
            res = evaluate_run(scenario, result, workdir=work, run=run, strategy=strategy, strict=opts.strict)
            res.trace_path = _copy_trace(result, opts, scenario, run, strategy)
    except WorkspaceError as exc:
        return error_result(scenario, str(exc), run, strategy)
    after = fingerprint(source) if before is not None else None
    if after != before:
        changed = sorted(k for k in set(before) | set(after) if before.get(k) != after.get(k))
        res.passed = False
        res.error = f"the original directory {source} was modified during the run: {', '.join(changed[:5])}"
        res.failure.append(res.error)
    return res


def run_scenarios(
    scenarios: Sequence[Scenario],
    runner: Runner,
    opts: EvalOptions,
    corpus_factory: CorpusFactory = default_corpus_factory,
    on_result: Optional[Callable[[ScenarioResult], None]] = None,
) -> List[ScenarioResult]:
    """Run every scenario ``opts.repeat`` times, in order; return one result per run."""
    if opts.corpus not in CORPUS_MODES:
        raise ValueError(f"corpus mode must be one of {', '.join(CORPUS_MODES)}, got {opts.corpus!r}")
    if opts.repeat < 1:
        raise ValueError(f"repeat must be >= 1, got {opts.repeat}")
    owned = opts.corpus_dir is None
    root = Path(tempfile.mkdtemp(prefix="ragix-eval-corpus-")) if owned else Path(opts.corpus_dir)
    results: List[ScenarioResult] = []
    try:
        shared = corpus_factory(root / "shared") if opts.corpus == "keep" else None
        for i, scenario in enumerate(scenarios):
            for run in range(1, opts.repeat + 1):
                corpus = shared if shared is not None else corpus_factory(root / f"{i:04d}-{run}")
                res = run_one(scenario, run, runner, opts, corpus)
                results.append(res)
                if on_result is not None:
                    on_result(res)
    finally:
        if owned:
            shutil.rmtree(root, ignore_errors=True)
    return results
