"""The report's two plots, drawn by matplotlib (Agg, no display) as SVG that is the same on every run.

SVG rather than PNG: text, so a report's files can be compared; the date matplotlib would stamp is left
out and its element ids are salted with a constant.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Dict, List

from ragix_core.kernels.audit.errors import MissingDependency

__all__ = ["churn_complexity_scatter", "risk_by_directory"]

_MAX_BARS = 20


def _pyplot() -> Any:
    try:
        import matplotlib
    except ImportError:
        raise MissingDependency("the audit report's plots need matplotlib: pip install 'ragix[audit]'") from None
    matplotlib.use("Agg", force=True)
    matplotlib.rcParams["svg.hashsalt"] = "ragix-audit"
    import matplotlib.pyplot as plt
    return plt


def _save(fig: Any, path: Path) -> None:
    fig.tight_layout()
    fig.savefig(path, format="svg", metadata={"Date": None})


def churn_complexity_scatter(hotspots: List[Dict[str, Any]], path: Path, label_top: int = 5) -> None:
    """Commits (x) against summed cyclomatic complexity (y), one point per file; the top hotspots named."""
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(7, 4.5))
    try:
        xs = [h["commits"] for h in hotspots]
        ys = [h["ccn_total"] for h in hotspots]
        ax.scatter(xs, ys, s=[8 + min(200, h["nloc"] / 5) for h in hotspots], c=[h["score"] for h in hotspots],
                   cmap="viridis_r", alpha=0.75, edgecolors="none")
        for h in hotspots[:label_top]:
            ax.annotate(h["path"].rsplit("/", 1)[-1], (h["commits"], h["ccn_total"]), fontsize=7,
                        xytext=(3, 3), textcoords="offset points")
        ax.set_xlabel("commits (git log, no merges)")
        ax.set_ylabel("summed cyclomatic complexity (lizard)")
        ax.set_title("Complexity vs churn per file (size: lines of code)")
        _save(fig, path)
    finally:
        plt.close(fig)


def risk_by_directory(directories: List[Dict[str, Any]], path: Path) -> None:
    """The nloc-weighted mean risk of the riskiest directories, as horizontal bars."""
    plt = _pyplot()
    rows = directories[:_MAX_BARS][::-1]  # highest at the top
    fig, ax = plt.subplots(figsize=(7, 1.6 + 0.3 * len(rows)))
    try:
        ax.barh([d["path"] for d in rows], [d["risk"] for d in rows], color="#c0504d")
        ax.set_xlim(0, 100)
        ax.set_xlabel("risk (0-100, nloc-weighted mean of the directory's files)")
        ax.tick_params(axis="y", labelsize=7)
        ax.set_title(f"Risk per directory (top {len(rows)})")
        _save(fig, path)
    finally:
        plt.close(fig)
