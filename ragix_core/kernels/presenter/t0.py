"""Presenter tier T0: the audit report with no model in it, a pure layout of the kernels' JSON.

``build_report`` turns the six kernel documents into blocks (summary, riskiest files, directories,
hotspots, most complex functions, recommendations, method); ``write_report`` writes ``report.md``,
``report.html`` and two SVG plots into a directory. No clock, no random order: the same kernel output
gives the same files.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Dict, List, Sequence

from ragix_core.kernels.presenter import plots
from ragix_core.kernels.presenter.document import (Block, Bullets, Figure, Heading, Paragraph, Table, to_html,
                                                   to_markdown)

__all__ = ["Report", "build_report", "write_report", "TOP"]

TOP = 15  # rows per ranking table: a report is read, the JSON has the rest
_SCATTER, _DIRS = "complexity_vs_churn.svg", "risk_by_directory.svg"


@dataclass
class Report:
    directory: Path
    files: List[Path]


def _summary(docs: Dict[str, Dict[str, Any]]) -> Table:
    m, c = docs["metrics"]["data"]["totals"], docs["churn"]["data"]
    history = (f"{c['totals']['commits']} commits, {c['totals']['authors']} authors" if c["available"]
               else "no git history")
    rows = [("source files", m["files"]), ("lines", m["lines"]), ("lines of code (nloc)", m["nloc"]),
            ("functions", m["functions"]), ("mean cyclomatic complexity", m["ccn_mean"]),
            ("TODO/FIXME/XXX markers", m["todo"]), ("history", history)]
    return Table(("measure", "value"), rows, (False, True))


def _functions(docs: Dict[str, Dict[str, Any]]) -> List[List[object]]:
    every = [(fn["ccn"], f["path"], fn["start"], fn["name"], fn["length"], fn["nloc"])
             for f in docs["metrics"]["data"]["files"] for fn in f["function_list"]]
    every.sort(key=lambda t: (-t[0], t[1], t[2]))
    return [[name, path, line, ccn, length, nloc] for ccn, path, line, name, length, nloc in every[:TOP]]


def build_report(docs: Dict[str, Dict[str, Any]], title: str, with_plots: bool = True,
                 model_blocks: Sequence[Block] = ()) -> List[Block]:
    """The report's blocks; ``model_blocks`` (tiers T1-T3's checked prose) go after the summary table."""
    risk, hot = docs["risk"]["data"], docs["hotspots"]["data"]
    recs = docs["recommendations"]["data"]
    notes = sorted({n for d in docs.values() for n in d["notes"]})
    blocks: List[Block] = [Heading(title, 1), Paragraph(
        f"Computed by ragix's audit kernels (no model): tree digest {docs['metrics']['tree_digest'][:12]}; "
        f"every number below is in the kernels' JSON (`ragix audit KERNEL DIR --json`).")]
    if notes:
        blocks += [Heading("Limits of this report"), Bullets(notes)]
    blocks += [Heading("Summary"), _summary(docs)]
    blocks += list(model_blocks)
    blocks += [Heading(f"Riskiest files (top {TOP})"), Table(
        ("file", "risk", "hotspot", "max CCN", "nloc", "untested", "TODO"),
        [[r["path"], r["risk"], r["hotspot"], r["ccn_max"], r["nloc"], "yes" if r["untested"] else "",
          r["todo_markers"]] for r in risk["files"][:TOP]], (False, True, True, True, True, False, True))]
    blocks += [Heading("Risk per directory"), Table(
        ("directory", "risk (nloc-weighted)", "max", "files", "nloc"),
        [[d["path"], d["risk"], d["risk_max"], d["files"], d["nloc"]] for d in risk["directories"][:TOP]],
        (False, True, True, True, True))]
    if with_plots:
        blocks.append(Figure(_DIRS, "Risk per directory"))
    blocks.append(Heading(f"Hotspots: complexity × churn (top {TOP})"))
    if hot["available"]:
        blocks.append(Table(("file", "hotspot", "commits", "authors", "summed CCN", "nloc"),
                            [[h["path"], h["score"], h["commits"], h["authors"], h["ccn_total"], h["nloc"]]
                             for h in hot["files"][:TOP]], (False, True, True, True, True, True)))
        if with_plots and hot["files"]:
            blocks.append(Figure(_SCATTER, "Complexity vs churn per file"))
    else:
        blocks.append(Paragraph("No git history was found, so there are no hotspots."))
    blocks += [Heading(f"Most complex functions (top {TOP})"), Table(
        ("function", "file", "line", "CCN", "length", "nloc"), _functions(docs), (False, False, True, True, True, True))]
    counts = ", ".join(f"{rule} {n}" for rule, n in recs["counts"].items() if n)
    blocks += [Heading("Recommendations"), Paragraph(f"By rule: {counts or 'none'}."),
               Bullets([f"[{r['rule']}] {r['text']}" for r in recs["items"]]) if recs["items"] else
               Paragraph("No rule fired.")]
    blocks += [Heading("Method"), Bullets([
        f"risk = {risk['formula']}",
        "untested: no test file names the file or imports it (a name match, not coverage)",
        "hotspot = commits × summed CCN, scaled by the tree's largest (1 = the top hotspot)",
        "kernels: " + ", ".join(f"{name} v{d['version']}" for name, d in docs.items())])]
    return blocks


def _write(path: Path, text: str) -> None:
    # written beside, then renamed: a reader of the old report never sees half of the new one
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, path)


def write_report(docs: Dict[str, Dict[str, Any]], out_dir: Path, title: str, with_plots: bool = True,
                 model_blocks: Sequence[Block] = ()) -> Report:
    """Write report.md, report.html and the plots into ``out_dir`` (created if needed)."""
    out_dir.mkdir(parents=True, exist_ok=True)
    written: List[Path] = []
    if with_plots:
        plots.risk_by_directory(docs["risk"]["data"]["directories"], out_dir / _DIRS)
        written.append(out_dir / _DIRS)
        if docs["hotspots"]["data"]["files"]:
            plots.churn_complexity_scatter(docs["hotspots"]["data"]["files"], out_dir / _SCATTER)
            written.append(out_dir / _SCATTER)
    blocks = build_report(docs, title, with_plots, model_blocks)
    _write(out_dir / "report.md", to_markdown(blocks))
    _write(out_dir / "report.html", to_html(blocks, title))
    return Report(out_dir, [out_dir / "report.md", out_dir / "report.html"] + written)
