"""Experience corpus search latency, local store (JSONL + SQLite FTS5) beside PostgreSQL, at 100k and 1M events.

Usage:
    python benchmarks/corpus_backends.py --sizes 100000,1000000 --queries 300 --dir .bench/corpus_backends
    python benchmarks/corpus_backends.py --dsn "host=db.example port=5432 dbname=ragix"   # an existing server

For each size N:
  load      N synthetic events (benchmarks/corpus_scale.py's generator: realistic goals, errors and
            identifiers with a Zipf-like spread over 120 days) into a local store with
            ``ExperienceCorpus.load`` (one file write, then the FTS5 index), then copied into
            PostgreSQL with ``PostgresCorpus.load`` (one transaction of COPY), as `ragix corpus
            migrate` does;
  search    the same Q queries through ``search_events(top_k=5)`` on each store, after a warm-up of
            20 queries, alternating stores query by query so both see the same machine load;
            p50 / p99 / mean milliseconds;
  agree     how often the two stores return the same first hit and the same top-5 (parity beyond
            the conformance suite's fixed corpus, where candidate pools are cut by LIMIT).
Without ``--dsn`` the PostgreSQL server is a throwaway cluster on loopback with default settings
(ragix_core/memory/throwaway_pg.py), started and removed by this script. Prints one JSON object.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import time
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any, Dict, Iterator, List

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from corpus_scale import DAYS_SPAN, Generator  # noqa: E402

WARMUP = 20
TOP_K = 5


def _events(n: int) -> Iterator[Dict[str, Any]]:
    gen = Generator()
    start = datetime.utcnow() - timedelta(days=DAYS_SPAN)
    for i in range(n):
        yield gen.event(i, n, start)


def _queries(q: int) -> List[str]:
    gen = Generator(seed=7)
    return [gen.query() for _ in range(q + WARMUP)]


def _pct(values: List[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


def _summary(ms: List[float]) -> Dict[str, float]:
    return {"p50_ms": round(_pct(ms, 50), 2), "p99_ms": round(_pct(ms, 99), 2),
            "mean_ms": round(statistics.fmean(ms), 2), "max_ms": round(max(ms), 2)}


def _key(hit: Any) -> Any:
    e = hit.event
    return (e.get("timestamp"), e.get("session_id"), e.get("step_num"))


def run_size(n: int, dsn: str, workdir: Path, queries: List[str]) -> Dict[str, Any]:
    from ragix_core.memory.experience import ExperienceCorpus
    from ragix_core.memory.postgres_store import PostgresCorpus

    root = workdir / f"local-{n}"
    shutil.rmtree(root, ignore_errors=True)
    local = ExperienceCorpus(root, max_age_days=90)
    t = time.perf_counter()
    local.load(_events(n))
    local_load = time.perf_counter() - t
    pg = PostgresCorpus(dsn, corpus=f"bench-{n}-{os.getpid()}", max_age_days=90)
    t = time.perf_counter()
    pg.load(local.records())
    pg_load = time.perf_counter() - t

    now = time.time()
    for q in queries[:WARMUP]:
        local.search_events(q, top_k=TOP_K, now=now)
        pg.search_events(q, top_k=TOP_K, now=now)
    lat: Dict[str, List[float]] = {"local": [], "postgres": []}
    same_first = same_top = answered = 0
    for i, q in enumerate(queries[WARMUP:]):
        hits = {}
        order = ("local", "postgres") if i % 2 == 0 else ("postgres", "local")
        for name in order:
            store = local if name == "local" else pg
            t = time.perf_counter()
            hits[name] = store.search_events(q, top_k=TOP_K, now=now)
            lat[name].append((time.perf_counter() - t) * 1000)
        a, b = [_key(h) for h in hits["local"]], [_key(h) for h in hits["postgres"]]
        if a or b:
            answered += 1
            same_first += bool(a and b and a[0] == b[0])
            same_top += a == b
    stats = pg.stats()
    pg.close()
    local.close()
    return {
        "events": n,
        "load_s": {"local_jsonl_and_fts5": round(local_load, 1), "postgres_copy": round(pg_load, 1)},
        "search": {name: _summary(ms) for name, ms in lat.items()},
        "queries": len(queries) - WARMUP,
        "agreement": {"queries_with_hits": answered, "same_first_hit": same_first, "same_top5_in_order": same_top},
        "sizes_bytes": {"local_jsonl": (root / "experience" / "events.jsonl").stat().st_size,
                        "local_index": (root / "experience" / "events.index.sqlite").stat().st_size,
                        "postgres_table_all_corpora": stats["table_bytes"]},
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sizes", default="100000,1000000", help="comma-separated corpus sizes")
    ap.add_argument("--queries", type=int, default=300)
    ap.add_argument("--dir", type=Path, default=Path(".bench/corpus_backends"))
    ap.add_argument("--dsn", help="an existing PostgreSQL (default: a throwaway cluster on loopback)")
    ap.add_argument("--keep", action="store_true", help="keep the local corpora under --dir")
    args = ap.parse_args()
    sizes = [int(s) for s in args.sizes.split(",") if s.strip()]
    args.dir.mkdir(parents=True, exist_ok=True)
    started = time.time()
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True,
                            cwd=Path(__file__).resolve().parents[1]).stdout.strip()  # the code that runs
    cluster = None
    dsn = args.dsn
    if dsn is None:
        from ragix_core.memory.throwaway_pg import ThrowawayCluster

        cluster = ThrowawayCluster().start()
        dsn = cluster.dsn
    try:
        queries = _queries(args.queries)
        results = []
        for n in sizes:
            results.append(run_size(n, dsn, args.dir, queries))
            print(json.dumps(results[-1]), file=sys.stderr, flush=True)
            if not args.keep:
                shutil.rmtree(args.dir / f"local-{n}", ignore_errors=True)
    finally:
        if cluster is not None:
            cluster.stop()
    print(json.dumps({"date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(started)), "commit": commit,
                      "postgres": "throwaway cluster, default settings" if cluster else "--dsn",
                      "cpus": os.cpu_count(), "load_average_at_end": os.getloadavg()[0], "run_minutes": round((time.time() - started) / 60, 1),
                      "results": results}, indent=2))


if __name__ == "__main__":
    main()
