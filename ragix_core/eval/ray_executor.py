"""The evaluation's runs as Ray tasks: one run per task, ``cpus_per_run`` CPUs reserved for each.

Ray reuses a worker process for the tasks it schedules on it, and the embedded backend loads a model once per
process (llm/embedded.py), so each worker process loads the model for its first run only; ``describe()`` counts
the loads and the processes, and the report carries them. Results come back as they finish (``ray.wait``) and are
reported in job order, as a local run reports them.

A worker process (or its machine) that dies mid-run makes Ray run the task again, once (``max_retries=1``); a
second death is reported as that run's harness error, and the other runs go on. An exception raised by the task
itself is a bug to see, not bad luck: it is reported at once, not retried. The machines must run the same ragix
(each run records the commit it ran) with the models it uses available locally.
"""

from __future__ import annotations

import logging
import math
import os
import socket
from dataclasses import replace
from pathlib import Path
from typing import Any, Dict, List, Optional, Sequence, Set, Tuple

from ragix_core.core.registry import DEFAULT_ENGINE
from ragix_core.eval.evaluate import ScenarioResult, error_result
from ragix_core.eval.executor import ExecutorError, OnResult, RunJob
from ragix_core.eval.harness import CorpusFactory, EvalOptions, default_corpus_factory
from ragix_core.eval.portable_run import PortableJob, land, make_portable, run_portable

__all__ = ["RayExecutor", "RETRIES"]

RETRIES = 1  # a run whose worker dies is run once more, then reported as a harness error
# Ray's single-machine mode: a head started here listens on loopback only. Ray reads it once, at import; without
# it a head started for an evaluation listens on every address and hands its workers the machine's outward one
# (Ray before 2.59 has no authentication on such a cluster: anyone on the network could run code here).
LOOPBACK_ONLY = "RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER"


def _import_ray() -> Any:
    try:
        import ray
    except ImportError:
        raise ExecutorError("--executor ray needs Ray on this machine and on the cluster's: "
                            "pip install 'ragix[ray]'") from None
    return ray


def _refuse_a_network_head(ray: Any) -> None:
    """Without single-machine mode (switched off in the environment, or Ray imported before the executor could
    switch it on) a head started here would listen on every address."""
    from ray._private import ray_constants  # where Ray keeps what it read at import

    if getattr(ray_constants, "ENABLE_RAY_CLUSTER", False):
        raise ExecutorError(f"Ray's single-machine mode is off in this process ({LOOPBACK_ONLY} is not 0, or Ray "
                            f"was imported before ragix could set it), so a head started here would listen on the "
                            f"network: unset it, or start a cluster yourself and pass --address")


def _check_reachable(address: str, timeout: float = 5.0) -> None:
    """Fail fast on a head that is not there: Ray itself waits minutes for an unreachable GCS."""
    host, sep, port = address.rpartition(":")
    if not sep or not port.isdigit() or "://" in address:
        return  # "auto", a ray:// client address: Ray resolves and reports those itself
    try:
        with socket.create_connection((host.strip("[]"), int(port)), timeout=timeout):
            pass
    except OSError as exc:
        raise ExecutorError(f"no Ray cluster answers at {address} ({exc.strerror or exc}); start its head with "
                            "`ray start --head` there, or correct --address") from None


def _same_address(a: str, b: str) -> bool:
    def norm(address: str) -> str:
        host, _, port = address.rpartition(":")
        try:
            return f"{socket.gethostbyname(host.strip('[]'))}:{port}"
        except OSError:
            return address
    return norm(a) == norm(b)


def _with_threads(opts: EvalOptions, threads: int) -> EvalOptions:
    """The embedded model's threads set to the run's CPU reservation, unless the config sets them: by default
    it takes every core, and two runs on one machine would then fight over them."""
    config = opts.config
    if config is None or config.llm.default.threads is not None:
        return opts
    data = config.model_dump()
    data["llm"]["default"]["threads"] = threads
    fitted = type(config).model_validate(data)
    fitted.source = config.source
    opts.config = fitted
    return opts


