"""How often `ragix ask`'s router picks the expected route on the frozen mixed goal set.

    python benchmarks/router_accuracy.py [--goals benchmarks/router_goals.yaml] [--project DIR]
                                         [--model NAME_OR_GGUF] [--threads N] [--no-model | --label-all]
                                         [--out FILE.json]

The project is this repository (its file names are what the rules' "names a project file" signal
reads); a goal marked ``docs: true`` has a docs root. Three columns, same goals, same run:

    rules only      the rules, and the fallback route (graph) when they cannot tell
    rules + model   the rules, and the model's label when they cannot tell (what `ragix ask` does)
    model only      the model's label for every goal (with --label-all: a reference, what the label alone
                    would do; without it the model labels only the goals the rules cannot tell)

Prints accuracy per expected route and overall with 95% Wilson intervals, the misses, and the model's
seconds per label.
"""

from __future__ import annotations

import argparse
import collections
import datetime
import json
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, Dict, List, Optional

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import yaml  # noqa: E402

from ragix_core.collective.router import FALLBACK_ROUTE, choose_route, model_label, project_names  # noqa: E402
from ragix_core.collective.rules import ROUTES, RouteContext  # noqa: E402
from ragix_core.eval.metrics import wilson  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
COLUMNS = ("rules only", "rules + model", "model only")


def _cell(k: int, n: int) -> str:
    if not n:
        return "-"
    lo, hi = wilson(k, n)
    return f"{k}/{n} = {k / n:.0%} [{lo:.0%}, {hi:.0%}]"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--goals", type=Path, action="append", default=None,
                    help="a goal set (repeatable; default benchmarks/router_goals.yaml); one model load for all")
    ap.add_argument("--project", type=Path, default=ROOT)
    ap.add_argument("--model", default=None, help="model for the label (default: the embedded default)")
    ap.add_argument("--threads", type=int, default=None, help="embedded model threads (default: every core)")
    ap.add_argument("--no-model", action="store_true", help="rules only")
    ap.add_argument("--label-all", action="store_true", help="ask the model about every goal (the 'model only' column)")
    ap.add_argument("--out", type=Path, default=None, help="write every decision as JSON here")
    args = ap.parse_args()
    sets = args.goals or [ROOT / "benchmarks" / "router_goals.yaml"]
    loaded = {path: yaml.safe_load(path.read_text(encoding="utf-8"))["goals"] for path in sets}
    bad = [g for goals in loaded.values() for g in goals if g.get("expect") not in ROUTES]
    if bad:
        print(f"error: goals with an unknown expected route: {bad[:3]}", file=sys.stderr)
        return 2
    client = None
    if not args.no_model:
        from ragix_core.llm.factory import make_client

        client = make_client(args.model, threads=args.threads)
    out = {}
    for path, goals in loaded.items():
        out[path.name] = measure(path, goals, args, client)
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(json.dumps(out, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    return 0


def measure(path: Path, goals: List[Dict[str, Any]], args: Any, client: Any) -> Dict[str, Any]:
    """Route every goal of one set, print its table and misses, return the decisions."""
    names = project_names(args.project)
    rows, seconds = [], []
    for i, g in enumerate(goals, 1):
        context = RouteContext(names, bool(g.get("docs")))
        rules = choose_route(g["goal"], context)
        row = {"goal": g["goal"], "expect": g["expect"], "docs": bool(g.get("docs")), "rules only": rules.route,
               "rules_by": rules.by, "reason": rules.reason}
        if client is not None and (args.label_all or rules.by != "rules"):
            start = time.perf_counter()
            label, note = model_label(g["goal"], context, client)
            seconds.append(time.perf_counter() - start)
            row["model only"] = label or FALLBACK_ROUTE
            row["model_note"] = note
        if client is not None:
            row["rules + model"] = rules.route if rules.by == "rules" else row["model only"]
        rows.append(row)
        print(f"[{i}/{len(goals)}] {g['expect']:8} rules={rules.route:8}"
              + (f" model={row['model only']:8}" if "model only" in row else "") + f" {g['goal'][:60]}",
              file=sys.stderr)
    columns = [c for c in COLUMNS if all(c in r for r in rows)]
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True,
                            text=True).stdout.strip()
    print(f"\nrouter accuracy, {len(rows)} goals ({path.name}), {datetime.date.today()}, commit {commit}, "
          f"model {getattr(client, 'model', '-') if client else '-'}")
    print("| expected route | n | " + " | ".join(columns) + " |")
    print("| --- | ---: |" + " --- |" * len(columns))
    by = collections.defaultdict(list)
    for r in rows:
        by[r["expect"]].append(r)
    for route in ROUTES:
        members = by.get(route, [])
        if members:
            print(f"| {route} | {len(members)} | " + " | ".join(
                _cell(sum(r[c] == route for r in members), len(members)) for c in columns) + " |")
    print(f"| **overall** | {len(rows)} | " + " | ".join(
        _cell(sum(r[c] == r["expect"] for r in rows), len(rows)) for c in columns) + " |")
    undecided = sum(r["rules_by"] != "rules" for r in rows)
    print(f"rules undecided on {undecided} goals (the model labels those in 'rules + model')")
    if seconds:
        print(f"model label: {sum(seconds) / len(seconds):.1f} s per goal on average, {len(seconds)} calls")
    for c in columns:
        for r in rows:
            if r[c] != r["expect"]:
                print(f"miss [{c}] expected {r['expect']}, got {r[c]}: {r['goal']}")
    return {"commit": commit, "date": str(datetime.date.today()), "model": getattr(client, "model", None),
            "seconds_per_label": round(sum(seconds) / len(seconds), 1) if seconds else None, "rows": rows}


if __name__ == "__main__":
    raise SystemExit(main())
