"""A run that carries its inputs and brings back its outputs, so that it can run on another machine.

On a remote worker the scenario's directory, the trace directory and the evaluation's temp dirs of the machine
that started the evaluation do not exist. The driver packs each source directory once (``PortableJob.source``
names it by content hash); the worker unpacks it once per process, runs the job with the harness's own
``run_one`` in a fresh corpus of its own, and returns the result with the trace file's bytes; the driver writes
the trace where ``--trace-dir`` says. Nothing here imports Ray: the Ray executor and the local process pool
(pool_executor.py) only ship these functions.
"""

from __future__ import annotations

import atexit
import hashlib
import os
import shutil
import tempfile
import threading
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Dict, List, Optional, Sequence, Set, Tuple

from ragix_core.core.registry import DEFAULT_ENGINE
from ragix_core.eval.evaluate import ScenarioResult, error_result
from ragix_core.eval.harness import CorpusFactory, EvalOptions, Runner, run_one
from ragix_core.eval.scenario import Scenario
from ragix_core.eval.workspace import pack_directory, unpack_directory

__all__ = ["PortableJob", "PortableOutcome", "make_portable", "run_portable", "land", "fit_threads", "harness_error",
           "first_line", "WorkerTally", "RETRIES"]

RETRIES = 1  # a run whose worker process dies is run once more, then reported as a harness error


@dataclass
class PortableJob:
    index: int  # the job's place in the evaluation (results are reported in this order)
    scenario: Scenario  # with cwd None: the worker sets it to its unpacked copy of ``source``
    source: Optional[str]  # content hash of the packed directory to run in; None: an empty directory
    run: int
    runner: Runner
    opts: EvalOptions  # cwd, trace_dir and corpus_dir cleared (they are the driver's paths)
    keep_trace: bool
    corpus_factory: CorpusFactory


@dataclass
class PortableOutcome:
    index: int
    result: ScenarioResult
    trace: Optional[Tuple[str, bytes]]  # (file name, content) of the run's trace, when --trace-dir asked for it
    pid: int  # the worker process (its model stays loaded for the next run it gets)
    model_loads: int  # models this run had to load in that process (0 once the process has the model)


def make_portable(jobs: Sequence[Tuple[Scenario, int, Runner, EvalOptions]],
                  corpus_factory: CorpusFactory) -> Tuple[List[PortableJob], Dict[str, bytes]]:
    """The jobs with the driver's paths taken out, and each distinct source directory packed once (by hash)."""
    packed_by_dir: Dict[Path, str] = {}
    packs: Dict[str, bytes] = {}
    out: List[PortableJob] = []
    for index, (scenario, run, runner, opts) in enumerate(jobs):
        source_dir = None if scenario.empty_workdir else (scenario.cwd if scenario.cwd is not None else opts.cwd)
        key = None
        if source_dir is not None:
            source_dir = Path(source_dir).resolve()
            if source_dir not in packed_by_dir:
                data = pack_directory(source_dir)
                packed_by_dir[source_dir] = hashlib.sha256(data).hexdigest()[:24]
                packs[packed_by_dir[source_dir]] = data
            key = packed_by_dir[source_dir]
        out.append(PortableJob(
            index=index, scenario=replace(scenario, cwd=None), source=key, run=run, runner=runner,
            opts=replace(opts, cwd=None, trace_dir=None, corpus_dir=None), keep_trace=opts.trace_dir is not None,
            corpus_factory=corpus_factory))
    return out, packs


# Per worker process: each packed directory is unpacked once and reused by every run the process gets.
_UNPACKED: Dict[str, Path] = {}
_UNPACK_LOCK = threading.Lock()
_PROCESS_DIR: List[Path] = []


def _process_dir() -> Path:
    if not _PROCESS_DIR:
        _PROCESS_DIR.append(Path(tempfile.mkdtemp(prefix="ragix-eval-worker-")))
        atexit.register(shutil.rmtree, _PROCESS_DIR[0], True)
    return _PROCESS_DIR[0]


def _source_dir(key: str, data: bytes) -> Path:
    with _UNPACK_LOCK:
        if key not in _UNPACKED:
            _UNPACKED[key] = unpack_directory(data, _process_dir() / "sources" / key)
        return _UNPACKED[key]


