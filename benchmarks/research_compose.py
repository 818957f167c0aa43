"""One research report from two runs of research_bench.py --docset: the systems a new run chose
(``--systems``), beside the other systems' records of an earlier run, on the questions both ran.

    python benchmarks/research_compose.py NEW.json EARLIER.json [--json OUT.json]
    python benchmarks/research_compose.py NEW.json EARLIER.json --union [--json OUT.json]

For when a change touched one system only and the machine is too busy to rerun all four: the
systems taken from the earlier run must have sent the same prompts to the same model (greedy
decoding), which the caller states; the report names both commits and which systems came from which.
With --union, the two runs' questions are put together instead (a set run in parts, e.g. its single
questions at one commit and its multi and unanswerable ones at another with the same research code):
every system both ran, the new run's records for a question both ran; the report names both commits.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any, Dict, List, Optional

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from research_bench import SYSTEMS, markdown, summarize  # noqa: E402
from research_docsets import load_docset  # noqa: E402


def _origin(report: Dict[str, Any]) -> Any:
    """How a report was made: its command, or for a report composed already, what it was composed from."""
    return report.get("command") or report.get("composed_from")


def compose(new: Dict[str, Any], earlier: Dict[str, Any], questions: Dict[str, Any]) -> Dict[str, Any]:
    """The composed report: ``new``'s systems and ``earlier``'s others, on the questions both ran."""
    if new.get("docset", {}).get("name") != earlier.get("docset", {}).get("name"):
        raise ValueError("the two reports are of different question sets")
    if new.get("model") != earlier.get("model"):
        raise ValueError(f"the two reports used different models: {new.get('model')} and {earlier.get('model')}")
    ran_new = {r["system"] for r in new["records"]}
    both = [q for q in new["questions_run"] if q in set(earlier["questions_run"])]
    taken = [s for s in SYSTEMS if s not in ran_new and any(r["system"] == s for r in earlier["records"])]
    records = [r for r in new["records"] if r["id"] in both]
    records += [r for r in earlier["records"] if r["id"] in both and r["system"] in taken]
    systems = [s for s in SYSTEMS if s in ran_new or s in taken]
    return {"date": new["date"], "docset": new["docset"], "model": new["model"], "collection": new.get("collection"),
            "composed_from": {"new": {"commit": new["commit"], "command": _origin(new), "systems": sorted(ran_new)},
                              "earlier": {"commit": earlier["commit"], "command": _origin(earlier), "systems": taken}},
            "commit": new["commit"], "questions_run": both, "questions_chosen": new.get("questions_chosen"),
            "systems": {s: summarize(records, s, questions) for s in systems}, "records": records}


def union(new: Dict[str, Any], earlier: Dict[str, Any], questions: Dict[str, Any]) -> Dict[str, Any]:
    """One report over both runs' questions, in the set's order: ``new``'s records for the questions it ran,
    ``earlier``'s for the rest; only the systems both ran."""
    if new.get("docset", {}).get("name") != earlier.get("docset", {}).get("name"):
        raise ValueError("the two reports are of different question sets")
    if new.get("model") != earlier.get("model"):
        raise ValueError(f"the two reports used different models: {new.get('model')} and {earlier.get('model')}")
    systems = [s for s in SYSTEMS if any(r["system"] == s for r in new["records"])
               and any(r["system"] == s for r in earlier["records"])]
    ran_new = set(new["questions_run"])
    from_earlier = [q for q in earlier["questions_run"] if q not in ran_new]
    order = [q for q in questions if q in ran_new or q in from_earlier]
    records = [r for r in new["records"] if r["system"] in systems]
    records += [r for r in earlier["records"] if r["id"] in from_earlier and r["system"] in systems]
    return {"date": new["date"], "docset": new["docset"], "model": new["model"], "collection": new.get("collection"),
            "composed_from": {"new": {"commit": new["commit"], "command": _origin(new),
                                      "questions": sorted(ran_new)},
                              "earlier": {"commit": earlier["commit"], "command": _origin(earlier),
                                          "questions": from_earlier}},
            "commit": new["commit"], "questions_run": order, "questions_chosen": len(order),
            "systems": {s: summarize(records, s, questions) for s in systems}, "records": records}


def main(argv: Optional[List[str]] = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("new", type=Path)
    ap.add_argument("earlier", type=Path)
    ap.add_argument("--json", type=Path, default=None, help="write the composed report here")
    ap.add_argument("--union", action="store_true",
                    help="put the two runs' questions together (every system both ran) instead of their systems")
    args = ap.parse_args(argv)
    try:
        new, earlier = (json.loads(p.read_text()) for p in (args.new, args.earlier))
        ds = load_docset(new["docset"]["name"])
        report = (union if args.union else compose)(new, earlier, {q.id: q for q in ds.questions})
    except (OSError, ValueError, KeyError) as exc:
        print(f"research_compose: {type(exc).__name__}: {exc}", file=sys.stderr)
        return 2
    if args.json:
        args.json.write_text(json.dumps(report, indent=1, default=str))
    print(markdown(report))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
