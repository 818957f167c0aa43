"""`ragix audit`: the code-audit kernels over a directory, and their report (docs/AUDIT.md).

    ragix audit DIR                      report.md, report.html and plots in DIR/.ragix/audit/
    ragix audit DIR --out REPORT_DIR     the same, elsewhere
    ragix audit DIR --json               every kernel's document, one JSON object
    ragix audit KERNEL DIR [--json]      one kernel's document (ast_scan, metrics, churn, hotspots, risk,
                                         recommendations)

Exit codes: 0 done, 2 a bad directory, an unknown kernel or a missing audit dependency.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import List, Optional

import typer

from ragix_core.cli import app

__all__ = ["audit"]


def _fail(message: str) -> None:
    typer.echo(f"error: {message}", err=True)
    raise typer.Exit(2)


@app.command("audit", help="Audit a source tree with deterministic kernels (no model): a report, or one kernel's JSON.")
def audit(
    args: List[str] = typer.Argument(..., metavar="[KERNEL] DIR", help="A directory, or a kernel name then a directory."),
    json_out: bool = typer.Option(False, "--json", help="Print the kernels' JSON instead of writing a report."),
    out: Optional[Path] = typer.Option(None, "--out", help="Where the report goes (default: DIR/.ragix/audit)."),
    no_cache: bool = typer.Option(False, "--no-cache", help="Compute every kernel afresh."),
    max_files: int = typer.Option(20_000, "--max-files", min=1, help="Source files analysed at most."),
    no_plots: bool = typer.Option(False, "--no-plots", help="Tables only (no matplotlib needed)."),
) -> None:
    from ragix_core.kernels.audit import KernelError, TreeError, TreeLimits, run_all, run_kernel
    from ragix_core.kernels.audit.registry import DEFAULT_CACHE

    if len(args) > 2:
        _fail(f"expected [KERNEL] DIR, got {len(args)} arguments")
    kernel, directory = (args[0], args[1]) if len(args) == 2 else (None, args[0])
    cache = None if no_cache else DEFAULT_CACHE
    limits = TreeLimits(max_files=max_files)
    started = time.monotonic()
    try:
        if kernel is not None:
            doc = run_kernel(kernel, directory, limits=limits, cache_dir=cache)
            typer.echo(json.dumps(doc, ensure_ascii=False, sort_keys=True, indent=None if json_out else 2))
            return
        docs = run_all(directory, limits=limits, cache_dir=cache)
    except (TreeError, KernelError) as exc:
        _fail(str(exc))
        return
    if json_out:
        typer.echo(json.dumps(docs, ensure_ascii=False, sort_keys=True))
        return
    from ragix_core.kernels.presenter import write_report

    target = out if out is not None else Path(docs["metrics"]["root"]) / ".ragix" / "audit"
    try:
        report = write_report(docs, target, f"Audit of {Path(docs['metrics']['root']).name}", with_plots=not no_plots)
    except KernelError as exc:
        _fail(str(exc))
        return
    except OSError as exc:
        _fail(f"cannot write the report in {target}: {exc.strerror or exc} (choose another place with --out)")
        return
    seconds = time.monotonic() - started
    typer.echo(f"wrote {report.directory}/report.md (and report.html, {len(report.files) - 2} plot(s)) "
               f"in {seconds:.1f} s: {docs['metrics']['files']} files, "
               f"{len(docs['recommendations']['data']['items'])} recommendations")
    for note in sorted({n for d in docs.values() for n in d["notes"]}):
        typer.echo(f"note: {note}", err=True)
