"""Experience corpus at scale: append throughput, index build, query latency and memory.

Usage:
    .venv/bin/python benchmarks/corpus_scale.py --events 1000000 --queries 200 --dir .bench/corpus_scale

Phases run in child processes so each one's peak RSS (VmHWM) is its own:
  generate  N synthetic events through the real append path: ``--single`` of them
            with one locked write each (ExperienceCorpus.append), the rest with
            the bulk path (ExperienceCorpus.append_many, one lock per batch);
  index     build the FTS5 sidecar from the JSONL (first search does this);
  search    Q queries through ExperienceCorpus.search_events (p50 / p95 ms);
  linear    spec 000 §5.2's reference search, as written there (load the recent
            events into a list, keyword-score each), for ``--linear-queries`` queries.
Prints one JSON object with all figures and the index/linear ratios.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import time
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any, Dict, Iterable, List

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

DAYS_SPAN = 120  # events spread over 120 days: about a quarter is past the 90-day TTL
SEED = 20261126

TOOLS = ["ls", "find", "grep", "wc", "cat", "head", "tail", "sed", "python", "pytest", "git", "make", "cargo", "npm"]
GOALS = [
    "Find the largest {ext} file in {mod} by line count",
    "Fix the failing test {test} in {mod}",
    "Count lines of {ext} code under {mod}",
    "Explain why {mod}.{func} raises {exc}",
    "Rename {func} to {func2} across {mod}",
    "List TODO comments in {mod} {ext} files",
    "Add type hints to {func} in {mod}",
    "Find where {func} is called and summarize callers",
    "Build the {mod} package and run its tests",
    "Check why {tool} reports {exc} on {mod}",
]
STEPS = ["Run {tool} over {mod}", "Search {mod} for {func} with grep", "Count lines with wc -l in {mod}",
         "Read {mod}/{func}.{ext} head", "Execute pytest -k {test}", "Inspect git log for {mod}"]
ERRORS = ["{tool}: {mod}/{func}.{ext}: No such file or directory", "{exc}: No module named '{mod}'",
          "permission denied while writing {mod}/{func}.{ext}", "timeout after 30s running {tool} on {mod}",
          "{exc} in {func}: unexpected None", "exit status 2 from {tool}: invalid option -- {letter}"]
CRITIQUES = ["Quote paths with spaces before passing them to {tool}", "Check that {mod} exists before running {tool}",
             "Use find -name '*.{ext}' then wc -l instead of {tool}", "Install {mod} or fix the import path",
             "Narrow the search to {mod} to avoid the timeout", "Read {func} before editing; {exc} hides the cause"]
EXCS = ["ModuleNotFoundError", "FileNotFoundError", "PermissionError", "TimeoutError", "KeyError", "TypeError",
        "ValueError", "AttributeError", "ImportError", "RuntimeError"]
EXTS = ["py", "md", "rs", "ts", "js", "go", "yaml", "toml", "c", "h", "json", "sh"]


def _vocab(rng: random.Random, n: int, prefix: str) -> List[str]:
    syll = ["ka", "lo", "mi", "ra", "te", "su", "no", "vi", "de", "po", "an", "el", "or", "ix", "um", "qu"]
    out = set()
    while len(out) < n:
        out.add(prefix + "".join(rng.choice(syll) for _ in range(rng.randint(2, 4))))
    return sorted(out)


class Generator:
    """Deterministic realistic events; identifiers follow a Zipf-like law like real code bases."""

    def __init__(self, seed: int = SEED) -> None:
        # One vocabulary for events and queries (queries name things that exist); own random stream.
        vocab_rng = random.Random(SEED)
        self.mods = _vocab(vocab_rng, 3000, "")
        self.funcs = _vocab(vocab_rng, 8000, "f_")
        self.tests = _vocab(vocab_rng, 4000, "test_")
        self.rng = random.Random(seed)

    def _pick(self, seq: List[str]) -> str:
        # Zipf-ish: index = floor(len * u^3) favours the head of the list.
        return seq[int(len(seq) * self.rng.random() ** 3)]

    def _fill(self, template: str) -> str:
        r = self.rng
        return template.format(mod=self._pick(self.mods), func=self._pick(self.funcs), func2=self._pick(self.funcs),
                               test=self._pick(self.tests), ext=r.choice(EXTS), exc=r.choice(EXCS),
                               tool=r.choice(TOOLS), letter=r.choice("abcdefxyz"))

    def event(self, i: int, n: int, start: datetime) -> Dict[str, Any]:
        r = self.rng
        ts = start + timedelta(days=DAYS_SPAN * i / max(n, 1), seconds=r.uniform(-600, 600))
        failed = r.random() < 0.35
        etype = r.choices(["execution", "planning", "reflection", "verification", "respond"], [6, 2, 1, 1, 1])[0]
        stdout = "\n".join(self._fill("{mod}/{func}.{ext}") for _ in range(r.randint(0, 12)))
        return {
            # Naive UTC ISO timestamps, as spec 000's datetime.utcnow() writes them.
            "timestamp": ts.isoformat(), "session_id": f"sess-{i // 20:07d}", "event_type": etype,
            "goal": self._fill(r.choice(GOALS)), "step_num": i % 20 + 1, "step_description": self._fill(r.choice(STEPS)),
            "tool": r.choice(TOOLS), "tool_input": self._fill("{tool} {mod}"),
            "outcome_status": "failure" if failed else "success", "stdout": stdout,
            "stderr": self._fill(r.choice(ERRORS)) if failed else "", "returncode": 1 if failed else 0,
            "error": self._fill(r.choice(ERRORS)) if failed else None,
            "llm_critique": self._fill(r.choice(CRITIQUES)) if (failed or etype == "reflection") else None,
            "context_used": None, "meta": {"reflection_count": r.randint(0, 2) if etype != "planning" else 0},
        }

    def query(self) -> str:
        r = self.rng
        kind = r.random()
        if kind < 0.4:
            return self._fill(r.choice(GOALS))
        if kind < 0.7:
            return self._fill(r.choice(ERRORS))
        return self._fill(r.choice(["{exc} {mod}", "{tool} {mod} {ext}", "fix {test}", "{func} callers in {mod}"]))


def vm_hwm_mb() -> float:
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    import resource

    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


# --- phases (each in its own process) ---------------------------------------

def phase_generate(root: Path, n: int, single: int, batch: int) -> Dict[str, Any]:
    from ragix_core.memory.experience import ExperienceCorpus

    corpus = ExperienceCorpus(root, max_age_days=90)
    if corpus.events_path.exists():
        corpus.events_path.unlink()
    gen = Generator()
    start = datetime.utcnow() - timedelta(days=DAYS_SPAN)
    single = min(single, n)
    t0 = time.perf_counter()
    for i in range(single):
        corpus.append(gen.event(i, n, start))
    t_single = time.perf_counter() - t0
    gen_time = 0.0
    t0 = time.perf_counter()
    i = single
    while i < n:
        g0 = time.perf_counter()
        chunk = [gen.event(j, n, start) for j in range(i, min(n, i + batch))]
        gen_time += time.perf_counter() - g0
        corpus.append_many(chunk)
        i += len(chunk)
    t_bulk = time.perf_counter() - t0 - gen_time
    bulk = n - single
    return {"events": n, "bytes": corpus.events_path.stat().st_size,
            "single_appends": single, "single_append_s": round(t_single, 3),
            "single_events_per_s": round(single / t_single) if single else None,
            "bulk_appends": bulk, "bulk_batch": batch, "bulk_append_s_excl_generation": round(t_bulk, 3),
            "bulk_events_per_s": round(bulk / t_bulk) if bulk and t_bulk > 0 else None,
            "peak_rss_mb": round(vm_hwm_mb(), 1)}


def phase_index(root: Path) -> Dict[str, Any]:
    from ragix_core.memory.experience import ExperienceCorpus

    corpus = ExperienceCorpus(root, max_age_days=90)
    corpus.index._delete_files()
    t0 = time.perf_counter()
    added = corpus.index.sync()
    took = time.perf_counter() - t0
    stats = corpus.index.stats()
    return {"indexed_events": added, "build_s": round(took, 2), "events_per_s": round(added / took),
            "db_mb": round(stats["db_bytes"] / 2**20, 1), "peak_rss_mb": round(vm_hwm_mb(), 1)}


def phase_search(root: Path, queries: List[str], top_k: int) -> Dict[str, Any]:
    from ragix_core.memory.experience import ExperienceCorpus

    corpus = ExperienceCorpus(root, max_age_days=90)
    t0 = time.perf_counter()
    corpus.index.sync()  # open + "is there anything new?" check
    open_ms = (time.perf_counter() - t0) * 1000
    times, hits = [], 0
    for q in queries:
        t0 = time.perf_counter()
        found = corpus.search_events(q, top_k=top_k)
        times.append((time.perf_counter() - t0) * 1000)
        hits += len(found)
    times_sorted = sorted(times)

    def pct(p: float) -> float:
        return round(times_sorted[min(len(times_sorted) - 1, int(p * len(times_sorted)))], 3)

    return {"queries": len(queries), "top_k": top_k, "open_ms": round(open_ms, 2), "p50_ms": pct(0.50),
            "p95_ms": pct(0.95), "max_ms": round(max(times), 3), "mean_ms": round(sum(times) / len(times), 3),
            "mean_hits": round(hits / len(queries), 2), "peak_rss_mb": round(vm_hwm_mb(), 1)}


def spec_linear_search(events_path: Path, query: str, top_k: int = 5, max_age_days: int = 90) -> str:
    """Spec 000 §5.2 ExperienceCorpus._load_recent + search, as written there (reference only)."""
    cutoff = datetime.utcnow() - timedelta(days=max_age_days)
    out: List[dict] = []
    with events_path.open("r", encoding="utf-8") as f:
        for line in f:
            try:
                obj = json.loads(line)
                ts = datetime.fromisoformat(obj.get("timestamp"))
                if ts >= cutoff:
                    out.append(obj)
            except Exception:
                continue
    query_l = query.lower()
    candidates = []
    for ev in out:
        blob = " ".join([ev.get("goal", ""), ev.get("step_description", "") or "", ev.get("error", "") or "",
                         ev.get("llm_critique", "") or ""]).lower()
        score = sum(1 for token in query_l.split() if token in blob)
        if score > 0:
            candidates.append((score, ev))
    candidates.sort(key=lambda x: x[0], reverse=True)
    lines = []
    for i, ev in enumerate([ev for _, ev in candidates[:top_k]], 1):
        lines.append(f"[{i}] {ev.get('timestamp')} — goal={ev.get('goal')}")
        if ev.get("error"):
            lines.append(f"    error: {ev['error']}")
        if ev.get("llm_critique"):
            lines.append(f"    critique: {ev['llm_critique']}")
    return "\n".join(lines)


def phase_linear(root: Path, queries: List[str], top_k: int) -> Dict[str, Any]:
    path = root / "experience" / "events.jsonl"
    times = []
    for q in queries:
        t0 = time.perf_counter()
        spec_linear_search(path, q, top_k)
        times.append(time.perf_counter() - t0)
    return {"queries": len(queries), "mean_s": round(sum(times) / len(times), 3), "max_s": round(max(times), 3),
            "peak_rss_mb": round(vm_hwm_mb(), 1)}


# --- driver -------------------------------------------------------------------

def _child(args: List[str]) -> Dict[str, Any]:
    out = subprocess.run([sys.executable, __file__, *args], capture_output=True, text=True)
    if out.returncode != 0:
        raise SystemExit(f"phase {args[:2]} failed:\n{out.stderr}")
    return json.loads(out.stdout.strip().splitlines()[-1])


def main(argv: Iterable[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--events", type=int, default=1_000_000, help="events to generate (default 1,000,000)")
    ap.add_argument("--queries", type=int, default=200, help="indexed-search queries to time")
    ap.add_argument("--linear-queries", type=int, default=3, help="queries for the spec §5.2 linear scan")
    ap.add_argument("--single", type=int, default=100_000, help="events appended one locked write each")
    ap.add_argument("--batch", type=int, default=10_000, help="bulk append batch size for the rest")
    ap.add_argument("--top-k", type=int, default=5)
    ap.add_argument("--dir", type=Path, default=Path(".bench/corpus_scale"), help="work directory (reused)")
    ap.add_argument("--reuse", action="store_true", help="reuse an existing events.jsonl in --dir (skip generation)")
    ap.add_argument("--phase", help=argparse.SUPPRESS)
    args = ap.parse_args(list(argv) if argv is not None else None)
    if args.events < 1 or args.queries < 1 or args.linear_queries < 0:
        ap.error("--events and --queries must be >= 1, --linear-queries >= 0")
    root = args.dir.resolve()

    if args.phase:  # inside a child process
        gen = Generator(SEED + 1)
        queries = [gen.query() for _ in range(args.queries)]
        if args.phase == "generate":
            result = phase_generate(root, args.events, args.single, args.batch)
        elif args.phase == "index":
            result = phase_index(root)
        elif args.phase == "search":
            result = phase_search(root, queries, args.top_k)
        elif args.phase == "linear":
            result = phase_linear(root, queries[: args.linear_queries], args.top_k)
        else:
            ap.error(f"unknown phase {args.phase}")
        print(json.dumps(result))
        return

    root.mkdir(parents=True, exist_ok=True)
    common = ["--events", str(args.events), "--queries", str(args.queries), "--linear-queries",
              str(args.linear_queries), "--single", str(args.single), "--batch", str(args.batch),
              "--top-k", str(args.top_k), "--dir", str(root)]
    report: Dict[str, Any] = {"events": args.events, "dir": str(root), "cpu_count": os.cpu_count()}
    events_file = root / "experience" / "events.jsonl"
    if args.reuse and events_file.exists():
        report["append"] = {"reused": str(events_file), "bytes": events_file.stat().st_size}
    else:
        report["append"] = _child(["--phase", "generate", *common])
    report["index_build"] = _child(["--phase", "index", *common])
    report["indexed_search"] = _child(["--phase", "search", *common])
    if args.linear_queries:
        report["spec_linear_scan"] = lin = _child(["--phase", "linear", *common])
        s = report["indexed_search"]
        report["ratios"] = {
            "linear_mean_over_indexed_p50": round(lin["mean_s"] * 1000 / max(s["p50_ms"], 1e-6), 1),
            "linear_rss_over_indexed_rss": round(lin["peak_rss_mb"] / max(s["peak_rss_mb"], 1e-6), 1),
        }
    s = report["indexed_search"]
    report["targets"] = {"p50_le_10ms": s["p50_ms"] <= 10.0, "rss_le_200mb": s["peak_rss_mb"] <= 200.0}
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
