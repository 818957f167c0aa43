"""The table docs/RESULTS.md opens with: an engine against the plain call, from `ragix eval --json` reports.

    python benchmarks/engine_vs_plain.py REPORT.json [REPORT.json ...] [--engine graph_v30] [--plain s0]
                                         [--within OTHER.json] [--together NAME | --repeats NAME]

Each report must hold both strategies' runs of the same scenarios (one `ragix eval -s ENGINE -s s0` command).
Per report, one Markdown row: pass (Wilson 95 % interval) for each, the difference, tokens and median wall time
as ratios of the plain call's, the runs that ended `success` with a wrong answer, and how many of the runs that
ended `success` were right (what a user can trust a `success` for). Tokens are counted twice:
all prompt and completion tokens sent, and the tokens computed (prompt tokens not served from the backend's
prefix cache, plus completion): sampled commands resend the same prompt, which the cache serves. Reports that are partial
(a run still going) are marked; --within keeps the scenarios another report ran too, to compare two commits on the
same scenarios. --together NAME reads the reports as parts of one run (a run stopped and the rest run with
--only, at the same commit: refused when the runs name different commits or a scenario twice) and prints one row.
--repeats NAME reads the reports as repeats of one set under different seeds (`--seed 1`, `--seed 2`, ...: what
`--repeat` runs, one command each): one row over every run (the interval counts runs, not tasks: repeats of a task
are not independent), then how many tasks each strategy passed in every repeat, in some, and in none. A strategy
may run in fewer of the repeats (the plain call is greedy: `--seed 2 -s ENGINE` repeats the engine alone); its
rate is over the runs it has.
Prints the rows and, with --json, the same figures as JSON.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path
from typing import Any, Dict, List, Optional

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from ragix_core.eval.evaluate import ScenarioResult  # noqa: E402
from ragix_core.eval.metrics import aggregate  # noqa: E402

_FIELDS = set(ScenarioResult.__dataclass_fields__)


def figures(runs: List[Dict[str, Any]]) -> Dict[str, Any]:
    """The report's own metrics (eval/metrics.aggregate) over ``runs``, and the wrong answers ending success."""
    m = aggregate([ScenarioResult(**{k: v for k, v in r.items() if k in _FIELDS}) for r in runs])
    n, passed = m["runs"], m["passed"]
    wrong_success = sum(1 for r in runs if r.get("stop_reason") == "success" and not r["passed"])
    said_success = sum(1 for r in runs if r.get("stop_reason") == "success")
    return {"said_success": said_success, "right_success": said_success - wrong_success,
            "runs": n, "passed": passed, "rate": passed / n if n else 0.0, "ci": m["pass_rate_ci95"] if n else None,
            "tokens": m["total_tokens"], "computed": m["computed_tokens"], "median_wall": m["median_wall_time"],
            "wrong_success": wrong_success, "stops": dict(Counter(str(r.get("stop_reason")) for r in runs).most_common())}


def both_ran(report: Dict[str, Any], engine: str, plain: str) -> set:
    """The scenario ids both strategies finished (a partial report holds some of one and not the other)."""
    by = {s: {r["id"] for r in report["scenarios"] if r["strategy"] == s} for s in (engine, plain)}
    return by[engine] & by[plain]


def compare(report: Dict[str, Any], engine: str, plain: str, within: Optional[set] = None) -> Dict[str, Any]:
    """The two strategies' figures over the scenarios both ran (and, with ``within``, only those ids)."""
    by = {s: [r for r in report["scenarios"] if r["strategy"] == s] for s in (engine, plain)}
    ids = both_ran(report, engine, plain)
    if within is not None:
        ids &= within
    out = {s: figures([r for r in runs if r["id"] in ids]) for s, runs in by.items()}
    e, p = out[engine], out[plain]
    out["difference"] = round(e["rate"] - p["rate"], 3)
    # Per run: pooled repeats may hold more runs of the engine than of the plain call (--repeats).
    for key in ("tokens", "computed"):
        per_plain = p[key] / p["runs"] if p["runs"] else 0
        out[f"{key}_ratio"] = round(e[key] / e["runs"] / per_plain, 2) if per_plain and e["runs"] else None
    out["wall_ratio"] = round(e["median_wall"] / p["median_wall"], 2) if e["median_wall"] and p["median_wall"] else None
    out["partial"] = bool(report.get("meta", {}).get("partial"))
    return out


def together(reports: List[Dict[str, Any]]) -> Dict[str, Any]:
    """One report from parts of one run: their scenarios, partial when any part is. A part of another commit, or
    a scenario run by the same strategy in two parts, is a ValueError: the row would mix what it compares."""
    commits = {r.get("commit") for rep in reports for r in rep["scenarios"] if r.get("commit")}
    if len(commits) > 1:
        raise ValueError(f"the parts ran different commits: {', '.join(sorted(commits))}")
    seen, scenarios = set(), []
    for rep in reports:
        for r in rep["scenarios"]:
            key = (r["id"], r["strategy"], r.get("run", 1))
            if key in seen:
                raise ValueError(f"{r['id']} ({r['strategy']}) is in two parts")
            seen.add(key)
            scenarios.append(r)
    return {"meta": {"partial": any(rep.get("meta", {}).get("partial") for rep in reports)}, "scenarios": scenarios}