class RayExecutor:
    name = "ray"

    def __init__(self, address: Optional[str] = None, cpus_per_run: float = 1.0,
                 corpus_factory: CorpusFactory = default_corpus_factory) -> None:
        if not cpus_per_run > 0:
            raise ValueError(f"--cpus-per-run must be > 0, got {cpus_per_run}")
        local_head = not address and not os.environ.get("RAY_ADDRESS")
        if local_head:
            os.environ.setdefault(LOOPBACK_ONLY, "0")
        self._ray = ray = _import_ray()
        self.cpus_per_run = float(cpus_per_run)
        self.corpus_factory = corpus_factory
        if address:
            _check_reachable(address)
        self._started = not ray.is_initialized()
        if not self._started and address and not _same_address(address, ray.get_runtime_context().gcs_address):
            raise ExecutorError(f"this process is already connected to the Ray cluster at "
                                f"{ray.get_runtime_context().gcs_address}, not {address}")
        if self._started and local_head:
            _refuse_a_network_head(ray)
        if self._started:
            try:  # no address and no RAY_ADDRESS: a new head of our own, never a cluster someone else started here
                ray.init(address=address or ("local" if local_head else None), include_dashboard=False,
                         logging_level=logging.WARNING, log_to_driver=False)
            except Exception as exc:  # Ray reports an unreachable cluster as ConnectionError, RuntimeError, ...
                raise ExecutorError(f"cannot connect to the Ray cluster at {address or '(auto)'}: "
                                    f"{type(exc).__name__}: {str(exc).splitlines()[0] if str(exc) else ''}") from None
        self.address = address or ray.get_runtime_context().gcs_address
        cpus = float(ray.cluster_resources().get("CPU", 0))
        if cpus < self.cpus_per_run:
            self.close()
            raise ExecutorError(f"the Ray cluster at {self.address} has {cpus:g} CPUs; a run reserves "
                                f"{self.cpus_per_run:g} (--cpus-per-run)")
        self.cluster_cpus = cpus
        self._workers: Set[Tuple[str, int]] = set()
        self._model_loads = 0
        self._runs = 0
        self._lost = 0

    def run(self, jobs: Sequence[RunJob], on_result: Optional[OnResult] = None) -> List[ScenarioResult]:
        ray = self._ray
        threads = max(1, math.floor(self.cpus_per_run))
        portable, packs = make_portable(
            [(j.scenario, j.run, j.runner, _with_threads(replace(j.opts), threads)) for j in jobs], self.corpus_factory)
        pack_refs = {key: ray.put(data) for key, data in packs.items()}  # each directory sent once
        task = ray.remote(run_portable)
        pending: Dict[Any, PortableJob] = {}
        for pj in portable:
            ref = task.options(num_cpus=self.cpus_per_run, max_retries=RETRIES, retry_exceptions=False,
                               name=f"ragix-eval {pj.scenario.id} #{pj.run}").remote(pj, pack_refs.get(pj.source))
            pending[ref] = pj
        results: List[Optional[ScenarioResult]] = [None] * len(portable)
        try:
            while pending:
                done, _ = ray.wait(list(pending), num_returns=1)
                for ref in done:
                    pj = pending.pop(ref)
                    res = self._collect(ref, pj, jobs[pj.index].opts.trace_dir)
                    results[pj.index] = res
                    self._runs += 1
                    if on_result is not None:
                        on_result(res)
        except BaseException:  # Ctrl-C or a failing on_result: the cluster must not go on with our runs
            for ref in pending:
                ray.cancel(ref, force=True)
            raise
        return [r for r in results if r is not None]

    def _collect(self, ref: Any, pj: PortableJob, trace_dir: Optional[Path]) -> ScenarioResult:
        ray = self._ray
        try:
            outcome = ray.get(ref)
        except ray.exceptions.RayTaskError as exc:  # the task itself raised: deterministic, so not retried
            cause = getattr(exc, "cause", None) or exc
            return _harness_error(pj, f"the run failed on its Ray worker: {type(cause).__name__}: "
                                      f"{_first_line(cause)}")
        except ray.exceptions.RayError as exc:  # the worker process or its machine died
            self._lost += 1
            return _harness_error(pj, f"its Ray worker died {RETRIES + 1} times (run again once, then given up): "
                                      f"{type(exc).__name__}: {_first_line(exc)}")
        self._workers.add((outcome.result.host, outcome.pid))
        self._model_loads += outcome.model_loads
        return land(outcome, trace_dir)

    def describe(self) -> Dict[str, Any]:
        return {"name": self.name, "address": self.address, "cpus_per_run": self.cpus_per_run,
                "cluster_cpus": self.cluster_cpus, "retries": RETRIES,
                "hosts": sorted({host for host, _ in self._workers}), "worker_processes": len(self._workers),
                "runs": self._runs, "runs_lost_to_dead_workers": self._lost, "model_loads": self._model_loads}

    def close(self) -> None:
        if self._started and self._ray.is_initialized():
            self._ray.shutdown()
        self._started = False


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip()
    return text.splitlines()[-1][:300] if text else ""


def _harness_error(pj: PortableJob, message: str) -> ScenarioResult:
    return error_result(pj.scenario, message, pj.run, pj.opts.strategy or DEFAULT_ENGINE)
