"""`ragix audit`: the code-audit kernels over a directory, and their report (docs/AUDIT.md).

    ragix audit DIR                      report.md, report.html and plots in DIR/.ragix/audit/
    ragix audit DIR --out REPORT_DIR     the same, elsewhere
    ragix audit DIR --tier 1 [--top-k 3] the report with a model's summaries of the top-K risk directories,
                                         every number and file name checked (T2: every directory; T3: and
                                         an executive summary); tier_check.json lists what was dropped
    ragix audit DIR --tier 1 --review 2  each summary reviewed (spec 002 §6.2): the claims check and the tutor
                                         role's model critique the draft against the kernel rows, the worker
                                         revises at most 2 times; the report says what each critique found
    ragix audit DIR --json               every kernel's document, one JSON object
    ragix audit KERNEL DIR [--json]      one kernel's document (ast_scan, metrics, churn, hotspots, risk,
                                         recommendations)

Exit codes: 0 done, 2 a bad directory, an unknown kernel, a bad configuration or a missing audit dependency.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import List, Optional

import typer

from ragix_core.cli import app

__all__ = ["audit", "write_plain_report"]


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
    tier: int = typer.Option(0, "--tier", min=0, max=3,
                             help="0: no model; 1: checked summaries of the top-K risk directories; 2: of all; "
                                  "3: and an executive summary."),
    top_k: int = typer.Option(3, "--top-k", min=1, max=50, help="Directories summarized at tier 1."),
    model: Optional[str] = typer.Option(None, "--model", help="The model for tiers 1-3 (default: the worker role's)."),
    review: Optional[int] = typer.Option(
        None, "--review", min=0, max=3, metavar="N",
        help="Tiers 1-3: review each summary: the claims check and a tutor model critique the draft against the "
             "kernel rows and the model rewrites it, at most N times (0: critique only); a critique that finds "
             "nothing ends it. The report says what each critique found; the kept text is still checked."),
    tutor_model: Optional[str] = typer.Option(None, "--tutor-model",
                                              help="The tutor's model for --review (default: the tutor role's)."),
) -> None:
    from ragix_core.kernels.audit import KernelError, TreeError, TreeLimits, run_all, run_kernel
    from ragix_core.kernels.audit.registry import DEFAULT_CACHE

    if len(args) > 2:
        _fail(f"expected [KERNEL] DIR, got {len(args)} arguments")
    if (review is not None or tutor_model) and not tier:
        _fail("--review and --tutor-model review model-written summaries: they need --tier 1, 2 or 3")
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
    root = Path(docs["metrics"]["root"])
    target = out if out is not None else root / ".ragix" / "audit"
    result = _summaries(docs, root, tier, top_k, model, review, tutor_model) if tier else None
    try:
        if result is None:
            report = write_plain_report(docs, target, with_plots=not no_plots)
        else:
            from ragix_core.kernels.presenter.tiers import write_tier_report

            report = write_tier_report(docs, target, _title(docs), result, with_plots=not no_plots)
    except KernelError as exc:
        _fail(str(exc))
        return
    except OSError as exc:
        _fail(f"cannot write the report in {target}: {exc.strerror or exc} (choose another place with --out)")
        return
    seconds = time.monotonic() - started
    if result is not None:
        t, u = result.totals(), result.usage
        typer.echo(f"tier {tier}: {len(result.summaries)} summaries, {t['numbers_checked']} numbers cited, "
                   f"{t['sentences_kept']} sentences kept, {t['sentences_dropped']} dropped "
                   f"({t['unsupported_numbers']} unsupported numbers, {t['unknown_paths']} unknown files, "
                   f"{t['misattributed_numbers']} numbers given to the wrong file; {t['sentences_cut']} cut at the "
                   f"token limit), "
                   f"{t['errors']} model errors; {u['calls']} calls, {u['prompt_tokens']} + "
                   f"{u['completion_tokens']} tokens")
        if result.reviewer is not None:
            typer.echo(f"review: {t['revisions']} revision(s), {t['reviews_clean']} of {len(result.every())} "
                       f"review(s) ended with nothing found (tutor {result.reviewer})")
    typer.echo(f"wrote {report.directory}/report.md (and report.html, {len(report.files) - 2} other file(s)) "
               f"in {seconds:.1f} s: {docs['metrics']['files']} files, "
               f"{len(docs['recommendations']['data']['items'])} recommendations")
    for note in sorted({n for d in docs.values() for n in d["notes"]}):
        typer.echo(f"note: {note}", err=True)


def _summaries(docs: dict, root: Path, tier: int, top_k: int, model: Optional[str], review: Optional[int],
               tutor_model: Optional[str]):
    """Tiers 1-3: the worker role's model (ragix.yaml beside the tree, or --model) writes, the checker keeps;
    with --review the tutor role's model (or --tutor-model) critiques each draft."""
    from ragix_core.config import ConfigError, load_config
    from ragix_core.kernels.presenter.tiers import summarize
    from ragix_core.llm.base import LLMError
    from ragix_core.llm.factory import build_client

    try:
        llm = load_config(cwd=root).llm
        settings = llm.for_role("worker")
        if model:
            settings = settings.model_copy(update={"model": model})
        client = build_client(settings)
        tutor = None
        if review is not None:
            tutor_settings = llm.for_role("tutor")
            if tutor_model:
                tutor_settings = tutor_settings.model_copy(update={"model": tutor_model})
            # the same backend and model as the worker: one client, one model load
            tutor = client if tutor_settings.client_key() == settings.client_key() else build_client(tutor_settings)
    except (ConfigError, LLMError, ValueError) as exc:
        _fail(f"cannot set up the model for tier {tier}: {exc}")
    result = summarize(docs, client, tier, top_k, progress=lambda what: typer.echo(f"tier {tier}: {what}", err=True),
                       review=(tutor, review) if review is not None else None)
    if result.summaries and all(s.error for s in result.summaries):
        typer.echo(f"warning: every model call failed ({result.summaries[0].error}); the report has no summaries",
                   err=True)
    return result


def _title(docs: dict) -> str:
    return f"Audit of {Path(docs['metrics']['root']).name}"


def write_plain_report(docs: dict, target: Path, with_plots: bool = True):
    """The T0 report (no model) of the kernels' ``docs`` in ``target``: `ragix audit DIR` and the audit
    route of `ragix ask` both write it here. Raises KernelError and OSError."""
    from ragix_core.kernels.presenter import write_report

    report = write_report(docs, target, _title(docs), with_plots=with_plots)
    _forget_stale_check(target)
    return report


def _forget_stale_check(target: Path) -> None:
    """A T0 report replaces a T1-T3 one: its check file would describe summaries no longer there."""
    from ragix_core.kernels.presenter.tiers import CHECK_FILE

    try:
        (target / CHECK_FILE).unlink()
    except FileNotFoundError:
        pass