def repeats(reports: List[Dict[str, Any]]) -> Dict[str, Any]:
    """One report from repeats of one set: each report's runs numbered by its place. Two reports of the same
    seed are a ValueError (the same run twice, not a repeat); the commits are named, since repeats run one
    after another may span a change."""
    seeds = [rep.get("meta", {}).get("seed") for rep in reports]
    twice = sorted({str(s) for s in seeds if seeds.count(s) > 1})
    if twice:
        raise ValueError(f"two reports ran seed {', '.join(twice)}: repeats need different seeds")
    scenarios = [dict(r, run=i + 1) for i, rep in enumerate(reports) for r in rep["scenarios"]]
    commits = sorted({r["commit"] for r in scenarios if r.get("commit")})
    # A strategy may run in fewer repeats than the others: the plain call is one greedy call, so its repeats
    # would repeat it (`ragix eval -s ENGINE --seed 2` adds a repeat of the engine alone).
    ran_in = Counter(s for rep in reports for s in {r["strategy"] for r in rep["scenarios"]})
    return {"meta": {"partial": any(rep.get("meta", {}).get("partial") for rep in reports), "commits": commits,
                     "repeats": len(reports), "repeats_by_strategy": dict(ran_in)}, "scenarios": scenarios}


def stability(report: Dict[str, Any], strategy: str, ids: set) -> Dict[int, int]:
    """How many of ``ids`` ``strategy`` passed in k of the report's repeats, for each k (every id run in each)."""
    passes: Dict[str, int] = Counter()
    for r in report["scenarios"]:
        if r["strategy"] == strategy and r["id"] in ids:
            passes[r["id"]] += bool(r["passed"])
    return dict(sorted(Counter(passes[i] for i in ids).items()))


def _rate(f: Dict[str, Any]) -> str:
    ci = f["ci"]
    return f"{f['passed']}/{f['runs']} = {f['rate']:.3f} [{ci[0]:.2f}, {ci[1]:.2f}]" if ci else "–"


def _tokens(e: Dict[str, Any], p: Dict[str, Any], key: str) -> str:
    """Totals when both ran as many runs; else the mean a run, which the ratio compares."""
    if e["runs"] == p["runs"]:
        return f"{e[key]:,} vs {p[key]:,}"
    return f"{round(e[key] / e['runs']):,} vs {round(p[key] / p['runs']):,} a run"


def row(name: str, c: Dict[str, Any], engine: str, plain: str) -> str:
    e, p = c[engine], c[plain]
    wall = f"{e['median_wall']:.1f} s vs {p['median_wall']:.1f} s = {c['wall_ratio']}×" if c["wall_ratio"] else "–"
    return (f"| {name}{' (partial)' if c['partial'] else ''} | {_rate(e)} | {_rate(p)} | {c['difference']:+.3f} | "
            f"{_tokens(e, p, 'tokens')} = {c['tokens_ratio']}× | "
            f"{_tokens(e, p, 'computed')} = {c['computed_ratio']}× | {wall} | "
            f"{e['wrong_success']}/{e['runs']} vs {p['wrong_success']}/{p['runs']} | "
            f"{e['right_success']}/{e['said_success']} vs {p['right_success']}/{p['said_success']} |")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("reports", nargs="+", type=Path)
    ap.add_argument("--engine", default="graph_v30")
    ap.add_argument("--plain", default="s0")
    ap.add_argument("--json", action="store_true", help="print the figures as JSON too")
    ap.add_argument("--together", metavar="NAME",
                    help="read the reports as parts of one run at one commit and print one row named NAME")
    ap.add_argument("--repeats", metavar="NAME",
                    help="read the reports as repeats of one set under different seeds; one row named NAME")
    ap.add_argument("--within", type=Path, metavar="REPORT",
                    help="only the scenarios both strategies ran in REPORT too (compare two commits on the same ones)")
    args = ap.parse_args()
    within = None
    if args.within:
        try:
            within = both_ran(json.loads(args.within.read_text()), args.engine, args.plain)
        except (OSError, ValueError, KeyError) as exc:
            print(f"{args.within}: cannot read the report ({exc})", file=sys.stderr)
            return 2
    print(f"| set | {args.engine} pass [95 % CI] | {args.plain} pass | difference | tokens sent | tokens computed | "
          "median wall / run | wrong answers ending `success` | right when it ended `success` |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    found, named = {}, []
    for path in args.reports:
        try:
            named.append((path.stem, json.loads(path.read_text())))
        except (OSError, ValueError) as exc:
            print(f"{path}: cannot read the report ({exc})", file=sys.stderr)
            return 2
    if args.together and args.repeats:
        print("--together and --repeats: one or the other", file=sys.stderr)
        return 2
    for option, join in (("together", together), ("repeats", repeats)):
        if getattr(args, option):
            try:
                named = [(getattr(args, option), join([report for _, report in named]))]
            except (KeyError, ValueError) as exc:
                print(f"--{option}: {exc}", file=sys.stderr)
                return 2
    for name, report in named:
        c = compare(report, args.engine, args.plain, within)
        if not c[args.engine]["runs"]:
            print(f"{name}: no run of both {args.engine} and {args.plain}", file=sys.stderr)
            continue
        found[name] = c
        print(row(name, c, args.engine, args.plain))
        if args.repeats:
            ids = both_ran(report, args.engine, args.plain)
            c["stability"] = {s: stability(report, s, ids) for s in (args.engine, args.plain)}
            for s, counts in c["stability"].items():
                k = report["meta"]["repeats_by_strategy"].get(s, 0)
                if k == 1:
                    print(f"\n{s}: ran in one of the repeats: passed {counts.get(1, 0)} of {len(ids)} tasks")
                    continue
                print(f"\n{s}: of {len(ids)} tasks, passed in all {k} repeats {counts.get(k, 0)}, in some "
                      f"{sum(n for j, n in counts.items() if 0 < j < k)}, in none {counts.get(0, 0)}")
            print(f"commits: {', '.join(report['meta']['commits'])}")
    if args.json:
        print(json.dumps(found, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
