"""Re-check stored presenter-tier reports with the current claims check: no model, the recorded prose.

    python benchmarks/audit_recheck.py REPORT.json [REPORT.json ...]

REPORT is a file `benchmarks/audit_tiers.py --out` wrote. For each summary the kernels run again on the
report's tree (cached; the tree must still be there, e.g. .bench/audit after benchmarks/audit_kernels.py),
the facts of its cluster (or the project's, for an executive summary) are rebuilt, and the model's raw
prose goes through ``check_prose`` as it is now. Printed side by side with what the report recorded:
sentences kept then and now, and every sentence the current check drops that the recorded one kept, with
why. This is how a change to the check is measured on real model output without running the model.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from ragix_core.kernels.audit import run_all  # noqa: E402
from ragix_core.kernels.presenter.claims import Facts, check_prose  # noqa: E402
from ragix_core.kernels.presenter.clusters import project_facts, risk_clusters  # noqa: E402


def _facts(docs: dict, subject: str, clusters: dict) -> Facts:
    if subject in clusters:
        return clusters[subject]
    _, facts = project_facts(docs)  # the executive summary: the project's facts and every cluster's
    for cluster_facts in clusters.values():
        facts = facts | cluster_facts
    return facts


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
            docs = run_all(tree)
            clusters = {c.directory: c.facts for c in risk_clusters(docs)}
            summaries = entry["summaries"] + ([entry["executive"]] if entry.get("executive") else [])
            kept_then = kept_now = misattributed = 0
            for summary in summaries:
                if not summary.get("raw"):
                    continue
                now = check_prose(summary["raw"], _facts(docs, summary["subject"], clusters))
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
