"""hotspots: files that are both complex and often changed (code-maat; Tornhill, "Your Code as a Crime Scene").

Complexity alone flags stable code nobody touches; churn alone flags configuration and changelogs. Their
product points at the code where effort goes and defects gather. The score is that product scaled by
the tree's largest, so the tree's top hotspot scores 1 and the others are fractions of it (a ranking
within one tree, as code-maat's; ``commits`` and ``ccn_total`` stay in the rows for absolute reading):

    hotspot = (commits × ccn_total) / max over the tree's files of (commits × ccn_total)

``ccn_total`` is the file's summed cyclomatic complexity (metrics kernel, lizard), where code-maat uses
lines of code as its complexity proxy: both are kept in the rows so a reader can rank by either.
Files with no commit or no measured function score 0 and are left out.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any, Dict, List, Tuple

from ragix_core.kernels.audit.tree import SourceTree

__all__ = ["Hotspot", "compute"]


@dataclass
class Hotspot:
    path: str
    score: float
    commits: int
    authors: int
    ccn_total: int
    nloc: int


def compute(tree: SourceTree, inputs: Dict[str, Any]) -> Tuple[Dict[str, Any], List[str]]:
    churn = inputs["churn"]
    if not churn["available"]:
        return {"available": False, "files": []}, ["hotspots need git history; none was found"]
    changed = {c["path"]: c for c in churn["files"]}
    measured = [m for m in inputs["metrics"]["files"] if m["path"] in changed and m["ccn_total"] > 0]
    top = max((changed[m["path"]]["commits"] * m["ccn_total"] for m in measured), default=0)
    rows = []
    for m in measured:
        c = changed[m["path"]]
        score = round(c["commits"] * m["ccn_total"] / top, 4)
        rows.append(Hotspot(m["path"], score, c["commits"], c["authors"], m["ccn_total"], m["nloc"]))
    rows.sort(key=lambda h: (-h.score, h.path))
    return {"available": True, "max_product": top,
            "files": [asdict(h) for h in rows]}, []
