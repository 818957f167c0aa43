"""The same scenario runs through the local executor (one after another, in-process), the local process pool
(`ragix eval --jobs N`) and Ray (two 1-CPU workers on this machine), side by side.

    python benchmarks/eval_executors.py                      # file_search.yaml, first 6 scenarios, s0, default model
    python benchmarks/eval_executors.py --model smollm2-135m --threads 1      # greedy runs at equal threads
    python benchmarks/eval_executors.py --executors local pool --jobs 2       # one at a time vs two worker processes
    python benchmarks/eval_executors.py --pool                                # local, pool and Ray
    python benchmarks/eval_executors.py --limit 13 --strategy graph_v30 --timeout 900

Prints the wall time of each (the evaluation as `ragix eval` runs it; Ray's start excluded and shown apart), the
pass/fail of every run side by side with the first executor's, whether they are identical (the model is greedy:
temperature 0), and how many worker processes each used and how many model loads they cost. The Ray cluster is a
throwaway one on 127.0.0.1 (tests/eval/ray_cluster.py), stopped afterwards. ``--json`` keeps every report.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import time
from contextlib import contextmanager
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Dict, Iterator

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER", "0")  # a loopback cluster (set before ray is imported)
os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")

from benchmarks import provenance  # noqa: E402

EXECUTORS = ("local", "pool", "ray")




def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--scenarios", nargs="+", default=[str(ROOT / "tests/reasoning_v30/scenarios/file_search.yaml")])
    ap.add_argument("--limit", type=int, default=6)
    ap.add_argument("--strategy", default="s0")
    ap.add_argument("--model", default=None, help="default: the configured model")
    ap.add_argument("--timeout", type=float, default=600.0,
                    help="seconds per model call: a loaded machine must not turn the comparison into one of timeouts")
    ap.add_argument("--threads", type=int, default=None,
                    help="the embedded model's threads in every executor (default: every core locally, cores // "
                         "--jobs per pool worker, 1 per Ray worker); greedy decoding is only repeatable at equal "
                         "threads")
    ap.add_argument("--executors", nargs="+", choices=EXECUTORS, default=["local", "ray"],
                    help="which to run, in this order (the first is the reference the others are compared with)")
    ap.add_argument("--pool", action="store_true", help="the same as --executors local pool ray")
    ap.add_argument("--jobs", type=int, default=2, help="worker processes of the local pool")
    ap.add_argument("--workers", type=int, default=2, help="CPUs of the Ray cluster (one run per CPU)")
    ap.add_argument("--json", type=Path, default=None)
    args = ap.parse_args()
    names = ["local", "pool", "ray"] if args.pool else list(dict.fromkeys(args.executors))

    from ragix_core.config import parse_config
    from ragix_core.eval.harness import EvalOptions
    from ragix_core.eval.suite import SuiteSpec, run_suite

    commit = provenance.commit()  # before the runs
    # greedy (every role at temperature 0), no traces; the embedded model's threads left to each executor
    config = parse_config({"llm": {"default": {"temperature": 0.0, "timeout": args.timeout, "threads": args.threads}},
                           "reasoning": {"traces": {"enabled": False}}})

    def spec() -> SuiteSpec:
        return SuiteSpec(sources=list(args.scenarios), strategies=[args.strategy], limit=args.limit,
                         options=EvalOptions(cwd=ROOT, model=args.model, config=config))

    print(f"# eval executors: {commit}, {platform.node()}, {os.cpu_count()} CPUs, "
          f"{datetime.now(timezone.utc).isoformat(timespec='seconds')}", flush=True)
    reports: Dict[str, Dict[str, Any]] = {}
    walls: Dict[str, float] = {}
    starts: Dict[str, float] = {}
    for name in names:
        with _executor(name, args, starts) as executor:
            t0 = time.perf_counter()
            reports[name] = run_suite(spec(), executor=executor)
            walls[name] = time.perf_counter() - t0
        extra = f" (+ {starts[name]:.1f} s to start the cluster and connect)" if name in starts else ""
        print(f"{name}: {walls[name]:.1f} s{extra}", flush=True)

    ref = names[0]
    rows = {name: reports[name]["scenarios"] for name in names}
    same = {n: len(rows[n]) == len(rows[ref]) and all(a["passed"] == b["passed"] for a, b in zip(rows[ref], rows[n]))
            for n in names}
    print("\n| run | " + " | ".join(names) + " | stop (" + " / ".join(names) + ") | run s (" + " / ".join(names)
          + ") |\n|" + " --- |" * (len(names) + 3))
    for i, first in enumerate(rows[ref]):
        these = [rows[n][i] for n in names]
        print(f"| {first['id']} #{first['run']} | " + " | ".join("pass" if r["passed"] else "fail" for r in these)
              + " | " + " / ".join(r["stop_reason"] for r in these)
              + " | " + " / ".join(f"{r['wall_time']:.1f}" for r in these) + " |")
    print(f"\nruns: {len(rows[ref])}")
    for name in names:
        ex = reports[name]["meta"]["executor"]
        answers = sum(a["final_answer"] == b["final_answer"] for a, b in zip(rows[ref], rows[name]))
        print(f"{name}: wall {walls[name]:.1f} s (ratio to {ref} {walls[name] / walls[ref]:.2f}), pass rate "
              f"{reports[name]['aggregates']['pass_rate']}, pass/fail as {ref}: {'yes' if same[name] else 'NO'}, same "
              f"final answers {answers}/{len(rows[ref])}, worker processes {ex['worker_processes']}, model loads "
              f"{ex['model_loads']}")
    print(f"command: python {' '.join(sys.argv)}")
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps({"commit": commit, "reports": reports, "wall_s": walls, "start_s": starts},
                                        indent=1, default=str))
    return 0 if all(same.values()) else 1


@contextmanager
def _executor(name: str, args: argparse.Namespace, starts: Dict[str, float]) -> Iterator[Any]:
    """The executor called ``name``, closed (and Ray's throwaway cluster stopped) afterwards."""
    from ragix_core.eval.executor import LocalExecutor

    if name == "local":
        yield LocalExecutor()
        return
    if name == "pool":
        from ragix_core.eval.pool_executor import PoolExecutor

        executor = PoolExecutor(jobs=args.jobs)
        try:
            yield executor
        finally:
            executor.close()
        return
    from ragix_core.eval.ray_executor import RayExecutor
    from tests.eval.ray_cluster import RayCluster

    cluster = RayCluster(num_cpus=args.workers)
    t0 = time.perf_counter()
    cluster.start()
    try:
        executor = RayExecutor(address=cluster.address, cpus_per_run=1)
        starts[name] = time.perf_counter() - t0
        try:
            yield executor
        finally:
            executor.close()
    finally:
        cluster.stop()


if __name__ == "__main__":
    sys.exit(main())
