"""Risk clusters: the unit a model summarizes in presenter tiers T1-T2, with the facts it may cite.

A cluster is a directory of the risk kernel's table (its files are the files directly in it), ranked
by the directory's nloc-weighted risk. Its facts are a few lines written from kernel rows only: the
directory row, its riskiest files (risk, complexity, size, tests, markers, churn) and the
recommendations that fired on them. ``Facts`` are collected from exactly the values those lines show,
so the checker accepts what the model was shown and nothing else; each line's numbers are bound to its
path, so a number given to another file is caught too (binding.py).
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any, Dict, List, Optional

from ragix_core.kernels.presenter.claims import Facts, facts_from

__all__ = ["Cluster", "risk_clusters", "project_facts", "executive_facts", "FILES_PER_CLUSTER",
           "RECOMMENDATIONS_PER_CLUSTER"]

FILES_PER_CLUSTER = 5  # a small model reads a short list better than a long one
RECOMMENDATIONS_PER_CLUSTER = 4


@dataclass
class Cluster:
    directory: str
    risk: float
    lines: List[str]  # the facts as the model reads them
    facts: Facts

    @property
    def text(self) -> str:
        return "\n".join(self.lines)


def _file_line(row: Dict[str, Any], hot: Optional[Dict[str, Any]]) -> tuple:
    tests = ("it is a test file" if row["test"] else
             "no test file names or imports it" if row["untested"] else "a test file names or imports it")
    shown: Dict[str, Any] = {"path": row["path"], "risk": row["risk"], "ccn_max": row["ccn_max"],
                             "nloc": row["nloc"], "todo": row["todo_markers"]}
    text = (f"file {row['path']}: risk {row['risk']}; most complex function at cyclomatic complexity "
            f"{row['ccn_max']}; {row['nloc']} lines of code; {tests}; {row['todo_markers']} TODO/FIXME markers")
    if hot:
        shown.update(commits=hot["commits"], authors=hot["authors"], hotspot=hot["score"])
        text += f"; changed in {hot['commits']} commits by {hot['authors']} authors (hotspot score {hot['score']})"
    return text, shown


def _recommendation_rows(rec: Dict[str, Any]) -> List[Dict[str, Any]]:
    """A recommendation as a row of its file, and the rule's threshold apart: a threshold is no file's number,
    any file may be said to pass it."""
    evidence = {k: v for k, v in rec["evidence"].items() if k != "threshold"}
    rows = [{"path": rec["path"], "text": rec["text"], "evidence": evidence}]
    return rows + ([{"threshold": rec["evidence"]["threshold"]}] if "threshold" in rec["evidence"] else [])


def _directory_line(d: Dict[str, Any]) -> tuple:
    """A directory row as the model reads it, and the values that line shows."""
    text = (f"directory {d['path']}: risk {d['risk']} (weighted mean of its files), highest file risk "
            f"{d['risk_max']}, {d['files']} files, {d['nloc']} lines of code")
    return text, {k: d[k] for k in ("path", "risk", "risk_max", "files", "nloc")}


def risk_clusters(docs: Dict[str, Dict[str, Any]], limit: Optional[int] = None) -> List[Cluster]:
    """The riskiest ``limit`` directories (all when None) as clusters, highest risk first."""
    risk = docs["risk"]["data"]
    hot = {h["path"]: h for h in docs["hotspots"]["data"]["files"]}
    recs = docs["recommendations"]["data"]["items"]
    by_dir: Dict[str, List[Dict[str, Any]]] = {}
    for row in risk["files"]:  # already by risk, highest first
        by_dir.setdefault(os.path.dirname(row["path"]) or ".", []).append(row)
    out: List[Cluster] = []
    for d in risk["directories"][:limit]:
        rows = by_dir.get(d["path"], [])[:FILES_PER_CLUSTER]
        line, values = _directory_line(d)
        lines, shown = [line], [values]
        for row in rows:
            text, values = _file_line(row, hot.get(row["path"]))
            lines.append(text)
            shown.append(values)
        paths = {row["path"] for row in rows}
        for rec in [r for r in recs if r["path"] in paths][:RECOMMENDATIONS_PER_CLUSTER]:
            lines.append(f"recommendation: {rec['text']}")
            shown.extend(_recommendation_rows(rec))
        out.append(Cluster(d["path"], d["risk"], lines, facts_from(shown, paths=[d["path"], *paths])))
    return out


def project_facts(docs: Dict[str, Dict[str, Any]]) -> tuple:
    """The whole project's headline numbers (T3's facts besides the clusters'): lines and Facts."""
    m, c = docs["metrics"]["data"]["totals"], docs["churn"]["data"]
    shown: Dict[str, Any] = {k: m[k] for k in ("files", "nloc", "functions", "ccn_mean", "todo")}
    line = (f"project: {m['files']} source files, {m['nloc']} lines of code, {m['functions']} functions, mean "
            f"cyclomatic complexity {m['ccn_mean']}, {m['todo']} TODO/FIXME markers")
    if c["available"]:
        shown.update(commits=c["totals"]["commits"], authors=c["totals"]["authors"])
        line += f", {c['totals']['commits']} commits by {c['totals']['authors']} authors"
    return [line], facts_from(shown)


def executive_facts(docs: Dict[str, Dict[str, Any]], limit: int) -> tuple:
    """T3's facts, bounded whatever the tree's size: the project's line, one line per directory (the riskiest
    ``limit``), the riskiest files of the whole project and their recommendations. Every cluster's lines
    would not fit: pygments' 30 directories are 21,608 characters of rows (this view: 5,171), some 6,000
    tokens against the default model's window of 4,096."""
    lines, facts = project_facts(docs)
    risk = docs["risk"]["data"]
    hot = {h["path"]: h for h in docs["hotspots"]["data"]["files"]}
    shown: List[Any] = []
    for d in risk["directories"][:limit]:
        line, values = _directory_line(d)
        lines.append(line)
        shown.append(values)
    rows = risk["files"][:FILES_PER_CLUSTER]  # already by risk, highest first
    for row in rows:
        text, values = _file_line(row, hot.get(row["path"]))
        lines.append(text)
        shown.append(values)
    paths = {row["path"] for row in rows}
    for rec in [r for r in docs["recommendations"]["data"]["items"] if r["path"] in paths][:RECOMMENDATIONS_PER_CLUSTER]:
        lines.append(f"recommendation: {rec['text']}")
        shown.extend(_recommendation_rows(rec))
    directories = [d["path"] for d in risk["directories"][:limit]]
    return lines, facts | facts_from(shown, paths=[*directories, *paths])
