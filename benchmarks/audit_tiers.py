"""Presenter tiers T1-T3 on real source trees: what the model cited that no kernel produced, and what it cost.

    python benchmarks/audit_tiers.py DIR [DIR ...] [--tier 1 --tier 3] [--top-k 3] [--model M] [--threads N] [--out FILE]

Per tree and tier: summaries written, numbers cited, sentences kept and dropped, unsupported numbers and
unknown file names in the dropped ones (the goal is 0: what the report prints never has them, this counts
what the checker had to remove), model calls, prompt and completion tokens, wall seconds. The kernels run
first (cached), so the seconds are the model's. Trees: any directory (the sdists of
benchmarks/audit_kernels.py are in .bench/audit after it ran).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from ragix_core.kernels.audit import run_all  # noqa: E402
from ragix_core.kernels.presenter.tiers import summarize  # noqa: E402
from ragix_core.llm.factory import make_client  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("trees", nargs="+", type=Path)
    ap.add_argument("--tier", type=int, action="append", choices=(1, 2, 3), default=None)
    ap.add_argument("--top-k", type=int, default=3)
    ap.add_argument("--model", default=None, help="model name or GGUF path (default: the embedded default)")
    ap.add_argument("--threads", type=int, default=None, help="embedded model threads (default: every core)")
    ap.add_argument("--out", type=Path, default=None, help="write every summary and check as JSON here")
    args = ap.parse_args()
    client = make_client(args.model, threads=args.threads)
    rows, details = [], []
    for tree in args.trees:
        docs = run_all(tree)
        for tier in args.tier or [1]:
            start = time.perf_counter()
            result = summarize(docs, client, tier, args.top_k,
                               progress=lambda what: print(f"{tree.name} T{tier}: {what}", file=sys.stderr))
            seconds = time.perf_counter() - start
            t, u = result.totals(), result.usage
            rows.append([tree.name, f"T{tier}", len(result.every()), t["numbers_checked"], t["sentences_kept"],
                         t["sentences_dropped"], t["unsupported_numbers"], t["unknown_paths"],
                         t["misattributed_numbers"], t["errors"],
                         u["calls"], u["prompt_tokens"], u["completion_tokens"], f"{seconds:.0f}"])
            details.append({"tree": str(tree), "tier": tier, "seconds": round(seconds, 1), **result.to_dict()})
            # After each tier, not at the end: a run of hours stopped early keeps what it measured.
            print("| " + " | ".join(str(c) for c in rows[-1]) + " |", file=sys.stderr)
            if args.out:
                args.out.parent.mkdir(parents=True, exist_ok=True)
                args.out.write_text(json.dumps(details, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"model {client.model}")
    print("| tree | tier | summaries | numbers cited | kept | dropped | unsupported numbers | unknown files | "
          "misattributed | errors | calls | prompt tokens | completion tokens | seconds |")
    print("| --- | --- |" + " ---: |" * 12)
    for row in rows:
        print("| " + " | ".join(str(c) for c in row) + " |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
