"""Reports: one JSON document, its Markdown rendering and a Rich table.

The JSON report is the source; Markdown and the terminal table are views of it.
Shape: ``{"meta": {...}, "aggregates": {...}, "by_category": {...},
"scenarios": [{"id", "passed", ...}], "learning_curve"?: {...}}``.
"""

from __future__ import annotations

import json
import os
import platform
from collections import OrderedDict
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Dict, List, Optional, Sequence

from ragix_core.eval.evaluate import ScenarioResult
from ragix_core.eval.metrics import aggregate

__all__ = ["build_report", "partial_report", "write_json", "to_markdown", "rich_table", "machine_info"]


def machine_info() -> str:
    return f"{platform.node() or 'unknown'} ({platform.system()} {platform.machine()}, Python {platform.python_version()})"


def build_report(results: Sequence[ScenarioResult], meta: Optional[Dict[str, Any]] = None) -> Dict[str, Any]:
    by_cat: Dict[str, List[ScenarioResult]] = OrderedDict()
    for r in results:
        by_cat.setdefault(r.category or "(none)", []).append(r)
    return {
        "meta": {
            "date": datetime.now(timezone.utc).isoformat(timespec="seconds"),
            "machine": machine_info(),
            **(meta or {}),
        },
        "aggregates": aggregate(results),
        "by_category": {cat: aggregate(rs) for cat, rs in by_cat.items()},
        "scenarios": [r.to_dict() for r in results],
    }


def partial_report(results: Sequence[ScenarioResult], total: Optional[int]) -> Dict[str, Any]:
    """The runs finished so far, each strategy aggregated on its own: what a long evaluation that
    is stopped (or crashes) leaves instead of nothing. ``meta.partial`` says it is not the report."""
    strategies: Dict[str, List[ScenarioResult]] = OrderedDict()
    for r in results:
        strategies.setdefault(r.strategy or "(default)", []).append(r)
    return {
        "meta": {"date": datetime.now(timezone.utc).isoformat(timespec="seconds"), "machine": machine_info(),
                 "partial": True, "completed": len(results), "total": total},
        "by_strategy": {name: aggregate(rs) for name, rs in strategies.items()},
        "scenarios": [r.to_dict() for r in results],
    }


def write_json(report: Dict[str, Any], path: Path) -> None:
    """Write ``report`` whole or not at all: a reader (or a run killed mid-write) never sees half."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.tmp")
    tmp.write_text(json.dumps(report, indent=2, default=str) + "\n", encoding="utf-8")
    os.replace(tmp, path)


def _fmt(v: Any) -> str:
    if v is None:
        return "–"
    if isinstance(v, (list, tuple)):  # a 95 % interval
        return "[" + ", ".join(_fmt(x) for x in v) + "]"
    if isinstance(v, bool):
        return "yes" if v else "no"
    if isinstance(v, float):
        return f"{v:.3g}" if abs(v) < 1000 else f"{v:.0f}"
    return str(v)


def _md_escape(text: str) -> str:
    return str(text).replace("|", "\\|").replace("\n", " ")


_AGG_ROWS = ("pass_rate", "pass_rate_ci95", "success_rate", "passed_via_grounding", "plan_success_rate",
             "recovery_rate", "recovery_attempted", "max_reflections_rate", "avg_steps",
             "bypass_accuracy", "complexity_accuracy", "avg_keyword_coverage", "llm_calls",
             "prompt_tokens", "completion_tokens", "cached_prompt_tokens", "computed_tokens", "wall_time",
             "median_wall_time")
_SCEN_COLS = ("id", "passed", "stop_reason", "complexity_expected", "complexity_got", "steps",
              "reflections", "recovered", "llm_calls", "prompt_tokens", "completion_tokens", "wall_time")


def _of_primary(report: Dict[str, Any]) -> str:
    """With several strategies the aggregates are the first one's: the title must say so."""
    if len(report.get("by_strategy") or {}) > 1:
        return f", {report.get('meta', {}).get('primary_strategy', 'first strategy')}"
    return ""


