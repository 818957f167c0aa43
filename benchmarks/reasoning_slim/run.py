"""Spec 002 §11 benchmark: scenarios S0–S6 of the ContractiveReasoner on tasks with checkable answers.

    ~/.cache/ragix/venv/bin/python benchmarks/reasoning_slim/run.py \
        --scenarios benchmarks/reasoning_slim/scenarios.yaml --per-category 4 --seed 7 \
        --out benchmarks/results/slim

Tasks are generated offline and seeded by reasoning-gym (date arithmetic: calendar_arithmetic;
multi-step logic: knights_knaves, family_relationships) and scored with reasoning-gym's own
checker (or an exact match after case and punctuation folding). Every scenario runs the same
tasks through ``ContractiveReasoner`` on the embedded model; identical model calls are shared
between scenarios (``shared_draws.py``: common random numbers, a paired comparison). Prints and
writes (``table.md``, ``results.jsonl``, one trace per run under ``traces/``): accuracy with a
Wilson 95% interval, keyword coverage, tokens (and × S0), model seconds, llm calls, decomposition
rate, peer agreement, clarification rate.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import math
import platform
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, Dict, List

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

import yaml  # noqa: E402

from ragix_core.llm.config import BackendSettings, LLMConfig, RoleOverride  # noqa: E402
from ragix_core.llm.factory import build_client  # noqa: E402
from ragix_core.llm.roles import Roles  # noqa: E402
from ragix_core.reasoning_slim import ContractiveReasoner, preset  # noqa: E402
from ragix_core.sampling import normalize_answer  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))
from shared_draws import DrawStore, SharedDrawClient  # noqa: E402

CATEGORIES = ("calendar_arithmetic", "knights_knaves", "family_relationships")
MODEL = "qwen2.5-coder-1.5b-instruct-q4_k_m"


def wilson(k: int, n: int, z: float = 1.96) -> tuple:
    if n == 0:
        return (0.0, 0.0)
    p = k / n
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return (max(0.0, c - h), min(1.0, c + h))


def make_tasks(per_category: int, seed: int) -> List[Dict[str, Any]]:
    import reasoning_gym

    by_cat = []
    for cat in CATEGORIES:
        data = reasoning_gym.create_dataset(cat, size=per_category, seed=seed)
        by_cat.append([{"id": f"{cat}-{seed}-{i}", "category": cat, "question": str(entry["question"]),
                        "answer": str(entry["answer"]), "entry": entry, "data": data}
                       for i, entry in enumerate(data)])
    return [t for group in zip(*by_cat) for t in group]  # interleaved: date, logic, logic, date, ...


def correct(task: Dict[str, Any], answer: str) -> bool:
    if not answer:
        return False
    try:
        if float(task["data"].score_answer(answer, task["entry"])) >= 0.99:
            return True
    except Exception:  # a checker that chokes on odd text: fall back to the exact comparison
        pass
    return normalize_answer(answer) == normalize_answer(task["answer"])


def keyword_coverage(task: Dict[str, Any], answer: str) -> float:
    expected = [w for w in dict.fromkeys(normalize_answer(task["answer"]).split()) if len(w) > 2 or w.isdigit()]
    if not expected:
        return 1.0 if correct(task, answer) else 0.0
    got = set(normalize_answer(answer).split())
    return sum(w in got for w in expected) / len(expected)


def git_commit() -> str:
    try:
        return subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"], capture_output=True,
                              text=True, check=True).stdout.strip()
    except Exception:
        return "?"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--scenarios", type=Path, default=Path(__file__).with_name("scenarios.yaml"))
    ap.add_argument("--only", nargs="*", help="scenario names to run (default: all in the file)")
    ap.add_argument("--per-category", type=int, default=4)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--model", default=MODEL)
    ap.add_argument("--out", type=Path, default=ROOT / "benchmarks" / "results" / "slim")
    ap.add_argument("--timeout", type=float, default=600.0,
                    help="per-call timeout in seconds (high: the machine is shared, a call can wait minutes)")
    ap.add_argument("--threads", type=int, default=None,
                    help="llama.cpp threads (default: every core; 1 avoids the per-op barrier stalls of a "
                         "2-thread model on an oversubscribed machine)")
    ap.add_argument("--report-only", action="store_true", help="render table.md from results.jsonl, run nothing")
    args = ap.parse_args()

    spec = yaml.safe_load(args.scenarios.read_text(encoding="utf-8"))["scenarios"]
    names = args.only or list(spec)
    tasks = make_tasks(args.per_category, args.seed)
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "traces").mkdir(exist_ok=True)
    store = DrawStore(args.out / "draws.jsonl")
    clients: Dict[str, SharedDrawClient] = {}
    current = {"task": ""}

    def factory(settings: BackendSettings) -> SharedDrawClient:
        key = f"{settings.backend}:{settings.model}"
        if key not in clients:
            clients[key] = SharedDrawClient(build_client(settings), store)
            clients[key].begin(current["task"])  # a client made mid-task starts at that task's draw 0
        return clients[key]

    header = {"date": dt.datetime.now(dt.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"), "commit": git_commit(),
              "model": args.model, "tasks": len(tasks), "per_category": args.per_category, "seed": args.seed,
              "categories": CATEGORIES, "machine": f"{platform.machine()} {platform.processor() or ''}".strip(),
              "command": " ".join([Path(sys.executable).name] + sys.argv)}
    print(json.dumps(header), flush=True)
    rows = []
    results_path = args.out / "results.jsonl"
    done = {}
    if results_path.exists():  # resume: a (scenario, task) already recorded is not run again
        for line in results_path.read_text(encoding="utf-8").splitlines():
            rec = json.loads(line)
            done[(rec["scenario"], rec["task"])] = rec
    t_start = time.time()
    if args.report_only:  # only tasks every listed scenario finished, so the rows stay paired
        ids = [t["id"] for t in tasks if all((n, t["id"]) in done for n in names)]
        rows = [done[(n, i)] for n in names for i in ids]
        header["tasks"] = len(ids)
        header["report_only"] = True
    configs = {}
    for name in names:
        sc = spec[name]
        params = preset(sc.get("preset"), **(sc.get("params") or {})).with_overrides(timeout_sec=args.timeout)
        peer = sc.get("peer")
        if peer:
            params = params.with_overrides(peer_review=True)
        configs[name] = (params, LLMConfig(default=BackendSettings(model=args.model, timeout=args.timeout, threads=args.threads),
                                           peer=RoleOverride(model=peer, threads=args.threads) if peer else RoleOverride()))
    # Task-major, categories interleaved: wherever a run stops, every scenario has the same tasks.
    for task in ([] if args.report_only else tasks):
        for name in names:
            if (name, task["id"]) in done:
                rows.append(done[(name, task["id"])])
                continue
            params, config = configs[name]
            current["task"] = task["id"]
            for c in clients.values():
                c.begin(task["id"])
            roles = Roles(config, client_factory=factory)
            engine = ContractiveReasoner(params=params, roles=roles)
            t0 = time.time()
            result = engine.solve_sync(task["question"])
            wall = time.time() - t0
            m = result.metrics
            reviewed = [n for n in result.tree if n.peer and n.peer.get("verdict")]
            rec = {"scenario": name, "task": task["id"], "category": task["category"], "expected": task["answer"],
                   "answer": result.final_answer, "correct": correct(task, result.final_answer),
                   "keyword_coverage": keyword_coverage(task, result.final_answer), "stop": result.stop_reason,
                   "tokens": m.total_tokens, "llm_calls": m.llm_calls, "wall": round(wall, 2),
                   "model_seconds": round(sum(c.latency for c in clients.values()), 2),
                   "decomposed": m.decomposed, "nodes": m.nodes, "max_depth": m.max_depth_reached,
                   "rebranches": m.rebranches, "pruned": m.pruned, "peer_reviewed": len(reviewed),
                   "peer_approved": sum(n.peer["verdict"] == "approved" for n in reviewed),
                   "clarification": result.clarification is not None,
                   "root_entropy": result.root.entropy.total if result.root.entropy else None}
            result.export_trace(args.out / "traces" / f"{name}__{task['id']}.json")
            with results_path.open("a", encoding="utf-8") as fh:
                fh.write(json.dumps(rec, ensure_ascii=False) + "\n")
            rows.append(rec)
            print(f"{name} {task['id']}: {'OK ' if rec['correct'] else 'BAD'} {rec['answer'][:40]!r} "
                  f"(want {task['answer'][:40]!r}) tok={rec['tokens']} calls={rec['llm_calls']} "
                  f"dec={int(rec['decomposed'])} {rec['wall']}s [draws shared {store.hits}, made {store.misses}]",
                  flush=True)
    table = render(rows, names, spec, header, time.time() - t_start, store)
    (args.out / "table.md").write_text(table, encoding="utf-8")
    print(table)
    return 0


def render(rows: List[Dict[str, Any]], names: List[str], spec: Dict[str, Any], header: Dict[str, Any],
           elapsed: float, store: DrawStore) -> str:
    by = {n: [r for r in rows if r["scenario"] == n] for n in names}
    s0 = by.get("S0") or []
    s0_tokens = (sum(r["tokens"] for r in s0) / len(s0)) if s0 else None
    out = [f"Run {header['date']}, commit {header['commit']}, model {header['model']} (embedded), "
           f"{header['tasks']} tasks (reasoning-gym seed {header['seed']}, categories interleaved: "
           f"{', '.join(header['categories'])}; up to {header['per_category']} per category); "
           + ("rendered from results.jsonl." if header.get("report_only") else
              f"this invocation {elapsed / 60:.1f} min, model calls made {store.misses}, shared {store.hits}."), "",
           "| scenario | accuracy (95% CI) | date | logic | keyword cov. | tokens/task (× S0) | model s/task "
           "| calls/task | decomposed | peer approved/reviewed | clarifications |",
           "|---|---|---|---|---|---|---|---|---|---|---|"]
    for n in names:
        rs = by[n]
        if not rs:
            continue
        k = sum(r["correct"] for r in rs)
        lo, hi = wilson(k, len(rs))
        date = [r for r in rs if r["category"] == "calendar_arithmetic"]
        logic = [r for r in rs if r["category"] != "calendar_arithmetic"]
        tok = sum(r["tokens"] for r in rs) / len(rs)
        ratio = f" ({tok / s0_tokens:.1f}×)" if s0_tokens else ""
        rev = sum(r["peer_reviewed"] for r in rs)
        app = sum(r["peer_approved"] for r in rs)
        out.append(f"| {n} | {k}/{len(rs)} = {k / len(rs):.0%} ({lo:.0%}–{hi:.0%}) "
                   f"| {sum(r['correct'] for r in date)}/{len(date)} | {sum(r['correct'] for r in logic)}/{len(logic)} "
                   f"| {sum(r['keyword_coverage'] for r in rs) / len(rs):.2f} | {tok:.0f}{ratio} "
                   f"| {sum(r['model_seconds'] for r in rs) / len(rs):.1f} | {sum(r['llm_calls'] for r in rs) / len(rs):.1f} "
                   f"| {sum(r['decomposed'] for r in rs)}/{len(rs)} | {f'{app}/{rev}' if rev else '–'} "
                   f"| {sum(r['clarification'] for r in rs)} |")
    out.append("")
    for n in names:
        out.append(f"- {n}: {spec[n].get('description', '')}")
    return "\n".join(out) + "\n"


if __name__ == "__main__":
    raise SystemExit(main())
