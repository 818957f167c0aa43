"""The evaluation's runs in N worker processes on this machine (``ragix eval --jobs N``).

Each worker is a ``concurrent.futures.ProcessPoolExecutor`` of one process (spawn context: a fresh interpreter,
none of the driver's threads or the model's locks inherited). N pools of one rather than one pool of N because a
pool of N breaks as a whole when one of its processes dies, failing every run it holds with no word of which
process died; a pool of one says exactly which run lost its worker, so only that run is retried (once, in a new
process) and the others go on. A worker process serves run after run, and the embedded backend loads a model
once per process (llm/embedded.py), so the model is loaded once per worker, not once per run.

The jobs travel as they do to a Ray worker (portable_run.py): the scenario's directory packed once, unpacked
once per process, the trace brought back as bytes. The embedded model's threads default to ``cores // N`` per
worker (every core otherwise: N runs would fight over them), as the Ray executor sets them to its CPU reservation.
"""

from __future__ import annotations

import multiprocessing
import os
import pickle
from collections import deque
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from dataclasses import replace
from typing import Any, Deque, Dict, List, Optional, Sequence, Tuple

from ragix_core.eval.evaluate import ScenarioResult
from ragix_core.eval.executor import OnResult, RunJob
from ragix_core.eval.harness import CorpusFactory, default_corpus_factory
from ragix_core.eval.portable_run import (RETRIES, PortableJob, WorkerTally, first_line, fit_threads, harness_error,
                                          make_portable, run_portable)

__all__ = ["PoolExecutor", "RETRIES", "cores"]


def _check_sendable(pj: PortableJob) -> None:
    """Refuse, before any worker starts, a run the standard library cannot send to another process (a runner or
    a scenario setup that is a closure): N harness errors would say less than one refusal."""
    try:
        pickle.dumps(pj)
    except Exception as exc:  # PicklingError, AttributeError or TypeError, depending on what is not picklable
        raise ValueError(f"{pj.scenario.id} #{pj.run} cannot be sent to a worker process ({type(exc).__name__}: "
                         f"{first_line(exc)}): run it with --jobs 1") from None


def cores() -> int:
    """The cores this process may run on (its CPU affinity, which a container or `taskset` may narrow)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # no sched_getaffinity (macOS)
        return max(1, os.cpu_count() or 1)


class _Worker:
    """One worker process, behind a pool of one; replaced by a new one when it dies."""

    def __init__(self) -> None:
        self.pool = ProcessPoolExecutor(max_workers=1, mp_context=multiprocessing.get_context("spawn"))

    def stop(self, *, kill: bool = False) -> None:
        if kill:  # a run in progress is abandoned (Ctrl-C, a failing on_result): its process must not go on
            kill_workers = getattr(self.pool, "kill_workers", None)  # Python >= 3.14
            if kill_workers is not None:
                kill_workers()
            else:  # before 3.14 the pool's processes are only reachable through its private map
                for process in list((getattr(self.pool, "_processes", None) or {}).values()):
                    process.kill()
        self.pool.shutdown(wait=not kill, cancel_futures=True)


class PoolExecutor:
    name = "pool"

    def __init__(self, jobs: int, corpus_factory: CorpusFactory = default_corpus_factory) -> None:
        if jobs < 1:
            raise ValueError(f"--jobs must be >= 1, got {jobs}")
        self.jobs = jobs
        self.threads = max(1, cores() // jobs)
        self.corpus_factory = corpus_factory
        self._workers: List[_Worker] = []  # started on first use, kept (with their model) until close()
        self._tally = WorkerTally()
        self._runs = 0

    def run(self, jobs: Sequence[RunJob], on_result: Optional[OnResult] = None) -> List[ScenarioResult]:
        portable, packs = make_portable(
            [(j.scenario, j.run, j.runner, fit_threads(replace(j.opts), self.threads)) for j in jobs],
            self.corpus_factory)
        for pj in portable:
            _check_sendable(pj)
        while len(self._workers) < min(self.jobs, len(portable)):
            self._workers.append(_Worker())
        todo: Deque[PortableJob] = deque(portable)
        deaths: Dict[int, int] = {}
        running: Dict[Future, Tuple[int, PortableJob]] = {}
        results: List[Optional[ScenarioResult]] = [None] * len(portable)
        try:
            while todo or running:
                busy = {slot for slot, _ in running.values()}
                for slot in range(len(self._workers)):
                    if todo and slot not in busy:
                        pj = todo.popleft()
                        running[self._workers[slot].pool.submit(run_portable, pj, packs.get(pj.source))] = (slot, pj)
                done, _ = wait(list(running), return_when=FIRST_COMPLETED)
                for future in done:
                    slot, pj = running.pop(future)
                    res = self._collect(future, slot, pj, deaths, todo, jobs[pj.index].opts.trace_dir)
                    if res is None:
                        continue  # its worker died: the run waits for a worker again (at the front of the queue)
                    results[pj.index] = res
                    self._runs += 1
                    if on_result is not None:
                        on_result(res)
        except BaseException:
            self._stop_all(kill=True)
            raise
        return [r for r in results if r is not None]

    def _collect(self, future: Future, slot: int, pj: PortableJob, deaths: Dict[int, int],
                 todo: Deque[PortableJob], trace_dir: Any) -> Optional[ScenarioResult]:
        try:
            outcome = future.result()
        except BrokenProcessPool as exc:  # the worker process died (killed, out of memory, a crash in native code)
            self._workers[slot].stop()
            self._workers[slot] = _Worker()
            deaths[pj.index] = deaths.get(pj.index, 0) + 1
            if deaths[pj.index] <= RETRIES:
                todo.appendleft(pj)
                return None
            return self._tally.lost_run(pj, "its worker process", exc)
        except Exception as exc:  # the job itself raised (or could not be sent): deterministic, so not retried
            return harness_error(pj, f"the run failed in its worker process: {type(exc).__name__}: "
                                      f"{first_line(exc)}")
        return self._tally.landed(outcome, trace_dir)

    def describe(self) -> Dict[str, Any]:
        return {"name": self.name, "jobs": self.jobs, "threads_per_run": self.threads, "runs": self._runs,
                **self._tally.described()}

    def _stop_all(self, *, kill: bool) -> None:
        for worker in self._workers:
            worker.stop(kill=kill)
        self._workers = []

    def close(self) -> None:
        self._stop_all(kill=False)
