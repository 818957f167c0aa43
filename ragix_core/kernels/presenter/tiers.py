"""Presenter tiers T1-T3 (spec 002 §6.3): model-written summaries over the T0 report, every claim checked.

    T1  a summary of each of the top-K risk clusters (directories)
    T2  a summary of every cluster (at most MAX_CLUSTERS)
    T3  T2, and an executive summary written from the checked cluster summaries and the project's totals

Each summary is one model call; its sentences go through ``claims.check_prose`` against the facts the
model was shown (kernel output only), and a sentence citing a number or a file no kernel produced is
dropped and counted. What is printed therefore cites only kernel numbers; the count of what was dropped
is the tier's measure of the model (goal: 0). A model error leaves that summary out, with the reason.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Dict, List, Optional

from ragix_core import prompts
from ragix_core.kernels.presenter.claims import CheckedProse, Facts, check_prose
from ragix_core.kernels.presenter.clusters import Cluster, project_facts, risk_clusters
from ragix_core.kernels.presenter.document import Block, Heading, Paragraph
from ragix_core.kernels.presenter.t0 import Report, write_report
from ragix_core.llm.base import LLMClient, LLMError

__all__ = ["Summary", "TierResult", "summarize", "tier_blocks", "write_tier_report", "TIERS", "MAX_CLUSTERS",
           "CHECK_FILE"]

TIERS = (0, 1, 2, 3)
MAX_CLUSTERS = 30  # T2's "all clusters", bounded: a tree of 500 directories is not 500 model calls
SUMMARY_TOKENS, EXECUTIVE_TOKENS = 220, 320
CHECK_FILE = "tier_check.json"


@dataclass
class Summary:
    subject: str  # a directory, or "project" for the executive summary
    check: Optional[CheckedProse] = None
    error: Optional[str] = None
    raw: str = ""

    def to_dict(self) -> Dict[str, Any]:
        return {"subject": self.subject, "error": self.error, "raw": self.raw,
                **(self.check.to_dict() if self.check else {})}


@dataclass
class TierResult:
    tier: int
    model: str
    summaries: List[Summary]
    executive: Optional[Summary] = None
    usage: Dict[str, int] = field(default_factory=lambda: {"calls": 0, "prompt_tokens": 0, "completion_tokens": 0})

    def every(self) -> List[Summary]:
        return self.summaries + ([self.executive] if self.executive else [])

    def totals(self) -> Dict[str, int]:
        checks = [s.check for s in self.every() if s.check]
        return {"sentences_kept": sum(len(c.kept) for c in checks),
                "sentences_dropped": sum(len(c.dropped) for c in checks),
                "unsupported_numbers": sum(len(d.numbers) for c in checks for d in c.dropped),
                "unknown_paths": sum(len(d.paths) for c in checks for d in c.dropped),
                "numbers_checked": sum(c.numbers_checked for c in checks),
                "errors": sum(1 for s in self.every() if s.error)}

    def to_dict(self) -> Dict[str, Any]:
        return {"tier": self.tier, "model": self.model, "totals": self.totals(), "usage": self.usage,
                "summaries": [s.to_dict() for s in self.summaries],
                "executive": self.executive.to_dict() if self.executive else None}


def _ask(client: LLMClient, system: str, user: str, max_tokens: int, result: TierResult, subject: str,
         facts: Facts) -> Summary:
    result.usage["calls"] += 1
    try:
        reply = client.complete([{"role": "system", "content": system}, {"role": "user", "content": user}],
                                max_tokens=max_tokens, temperature=0.0)
    except LLMError as exc:
        return Summary(subject, error=f"{type(exc).__name__}: {exc}")
    result.usage["prompt_tokens"] += reply.usage.prompt_tokens
    result.usage["completion_tokens"] += reply.usage.completion_tokens
    return Summary(subject, check_prose(reply.text or "", facts), raw=reply.text or "")


def summarize(docs: Dict[str, Dict[str, Any]], client: LLMClient, tier: int, top_k: int = 3,
              progress: Optional[Callable[[str], None]] = None) -> TierResult:
    """Ask ``client`` for the tier's summaries of the kernel documents ``docs`` and check each one;
    ``progress`` is told before each model call (a call takes seconds to minutes on a CPU)."""
    if tier not in TIERS[1:]:
        raise ValueError(f"a model tier is 1, 2 or 3, not {tier!r}")
    if top_k < 1:
        raise ValueError(f"top_k must be at least 1, not {top_k}")
    clusters: List[Cluster] = risk_clusters(docs, top_k if tier == 1 else MAX_CLUSTERS)
    result = TierResult(tier, getattr(client, "model", ""), [])
    system = prompts.section("audit_summary", "system")
    for i, cluster in enumerate(clusters, 1):
        if progress:
            progress(f"summary {i}/{len(clusters)}: directory {cluster.directory}")
        user = prompts.section("audit_summary", "cluster", directory=cluster.directory, facts=cluster.text)
        result.summaries.append(_ask(client, system, user, SUMMARY_TOKENS, result, cluster.directory, cluster.facts))
    if tier == 3:
        lines, facts = project_facts(docs)
        for cluster in clusters:
            lines.extend(cluster.lines)
            facts = facts | cluster.facts
        checked = "\n".join(f"{s.subject}: {s.check.text}" for s in result.summaries if s.check and s.check.kept)
        user = prompts.section("audit_summary", "executive", facts="\n".join(lines), summaries=checked or "(none)")
        if progress:
            progress("executive summary")
        result.executive = _ask(client, prompts.section("audit_summary", "executive_system"), user,
                                EXECUTIVE_TOKENS, result, "project", facts)
    return result


def _prose(summary: Summary) -> str:
    if summary.error:
        return f"(no summary: the model call failed: {summary.error})"
    if summary.check is None or not summary.check.kept:
        return "(no summary: no sentence of the model's survived the check)"
    return summary.check.text


def tier_blocks(result: TierResult) -> List[Block]:
    """The report's model-written part: what was checked and how, then one paragraph per summary."""
    t = result.totals()
    blocks: List[Block] = [Heading(f"Model-written summaries (tier T{result.tier}, checked)"), Paragraph(
        f"Written by {result.model or 'the model'} from the kernel rows of each directory. Every number (in "
        f"digits, in words, or glued to a name such as CCN99), every file path or file name, and every directory "
        f"named as one (\"the utils directory\") in them was checked against those rows; names of functions or "
        f"classes, and a directory named without such a word, were not: {t['numbers_checked']} numbers cited, "
        f"{t['sentences_kept']} sentences kept, {t['sentences_dropped']} dropped for citing something no kernel "
        f"produced ({t['unsupported_numbers']} numbers, {t['unknown_paths']} file names; listed in {CHECK_FILE}).")]
    if result.executive is not None:
        blocks += [Heading("Executive summary", 3), Paragraph(_prose(result.executive))]
    for summary in result.summaries:
        blocks += [Heading(f"Directory {summary.subject}", 3), Paragraph(_prose(summary))]
    return blocks


def write_tier_report(docs: Dict[str, Dict[str, Any]], out_dir: Path, title: str, result: TierResult,
                      with_plots: bool = True) -> Report:
    """The T0 report with the tier's checked summaries after its summary table, and ``tier_check.json``
    (kept and dropped sentences, with what each dropped one cited, and the tokens spent)."""
    report = write_report(docs, out_dir, title, with_plots, model_blocks=tier_blocks(result))
    path = out_dir / CHECK_FILE
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    tmp.write_text(json.dumps(result.to_dict(), ensure_ascii=False, indent=2, sort_keys=True) + "\n",
                   encoding="utf-8")
    os.replace(tmp, path)
    return Report(report.directory, report.files + [path])
