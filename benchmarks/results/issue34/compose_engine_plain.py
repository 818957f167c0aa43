"""One report from the engine's runs of one report and the plain call's runs of another (same set, same seed).

When a change touches only the engine, its set can be rerun with the engine alone (`ragix eval -s graph_v30
--no-baseline`) and read beside the plain call's runs of an earlier command: `s0` asks greedily, so at the same
seed and the same prompt it repeats itself (docs/RESULTS.md, the repeats). Only scenarios both reports ran are
kept; `meta.composed_of` names both reports and commits. Wall times were measured under different loads: compare
passes and tokens, not wall ratios.

    python benchmarks/results/issue34/compose_engine_plain.py ENGINE.json PLAIN.json OUT.json \
        [--engine graph_v30] [--plain s0]
"""
import argparse
import json
from pathlib import Path


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("engine_report")
    ap.add_argument("plain_report")
    ap.add_argument("out")
    ap.add_argument("--engine", default="graph_v30")
    ap.add_argument("--plain", default="s0")
    a = ap.parse_args()
    engine, plain = json.load(open(a.engine_report)), json.load(open(a.plain_report))
    mine = [s for s in engine["scenarios"] if s["strategy"] == a.engine]
    theirs = [s for s in plain["scenarios"] if s["strategy"] == a.plain]
    both = {s["id"] for s in mine} & {s["id"] for s in theirs}
    if not both:
        raise SystemExit(f"no scenario ran with {a.engine} in {a.engine_report} and {a.plain} in {a.plain_report}")
    runs = [s for s in mine if s["id"] in both] + [s for s in theirs if s["id"] in both]
    meta = dict(engine.get("meta", {}))
    meta["composed_of"] = [{"report": Path(a.engine_report).name, "strategy": a.engine,
                            "commit": mine[0].get("commit")},
                           {"report": Path(a.plain_report).name, "strategy": a.plain, "commit": theirs[0].get("commit")}]
    json.dump({"meta": meta, "scenarios": runs}, open(a.out, "w"), indent=1)
    print(f"{a.out}: {len(both)} scenarios, {a.engine} from {a.engine_report}, {a.plain} from {a.plain_report}")


if __name__ == "__main__":
    main()