def run_portable(job: PortableJob, packed_source: Optional[bytes]) -> PortableOutcome:
    """Run one job here (a worker process): its own corpus and trace dir in a temp dir removed afterwards."""
    from ragix_core.eval.executor import models_loaded_here  # the executors' module imports this one

    scratch = Path(tempfile.mkdtemp(prefix="run-", dir=_process_dir()))
    loaded_before = models_loaded_here()
    try:
        scenario = job.scenario
        if job.source is not None:
            if packed_source is None:
                raise ValueError(f"job {job.index} names source {job.source} but none was sent")
            scenario = replace(scenario, cwd=_source_dir(job.source, packed_source))
        trace_dir = scratch / "traces" if job.keep_trace else None
        opts = replace(job.opts, trace_dir=trace_dir)
        res = run_one(scenario, job.run, job.runner, opts, job.corpus_factory(scratch / "corpus"))
        trace = None
        if res.trace_path and trace_dir is not None and Path(res.trace_path).is_file():
            trace = (Path(res.trace_path).name, Path(res.trace_path).read_bytes())
        return PortableOutcome(index=job.index, result=res, trace=trace, pid=os.getpid(),
                               model_loads=models_loaded_here() - loaded_before)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def land(outcome: PortableOutcome, trace_dir: Optional[Path]) -> ScenarioResult:
    """The outcome's result on the driver: its trace written into ``trace_dir`` and pointed at."""
    res = outcome.result
    res.trace_path = None
    if outcome.trace is not None and trace_dir is not None:
        name, data = outcome.trace
        trace_dir.mkdir(parents=True, exist_ok=True)
        dst = trace_dir / Path(name).name  # a bare name: a worker's answer cannot write elsewhere
        dst.write_bytes(data)
        res.trace_path = str(dst)
    return res


def fit_threads(opts: EvalOptions, threads: int) -> EvalOptions:
    """``opts`` with the embedded model's threads set to ``threads`` (a run's share of the machine's cores),
    unless the config sets them: by default the model takes every core, and runs side by side would then fight
    over them. Changes ``opts`` (pass a copy)."""
    config = opts.config
    if config is None or config.llm.default.threads is not None:
        return opts
    data = config.model_dump()
    data["llm"]["default"]["threads"] = threads
    fitted = type(config).model_validate(data)
    fitted.source = config.source
    opts.config = fitted
    return opts


def first_line(exc: BaseException) -> str:
    """The line of an exception's text that says what happened (a remote traceback's last), at most 300 chars."""
    text = str(exc).strip()
    return text.splitlines()[-1][:300] if text else ""


def harness_error(job: PortableJob, message: str) -> ScenarioResult:
    """The result of a job that never came back from its worker: not passed, ``message`` saying why."""
    return error_result(job.scenario, message, job.run, job.opts.strategy or DEFAULT_ENGINE)


class WorkerTally:
    """What an executor that runs jobs in worker processes says of them in ``describe()``: the processes (and
    their machines) that ran a job, the models they loaded, the runs lost to workers that died."""

    def __init__(self) -> None:
        self.processes: Set[Tuple[str, int]] = set()
        self.model_loads = 0
        self.lost = 0

    def landed(self, outcome: PortableOutcome, trace_dir: Optional[Path]) -> ScenarioResult:
        self.processes.add((outcome.result.host, outcome.pid))
        self.model_loads += outcome.model_loads
        return land(outcome, trace_dir)

    def lost_run(self, job: PortableJob, worker: str, exc: BaseException) -> ScenarioResult:
        """The harness error of a run whose ``worker`` ("its Ray worker") died on every attempt."""
        self.lost += 1
        return harness_error(job, f"{worker} died {RETRIES + 1} times (run again once, then given up): "
                                  f"{type(exc).__name__}: {first_line(exc)}")

    def described(self) -> Dict[str, Any]:
        return {"retries": RETRIES, "hosts": sorted({host for host, _ in self.processes}),
                "worker_processes": len(self.processes), "runs_lost_to_dead_workers": self.lost,
                "model_loads": self.model_loads}
