"""The same scenario runs through the local executor and through Ray (two 1-CPU workers on this machine).

    python benchmarks/eval_executors.py                      # file_search.yaml, first 6 scenarios, s0, default model
    python benchmarks/eval_executors.py --model smollm2-135m --threads 1      # greedy runs at equal threads
    python benchmarks/eval_executors.py --limit 13 --strategy graph_v30 --timeout 900

Prints the wall time of each (the evaluation as `ragix eval` runs it, Ray's start excluded and shown apart), the
pass/fail of every run side by side, whether they are identical (the model is greedy: temperature 0), and how
many worker processes Ray used and how many model loads they cost. The Ray cluster is a throwaway one on 127.0.0.1
(tests/eval/ray_cluster.py), stopped afterwards. ``--json`` keeps both reports.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import time
from datetime import datetime, timezone
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER", "0")  # a loopback cluster (set before ray is imported)
os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")

from benchmarks import provenance  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--scenarios", nargs="+", default=[str(ROOT / "tests/reasoning_v30/scenarios/file_search.yaml")])
    ap.add_argument("--limit", type=int, default=6)
    ap.add_argument("--strategy", default="s0")
    ap.add_argument("--model", default=None, help="default: the configured model")
    ap.add_argument("--timeout", type=float, default=600.0,
                    help="seconds per model call: a loaded machine must not turn the comparison into one of timeouts")
    ap.add_argument("--threads", type=int, default=None,
                    help="the embedded model's threads in both (default: every core locally, 1 per Ray worker); "
                         "greedy decoding is only repeatable at equal threads")
    ap.add_argument("--workers", type=int, default=2, help="CPUs of the Ray cluster (one run per CPU)")
    ap.add_argument("--json", type=Path, default=None)
    args = ap.parse_args()

    from ragix_core.config import parse_config
    from ragix_core.eval.executor import LocalExecutor
    from ragix_core.eval.harness import EvalOptions
    from ragix_core.eval.ray_executor import RayExecutor
    from ragix_core.eval.suite import SuiteSpec, run_suite
    from tests.eval.ray_cluster import RayCluster

    commit = provenance.commit()  # before the runs
    # greedy (every role at temperature 0), no traces; the embedded model's threads left to each executor
    config = parse_config({"llm": {"default": {"temperature": 0.0, "timeout": args.timeout, "threads": args.threads}},
                           "reasoning": {"traces": {"enabled": False}}})

    def spec() -> SuiteSpec:
        return SuiteSpec(sources=list(args.scenarios), strategies=[args.strategy], limit=args.limit,
                         options=EvalOptions(cwd=ROOT, model=args.model, config=config))

    def timed(executor):
        t0 = time.perf_counter()
        report = run_suite(spec(), executor=executor)
        return report, time.perf_counter() - t0

    print(f"# eval executors: {commit}, {platform.node()}, {os.cpu_count()} CPUs, "
          f"{datetime.now(timezone.utc).isoformat(timespec='seconds')}", flush=True)
    local, local_s = timed(LocalExecutor())
    print(f"local: {local_s:.1f} s", flush=True)

    cluster = RayCluster(num_cpus=args.workers)
    t0 = time.perf_counter()
    cluster.start()
    try:
        executor = RayExecutor(address=cluster.address, cpus_per_run=1)
        start_s = time.perf_counter() - t0
        try:
            remote, ray_s = timed(executor)
        finally:
            executor.close()
    finally:
        cluster.stop()
    print(f"ray: {ray_s:.1f} s (+ {start_s:.1f} s to start the cluster and connect)", flush=True)

    rows = []
    for a, b in zip(local["scenarios"], remote["scenarios"]):
        rows.append((a["id"], a["run"], a["passed"], b["passed"], a["stop_reason"], b["stop_reason"],
                     a["wall_time"], b["wall_time"], b["host"]))
    same = all(r[2] == r[3] for r in rows) and len(local["scenarios"]) == len(remote["scenarios"])
    same_answers = sum(a["final_answer"] == b["final_answer"] for a, b in zip(local["scenarios"], remote["scenarios"]))
    print("\n| run | local | ray | stop (local / ray) | run s (local / ray) |\n| --- | --- | --- | --- | --- |")
    for sid, run, lp, rp, ls, rs, lt, rt, _ in rows:
        print(f"| {sid} #{run} | {'pass' if lp else 'fail'} | {'pass' if rp else 'fail'} | {ls} / {rs} "
              f"| {lt:.1f} / {rt:.1f} |")
    ex = remote["meta"]["executor"]
    print(f"\nruns: {len(rows)}; identical pass/fail: {'yes' if same else 'NO'}; identical final answers: "
          f"{same_answers}/{len(rows)}; "
          f"pass rate local {local['aggregates']['pass_rate']} / ray {remote['aggregates']['pass_rate']}")
    print(f"wall: local {local_s:.1f} s, ray {ray_s:.1f} s (ratio {ray_s / local_s:.2f}); ray worker processes "
          f"{ex['worker_processes']}, model loads {ex['model_loads']} (local: {local['meta']['executor']['model_loads']})")
    print(f"command: python {' '.join(sys.argv)}")
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps({"commit": commit, "local": local, "ray": remote, "local_s": local_s,
                                         "ray_s": ray_s, "ray_start_s": start_s}, indent=1, default=str))
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