def to_markdown(report: Dict[str, Any]) -> str:
    meta = report.get("meta", {})
    lines = ["# ragix eval report", ""]
    for key in ("date", "strategy", "model", "machine", "corpus", "repeat", "seed", "temperature", "strict", "sources"):
        if key in meta:
            lines.append(f"- **{key}**: {_md_escape(meta[key])}")
    lines += ["", f"## Aggregates (spec 000 §12){_of_primary(report)}", "", "| metric | value |", "| --- | --- |"]
    agg = report.get("aggregates", {})
    lines += [f"| {k} | {_fmt(agg.get(k))} |" for k in ("runs", "passed") + _AGG_ROWS]
    strategies = report.get("by_strategy") or {}
    if len(strategies) > 1:
        lines += ["", "## By strategy (baseline s0 included when run)", "",
                  "| strategy | runs | pass_rate [95% CI] | plan_success_rate | recovery_rate | avg_steps | tokens "
                  "| computed tokens | time s | median s |",
                  "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |"]
        for name, a in strategies.items():
            lines.append(f"| {_md_escape(name)} | {a['runs']} | {_fmt(a['pass_rate'])} {_fmt(a.get('pass_rate_ci95'))} "
                         f"| {_fmt(a['plan_success_rate'])} | {_fmt(a['recovery_rate'])} | {_fmt(a['avg_steps'])} "
                         f"| {a['total_tokens']} | {_fmt(a.get('computed_tokens'))} | {_fmt(a['wall_time'])} "
                         f"| {_fmt(a.get('median_wall_time'))} |")
    by_node = {name: a.get("tokens_by_node") for name, a in (strategies or {"": agg}).items() if a.get("tokens_by_node")}
    if by_node:
        lines += ["", "## Tokens by node (prompt + completion of the model calls made in it)", "",
                  "| strategy | node: tokens |", "| --- | --- |"]
        for name, nodes in by_node.items():
            lines.append(f"| {_md_escape(name or meta.get('strategy', ''))} | "
                         + ", ".join(f"{_md_escape(n)}: {t}" for n, t in nodes.items()) + " |")
    cats = report.get("by_category") or {}
    if len(cats) > 1:
        lines += ["", "## By category", "", "| category | runs | pass_rate | avg_steps | tokens |",
                  "| --- | --- | --- | --- | --- |"]
        for cat, a in cats.items():
            lines.append(f"| {_md_escape(cat)} | {a['runs']} | {_fmt(a['pass_rate'])} | {_fmt(a['avg_steps'])} | "
                         f"{a['total_tokens']} |")
    lc = report.get("learning_curve")
    if lc:
        lines += ["", "## Learning curve (second pass)", "", "| corpus | runs | pass_rate | total_tokens | wall_time |",
                  "| --- | --- | --- | --- | --- |"]
        for mode in ("fresh", "keep"):
            a = lc.get(mode) or {}
            if a:
                lines.append(f"| {mode} | {a.get('runs')} | {_fmt(a.get('pass_rate'))} | {a.get('total_tokens')} | "
                             f"{_fmt(a.get('wall_time'))} |")
    freq = report.get("pass_frequency") or {}
    if freq:
        names = list(freq)
        lines += ["", "## Pass frequency per scenario (--repeat)", "", "| scenario | " + " | ".join(names) + " |",
                  "| --- | " + " | ".join("---" for _ in names) + " |"]
        for sid in dict.fromkeys(k for f in freq.values() for k in f):
            lines.append(f"| {_md_escape(sid)} | " + " | ".join(freq[n].get(sid, "–") for n in names) + " |")
    cols = _SCEN_COLS + (("strategy",) if len(strategies) > 1 else ())
    lines += ["", "## Scenarios", "", "| " + " | ".join(cols) + " | why not passed |",
              "| " + " | ".join("---" for _ in cols) + " | --- |"]
    for s in report.get("scenarios", []):
        cells = [_md_escape(_fmt(s.get(c))) for c in cols]
        lines.append("| " + " | ".join(cells) + f" | {_md_escape('; '.join(s.get('failure') or []))} |")
    return "\n".join(lines) + "\n"


def rich_table(report: Dict[str, Any]):
    """Two Rich tables (scenarios, aggregates) in a Group, for the terminal."""
    from rich.console import Group
    from rich.table import Table

    scen = Table(title="Scenarios", show_lines=False)
    for col in ("id", "strategy", "pass", "stop", "cplx exp/got", "steps", "refl", "cmds", "llm", "tokens", "time s"):
        scen.add_column(col, overflow="fold")
    for s in report.get("scenarios", []):
        scen.add_row(
            f"{s['id']}" + (f" #{s['run']}" if s.get("run", 1) > 1 else ""),
            str(s.get("strategy", "")),
            "[green]yes[/]" if s["passed"] else "[red]no[/]",
            _fmt(s.get("stop_reason")),
            f"{_fmt(s.get('complexity_expected'))}/{_fmt(s.get('complexity_got'))}",
            f"{s.get('steps', 0)}/{s.get('max_steps', 0)}",
            str(s.get("reflections", 0)),
            str(len(s.get("commands_run") or [])),
            str(s.get("llm_calls", 0)),
            str(s.get("prompt_tokens", 0) + s.get("completion_tokens", 0)),
            f"{s.get('wall_time', 0.0):.1f}",
        )
    agg = Table(title=f"Aggregates (spec 000 §12){_of_primary(report)}")
    agg.add_column("metric")
    agg.add_column("value", justify="right")
    for k in ("runs", "passed") + _AGG_ROWS:
        agg.add_row(k, _fmt(report["aggregates"].get(k)))
    parts = [scen, agg]
    strategies = report.get("by_strategy") or {}
    if len(strategies) > 1:
        st = Table(title="By strategy")
        for col in ("strategy", "runs", "pass_rate", "95% CI", "plan_success", "recovery", "avg_steps", "tokens",
                    "computed", "median s"):
            st.add_column(col)
        for name, a in strategies.items():
            st.add_row(name, str(a["runs"]), _fmt(a["pass_rate"]), _fmt(a.get("pass_rate_ci95")),
                       _fmt(a["plan_success_rate"]), _fmt(a["recovery_rate"]), _fmt(a["avg_steps"]),
                       str(a["total_tokens"]), _fmt(a.get("computed_tokens")), _fmt(a.get("median_wall_time")))
        parts.append(st)
    lc = report.get("learning_curve")
    if lc:
        lt = Table(title="Learning curve (transfer pass)")
        for col in ("corpus", "runs", "pass_rate", "tokens"):
            lt.add_column(col)
        for mode in ("fresh", "keep"):
            a = lc.get(mode) or {}
            lt.add_row(mode, str(a.get("runs")), _fmt(a.get("pass_rate")), str(a.get("total_tokens")))
        parts.append(lt)
    return Group(*parts)
