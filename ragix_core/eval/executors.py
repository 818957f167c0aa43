"""Which executor a command line asks for (``--executor``, ``--jobs``): the one place that knows every
implementation of the executor protocol (eval/executor.py), so that the implementations depend on the protocol
and the protocol on none of them."""

from __future__ import annotations

from typing import Optional

from ragix_core.eval.executor import LocalExecutor, RunExecutor
from ragix_core.eval.harness import CorpusFactory, default_corpus_factory

__all__ = ["EXECUTORS", "make_executor"]

EXECUTORS = ("local", "ray")


def make_executor(name: str, *, address: Optional[str] = None, cpus_per_run: float = 1.0, jobs: int = 1,
                  corpus_factory: CorpusFactory = default_corpus_factory) -> RunExecutor:
    """The executor called ``name`` (one of EXECUTORS); ``jobs`` > 1 makes the local one a pool of that many
    worker processes. ExecutorError or ValueError says what is wrong."""
    if name not in EXECUTORS:
        raise ValueError(f"--executor must be one of {', '.join(EXECUTORS)}, got {name!r}")
    if jobs < 1:
        raise ValueError(f"--jobs must be >= 1, got {jobs}")
    if name == "local":
        if address is not None:
            raise ValueError("--address names a Ray cluster: it needs --executor ray")
        if jobs == 1:
            return LocalExecutor(corpus_factory)
        from ragix_core.eval.pool_executor import PoolExecutor

        return PoolExecutor(jobs, corpus_factory)
    if jobs != 1:
        raise ValueError("--jobs sets the worker processes of --executor local; on Ray, the cluster's CPUs "
                         "divided by --cpus-per-run decide how many runs run at once")
    from ragix_core.eval.ray_executor import RayExecutor

    return RayExecutor(address=address, cpus_per_run=cpus_per_run, corpus_factory=corpus_factory)
