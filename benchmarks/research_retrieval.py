"""The research index's first search on the frozen real-manual sets, without a model: does it find the page, and
the very chunk, that states each answer?

    python benchmarks/research_retrieval.py [--docset git-doc,sqlite3-doc] [--json out.json] [--verbose]

For every question of kinds single and multi: the first search the one-shot system makes (the question as the
query, the mode's tiers, ``retrieval.k`` hits), then the context it builds from them. Reported per set:
  gold page in context   a page that states the answer is among the context's documents
  quote chunk in hits    a hit's text holds the sentence the answer stands in (any part's, for multi)
and per question the ranks of both. Seconds, not hours: the measure to take before spending model time on a
retrieval change (the answers the model then writes are research_bench.py's).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any, Dict, List, Optional

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from benchmarks import provenance  # noqa: E402
from research_bench import SourceMap, _context, bench_settings  # noqa: E402
from research_docsets import fetch_docset, load_docset, verify_docset  # noqa: E402

from ragix_core.eval.benchmarks.errors import BenchmarkError  # noqa: E402
from ragix_core.research import DocumentIndex, SourceTierFilter  # noqa: E402


def _folded(text: str) -> str:
    return " ".join(text.split()).lower()


def measure(name: str, verbose: bool = False) -> Dict[str, Any]:
    ds = load_docset(name)
    docs = fetch_docset(ds)
    problems = verify_docset(ds, docs)
    if problems:
        raise BenchmarkError(f"{name} does not hold on {docs}: {problems[0]}")
    s = bench_settings(ds.sources)
    index = DocumentIndex.open(docs, docs.parent / "index")
    stats = index.update()
    smap, tf = SourceMap(s), SourceTierFilter(s.source_tiers, s.mode_configs)
    rows: List[Dict[str, Any]] = []
    for q in ds.questions:
        if q.kind not in ("single", "multi"):
            continue
        hits = index.search(q.question, s.retrieval.k, accept=lambda p, m=q.mode: tf.allows(smap.source_of(p), m))
        context_docs = {i["path"] for i in _context(index, smap, tf, hits, q.mode, s)}
        quotes = [_folded(quote) for _answer, quote, _gold in ds.quotes.get(q.id, []) if quote]
        rows.append({"id": q.id, "kind": q.kind,
                     "gold_ranks": [i for i, h in enumerate(hits) if h.path in q.gold_docs],
                     "quote_ranks": [i for i, h in enumerate(hits) if any(x in _folded(h.text) for x in quotes)],
                     "gold_in_context": bool(context_docs & set(q.gold_docs)),
                     "top": [h.path for h in hits[:3]]})
        if verbose:
            print(json.dumps(rows[-1]), flush=True)
    n = len(rows)
    return {"docset": name, "documents": stats.documents, "chunks": stats.chunks, "k": s.retrieval.k,
            "questions": n, "gold_page_in_context": sum(r["gold_in_context"] for r in rows),
            "quote_chunk_in_hits": sum(bool(r["quote_ranks"]) for r in rows), "rows": rows}


def main(argv: Optional[List[str]] = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--docset", default="git-doc,sqlite3-doc", help="frozen sets, comma-separated")
    ap.add_argument("--json", type=Path, default=None, help="also write the report here")
    ap.add_argument("--verbose", action="store_true", help="print each question's ranks as it goes")
    args = ap.parse_args(argv)
    report: Dict[str, Any] = {"date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
                              "commit": provenance.commit(), "command": " ".join(["python"] + sys.argv), "sets": []}
    try:
        for name in [x.strip() for x in args.docset.split(",") if x.strip()]:
            report["sets"].append(measure(name, args.verbose))
    except BenchmarkError as exc:
        print(f"research_retrieval: {exc}", file=sys.stderr)
        return 2
    if args.json:
        args.json.write_text(json.dumps(report, indent=1))
    print("| set | questions | gold page in context | quote chunk in the first k hits |")
    print("| --- | ---: | ---: | ---: |")
    for r in report["sets"]:
        print(f"| {r['docset']} | {r['questions']} | {r['gold_page_in_context']}/{r['questions']} | "
              f"{r['quote_chunk_in_hits']}/{r['questions']} (k = {r['k']}) |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
