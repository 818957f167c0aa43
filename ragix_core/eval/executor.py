"""How an evaluation's independent runs are executed: one small protocol, three implementations.

``LocalExecutor`` runs them one after another in this process (the default, what ``ragix eval`` always did);
``PoolExecutor`` (pool_executor.py, ``--jobs N``) runs N at a time in worker processes on this machine;
``RayExecutor`` (ray_executor.py) spreads them over a Ray cluster, one run per task. All take the same
``RunJob`` list and return one ScenarioResult per job, in job order (so the report lists runs in the same order
whichever ran them), calling ``on_result`` as each run finishes (in the order they finish). A run that breaks
becomes a result with ``stop_reason="harness_error"``: no job is ever missing from what ``run`` returns.

Every job gets a fresh experience corpus of its own (runs that share a corpus must run in order: the harness's
``run_scenarios`` and the learning curve do that, locally).
"""

from __future__ import annotations

import platform
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Dict, List, Optional, Protocol, Sequence, runtime_checkable

from ragix_core.eval.evaluate import ScenarioResult
from ragix_core.eval.harness import CorpusFactory, EvalOptions, Runner, default_corpus_factory, run_one
from ragix_core.eval.scenario import Scenario

__all__ = ["RunJob", "RunExecutor", "LocalExecutor", "ExecutorError", "models_loaded_here", "command_line_of"]

OnResult = Callable[[ScenarioResult], None]


class ExecutorError(RuntimeError):
    """The executor cannot be used (Ray not installed, cluster unreachable or too small); the message says why."""


@dataclass
class RunJob:
    """One run: ``scenario``'s run number ``run`` by ``runner`` with ``opts`` (its strategy set)."""

    scenario: Scenario
    run: int
    runner: Runner
    opts: EvalOptions


@runtime_checkable
class RunExecutor(Protocol):
    name: str

    def run(self, jobs: Sequence[RunJob], on_result: Optional[OnResult] = None) -> List[ScenarioResult]:
        """One result per job, in job order; ``on_result`` is called once per job as it finishes."""

    def describe(self) -> Dict[str, Any]:
        """What the report's ``meta.executor`` says: name, hosts, worker processes, model loads, ..."""

    def close(self) -> None:
        """Release what the executor started (a Ray instance it launched); idempotent."""


def command_line_of(executor: RunExecutor) -> Optional[str]:
    """How the command line asks for ``executor`` (None: the default, one run after another here)."""
    if executor.name == "local":
        return None
    jobs = getattr(executor, "jobs", None)
    return f"--jobs {jobs}" if jobs is not None else f"--executor {executor.name}"


def models_loaded_here() -> int:
    """How many models the embedded backend holds in this process (it loads each once per process)."""
    try:
        from ragix_core.llm.embedded import loaded_models
    except ImportError:  # the LLM layer without its runtime: no model can be loaded here
        return 0
    return len(loaded_models())


class LocalExecutor:
    """The runs one after another, in this process (the model stays loaded between them)."""

    name = "local"

    def __init__(self, corpus_factory: CorpusFactory = default_corpus_factory) -> None:
        self.corpus_factory = corpus_factory
        self._runs = 0
        self._model_loads = 0

    def run(self, jobs: Sequence[RunJob], on_result: Optional[OnResult] = None) -> List[ScenarioResult]:
        root = Path(tempfile.mkdtemp(prefix="ragix-eval-corpus-"))
        results: List[ScenarioResult] = []
        loaded_before = models_loaded_here()
        try:
            for i, job in enumerate(jobs):
                corpus = self.corpus_factory(root / f"{i:04d}-{job.run}")
                res = run_one(job.scenario, job.run, job.runner, job.opts, corpus)
                results.append(res)
                self._runs += 1
                if on_result is not None:
                    on_result(res)
        finally:
            self._model_loads += models_loaded_here() - loaded_before
            shutil.rmtree(root, ignore_errors=True)
        return results

    def describe(self) -> Dict[str, Any]:
        return {"name": self.name, "hosts": [platform.node() or "unknown"], "worker_processes": 1,
                "runs": self._runs, "model_loads": self._model_loads}

    def close(self) -> None:
        pass
