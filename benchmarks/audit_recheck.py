"""Re-check stored presenter-tier reports with the current claims check: no model, the recorded prose.

    python benchmarks/audit_recheck.py REPORT.json [REPORT.json ...]

REPORT is a file `benchmarks/audit_tiers.py --out` wrote. For each summary the kernels run again on the
report's tree (cached; the tree must still be there, e.g. .bench/audit after benchmarks/audit_kernels.py),
the facts of its cluster (for an executive summary, what T3's executive may cite: ``executive_view`` over
the directory summaries as they check now) are rebuilt, and the model's raw
prose goes through ``check_prose`` as it is now. Printed side by side with what the report recorded:
sentences kept then and now, and every sentence the current check drops that the recorded one kept, with
why. This is how a change to the check is measured on real model output without running the model.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any, Dict

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from ragix_core.kernels.audit import run_all  # noqa: E402
from ragix_core.kernels.presenter.claims import check_prose  # noqa: E402
from ragix_core.kernels.presenter.clusters import risk_clusters  # noqa: E402
from ragix_core.kernels.presenter.tiers import MAX_CLUSTERS, executive_view  # noqa: E402


def _checked(entry: dict, docs: dict) -> Dict[str, Any]:
    """{subject: the check as it is now} of the entry's summaries; the executive's facts from those."""
    clusters = risk_clusters(docs, MAX_CLUSTERS)
    by_dir = {c.directory: c for c in clusters}
    now: Dict[str, Any] = {}
    for summary in entry["summaries"]:
        if summary.get("raw") and summary["subject"] in by_dir:
            now[summary["subject"]] = check_prose(summary["raw"], by_dir[summary["subject"]].facts)
    executive = entry.get("executive") or {}
    if executive.get("raw"):
        _, facts, _ = executive_view(docs, clusters, [now.get(c.directory) for c in clusters])
        now["project"] = check_prose(executive["raw"], facts)
    return now


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("reports", nargs="+", type=Path)
    args = ap.parse_args()
    rows = []
    for report in args.reports:
        try:
            entries = json.loads(report.read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            print(f"audit_recheck: cannot read {report}: {exc}", file=sys.stderr)
            return 2
        for entry in entries:
            tree = Path(entry["tree"])
            if not tree.is_dir():
                print(f"audit_recheck: {report.name}: tree {tree} is not here (run benchmarks/audit_kernels.py)",
                      file=sys.stderr)
                return 2
            checks = _checked(entry, run_all(tree))
            summaries = entry["summaries"] + ([entry["executive"]] if entry.get("executive") else [])
            kept_then = kept_now = misattributed = 0
            for summary in summaries:
                now = checks.get(summary["subject"])
                if now is None:
                    continue
                kept_then += len(summary["kept"])
                kept_now += len(now.kept)
                for dropped in now.dropped:
                    misattributed += len(dropped.misattributed)
                    if dropped.sentence in summary["kept"]:
                        print(f"{tree.name} T{entry['tier']} {summary['subject']}: now dropped: {dropped.sentence}\n"
                              f"    unsupported {dropped.numbers}, unknown {dropped.paths}, "
                              f"misattributed {dropped.misattributed}")
            rows.append([report.name, tree.name, f"T{entry['tier']}", kept_then, kept_now, misattributed])
    print("| report | tree | tier | kept (recorded) | kept (now) | misattributed numbers (now) |")
    print("| --- | --- | --- | ---: | ---: | ---: |")
    for row in rows:
        print("| " + " | ".join(str(c) for c in row) + " |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
