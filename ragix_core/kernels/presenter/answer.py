"""A short answer to "where is this codebase risky?" laid out from the kernels' JSON (no model).

`ragix ask` routes codebase-risk goals to the audit kernels; this is what it prints: the riskiest
files with the components of their score, the directories, and the first recommendations, each a
kernel's own sentence.
"""

from __future__ import annotations

from typing import Any, Dict, List

__all__ = ["risk_answer"]


def risk_answer(docs: Dict[str, Dict[str, Any]], top: int = 3) -> str:
    risk, recs = docs["risk"]["data"], docs["recommendations"]["data"]["items"]
    if not risk["files"]:
        return "No source file was found to audit."
    lines: List[str] = ["Riskiest files (risk 0-100, from hotspots, complexity, size, tests, TODO markers):"]
    for r in risk["files"][:top]:
        why = [f"max CCN {r['ccn_max']}", f"{r['nloc']} nloc", f"hotspot {r['hotspot']}"]
        if r["untested"]:
            why.append("no test names it")
        lines.append(f"- {r['path']}: risk {r['risk']} ({', '.join(why)})")
    lines.append("Riskiest directories: " + ", ".join(f"{d['path']} ({d['risk']})" for d in risk["directories"][:top]))
    if recs:
        lines.append("Fix first:")
        lines.extend(f"- [{r['rule']}] {r['text']}" for r in recs[:top])
    else:
        lines.append("No recommendation rule fired.")
    return "\n".join(lines)
