"""recommendations: rules over the risk table, each citing the numbers it rests on.

Every recommendation names its rule, its file (and function), and an ``evidence`` map of the kernel
numbers that triggered it; the sentence is written from those numbers only, so it can be checked
against them. Thresholds are the analysers' own where they have one (lizard warns above CCN 15).

    refactor_hotspot  hotspot ≥ 0.5 (half the tree's top) and ≥ 5 commits (a short history ranks nothing)
    split_function    a function's CCN > 15              (lizard's default warning threshold)
    long_function     a function longer than 100 lines
    add_tests         untested, nloc ≥ 100 and ccn_max ≥ 5
    triage_todos      ≥ 3 TODO/FIXME/XXX markers and ≥ 1 per 100 lines of code

Ordered by the file's risk, highest first; at most MAX_RECOMMENDATIONS (a note says how many more).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any, Dict, List, Optional, Tuple

from ragix_core.kernels.audit.tree import SourceTree

__all__ = ["Recommendation", "compute", "RULES", "MAX_RECOMMENDATIONS"]

HOTSPOT_MIN, HOTSPOT_COMMITS, CCN_MAX, LENGTH_MAX = 0.5, 5, 15, 100
UNTESTED_NLOC, UNTESTED_CCN, TODO_MIN, TODO_PER_100 = 100, 5, 3, 1.0
MAX_RECOMMENDATIONS = 100
RULES = ("refactor_hotspot", "split_function", "long_function", "add_tests", "triage_todos")


@dataclass
class Recommendation:
    rule: str
    path: str
    risk: float
    text: str
    evidence: Dict[str, Any] = field(default_factory=dict)
    function: Optional[str] = None


def _for_file(row: Dict[str, Any], metrics: Dict[str, Any], hot: Optional[Dict[str, Any]]) -> List[Recommendation]:
    path, risk, out = row["path"], row["risk"], []
    if hot and hot["score"] >= HOTSPOT_MIN and hot["commits"] >= HOTSPOT_COMMITS:
        out.append(Recommendation(
            "refactor_hotspot", path, risk,
            f"{path} changed in {hot['commits']} commits by {hot['authors']} authors and has total cyclomatic "
            f"complexity {hot['ccn_total']} (hotspot score {hot['score']}): simplify it or cover it with tests first.",
            {"commits": hot["commits"], "authors": hot["authors"], "ccn_total": hot["ccn_total"],
             "hotspot": hot["score"]}))
    for fn in metrics["function_list"]:
        if fn["ccn"] > CCN_MAX:
            out.append(Recommendation(
                "split_function", path, risk,
                f"{fn['name']} in {path} (line {fn['start']}) has cyclomatic complexity {fn['ccn']}, above "
                f"{CCN_MAX}: split it into smaller functions.",
                {"ccn": fn["ccn"], "line": fn["start"], "threshold": CCN_MAX}, fn["name"]))
        if fn["length"] > LENGTH_MAX:
            out.append(Recommendation(
                "long_function", path, risk,
                f"{fn['name']} in {path} (line {fn['start']}) is {fn['length']} lines long, over {LENGTH_MAX}.",
                {"length": fn["length"], "line": fn["start"], "threshold": LENGTH_MAX}, fn["name"]))
    if row["untested"] and row["nloc"] >= UNTESTED_NLOC and row["ccn_max"] >= UNTESTED_CCN:
        out.append(Recommendation(
            "add_tests", path, risk,
            f"No test file names or imports {path}: {row['nloc']} lines of code, most complex function "
            f"at cyclomatic complexity {row['ccn_max']}.",
            {"nloc": row["nloc"], "ccn_max": row["ccn_max"]}))
    density = 100.0 * row["todo_markers"] / row["nloc"] if row["nloc"] else 0.0
    if row["todo_markers"] >= TODO_MIN and density >= TODO_PER_100:
        out.append(Recommendation(
            "triage_todos", path, risk,
            f"{path} has {row['todo_markers']} TODO/FIXME/XXX markers in {row['nloc']} lines of code "
            f"({density:.1f} per 100): triage them.",
            {"todo_markers": row["todo_markers"], "nloc": row["nloc"], "per_100": round(density, 1)}))
    return out


def compute(tree: SourceTree, inputs: Dict[str, Any]) -> Tuple[Dict[str, Any], List[str]]:
    metrics = {m["path"]: m for m in inputs["metrics"]["files"]}
    hot = {h["path"]: h for h in inputs["hotspots"]["files"]}
    found: List[Recommendation] = []
    for row in inputs["risk"]["files"]:  # already ordered by risk
        found.extend(_for_file(row, metrics[row["path"]], hot.get(row["path"])))
    notes = []
    if len(found) > MAX_RECOMMENDATIONS:
        notes.append(f"{len(found) - MAX_RECOMMENDATIONS} more recommendations not listed "
                     f"(MAX_RECOMMENDATIONS = {MAX_RECOMMENDATIONS})")
    counts = {rule: sum(1 for r in found if r.rule == rule) for rule in RULES}
    return {"counts": counts, "items": [asdict(r) for r in found[:MAX_RECOMMENDATIONS]]}, notes
