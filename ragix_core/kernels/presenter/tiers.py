"""Presenter tiers T1-T3 (spec 002 §6.3): model-written summaries over the T0 report, every claim checked.

    T1  a summary of each of the top-K risk clusters (directories)
    T2  a summary of every cluster (at most MAX_CLUSTERS)
    T3  T2, and an executive summary written from the checked cluster summaries and the project's totals

Each summary is one model call; its sentences go through ``claims.check_prose`` against the facts the
model was shown (kernel output only), and a sentence citing a number or a file no kernel produced is
dropped and counted. What is printed therefore cites only kernel numbers; the count of what was dropped
is the tier's measure of the model (goal: 0). A model error leaves that summary out, with the reason.

With a review (``review=(tutor, revisions)``, `ragix audit --review N`), each draft then goes through the
worker + tutor loop of ``presenter.review``: the claims check and the tutor model critique it, the worker
revises at most N times, and the summary keeps the chosen draft's checked sentences and says what the
critique found.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Callable, Dict, List, Optional, Tuple

from ragix_core import prompts
from ragix_core.kernels.presenter.claims import CheckedProse, Facts, check_prose, without_cut_tail
from ragix_core.kernels.presenter.clusters import Cluster, executive_facts, risk_clusters
from ragix_core.kernels.presenter.document import Block, Heading, Paragraph
from ragix_core.kernels.presenter.review import Call, Review, review_draft
from ragix_core.kernels.presenter.t0 import Report, write_report
from ragix_core.llm.base import Completion, LLMClient, LLMError

__all__ = ["Summary", "TierResult", "summarize", "tier_blocks", "write_tier_report", "TIERS", "MAX_CLUSTERS",
           "CHECK_FILE"]

TIERS = (0, 1, 2, 3)
MAX_CLUSTERS = 30  # T2's "all clusters", bounded: a tree of 500 directories is not 500 model calls
EXECUTIVE_SUMMARIES = 3  # T3 reads the riskiest directories' checked summaries, not all 30: the window is 4,096 tokens
SUMMARY_TOKENS, EXECUTIVE_TOKENS = 220, 320
CHECK_FILE = "tier_check.json"


@dataclass
class Summary:
    subject: str  # a directory, or "project" for the executive summary
    check: Optional[CheckedProse] = None
    error: Optional[str] = None
    raw: str = ""
    review: Optional[Review] = None

    def to_dict(self) -> Dict[str, Any]:
        return {"subject": self.subject, "error": self.error, "raw": self.raw,
                **(self.check.to_dict() if self.check else {}),
                **({"review": self.review.to_dict()} if self.review else {})}


@dataclass
class TierResult:
    tier: int
    model: str
    summaries: List[Summary]
    executive: Optional[Summary] = None
    reviewer: Optional[str] = None  # reviewed: the tutor's model ("" for the claims check alone); None: not reviewed
    usage: Dict[str, int] = field(default_factory=lambda: {"calls": 0, "prompt_tokens": 0, "completion_tokens": 0})
    cut: List[str] = field(default_factory=list)  # unfinished last sentences of replies stopped by the token limit

    def every(self) -> List[Summary]:
        return self.summaries + ([self.executive] if self.executive else [])

    def totals(self) -> Dict[str, int]:
        checks = [s.check for s in self.every() if s.check]
        return {"sentences_kept": sum(len(c.kept) for c in checks),
                "sentences_dropped": sum(len(c.dropped) for c in checks),
                "unsupported_numbers": sum(len(d.numbers) for c in checks for d in c.dropped),
                "unknown_paths": sum(len(d.paths) for c in checks for d in c.dropped),
                "misattributed_numbers": sum(len(d.misattributed) for c in checks for d in c.dropped),
                "sentences_cut": len(self.cut),
                "numbers_checked": sum(c.numbers_checked for c in checks),
                "errors": sum(1 for s in self.every() if s.error),
                **({"revisions": sum(len(s.review.rounds) - 1 for s in self.every() if s.review),
                    "reviews_clean": sum(1 for s in self.every() if s.review and s.review.ended == "clean")}
                   if self.reviewer is not None else {})}

    def to_dict(self) -> Dict[str, Any]:
        return {"tier": self.tier, "model": self.model, "reviewer": self.reviewer, "totals": self.totals(), "usage": self.usage,
                "summaries": [s.to_dict() for s in self.summaries],
                "executive": self.executive.to_dict() if self.executive else None, "cut": self.cut}


def _counting(result: TierResult) -> Call:
    """Every model call of the tier (drafts, critiques, revisions) through one counter."""
    def call(client: LLMClient, messages: List[Dict[str, str]], max_tokens: int,
             schema: Optional[Dict[str, Any]]) -> Completion:
        result.usage["calls"] += 1
        reply = client.complete(messages, max_tokens=max_tokens, temperature=0.0,
                                **({"schema": schema} if schema else {}))
        result.usage["prompt_tokens"] += reply.usage.prompt_tokens
        result.usage["completion_tokens"] += reply.usage.completion_tokens
        if schema is None and reply.usage.completion_tokens >= max_tokens:
            # Stopped by the token limit: its last sentence may end mid-claim ("split X in `compiler.py` (line 784)"),
            # and every word of a cut claim can still check. It is left out and listed.
            kept, tail = without_cut_tail(reply.text or "")
            if tail:
                result.cut.append(tail)
                reply = replace(reply, text=kept)
        return reply
    return call


def _ask(client: LLMClient, system: str, user: str, max_tokens: int, call: Call, subject: str, facts: Facts,
         facts_text: str, review: Optional[Tuple[Optional[LLMClient], int]]) -> Summary:
    messages = [{"role": "system", "content": system}, {"role": "user", "content": user}]
    try:
        text = call(client, messages, max_tokens, None).text or ""
    except LLMError as exc:
        return Summary(subject, error=f"{type(exc).__name__}: {exc}")
    if review is None:
        return Summary(subject, check_prose(text, facts), raw=text)
    tutor, revisions = review
    done = review_draft(client, tutor, messages, text, facts, facts_text, max_tokens, revisions, call)
    kept = done.rounds[done.chosen]
    return Summary(subject, kept.critique.check, raw=kept.draft, review=done)


def summarize(docs: Dict[str, Dict[str, Any]], client: LLMClient, tier: int, top_k: int = 3,
              progress: Optional[Callable[[str], None]] = None,
              review: Optional[Tuple[Optional[LLMClient], int]] = None) -> TierResult:
    """Ask ``client`` for the tier's summaries of the kernel documents ``docs`` and check each one;
    ``progress`` is told before each summary (a call takes seconds to minutes on a CPU). ``review``:
    (the tutor's client or None for the claims check alone, the most revisions per summary)."""
    if tier not in TIERS[1:]:
        raise ValueError(f"a model tier is 1, 2 or 3, not {tier!r}")
    if top_k < 1:
        raise ValueError(f"top_k must be at least 1, not {top_k}")
    clusters: List[Cluster] = risk_clusters(docs, top_k if tier == 1 else MAX_CLUSTERS)
    result = TierResult(tier, getattr(client, "model", ""), [],
                        reviewer=((getattr(review[0], "model", "") or "a model") if review[0] else "")
                        if review else None)
    call = _counting(result)
    system = prompts.section("audit_summary", "system")
    for i, cluster in enumerate(clusters, 1):
        if progress:
            progress(f"summary {i}/{len(clusters)}: directory {cluster.directory}")
        user = prompts.section("audit_summary", "cluster", directory=cluster.directory, facts=cluster.text)
        result.summaries.append(_ask(client, system, user, SUMMARY_TOKENS, call, cluster.directory, cluster.facts,
                                     cluster.text, review))
    if tier == 3:
        lines, facts, checked = executive_view(docs, clusters, [s.check for s in result.summaries])
        user = prompts.section("audit_summary", "executive", facts="\n".join(lines), summaries=checked or "(none)")
        if progress:
            progress("executive summary")
        result.executive = _ask(client, prompts.section("audit_summary", "executive_system"), user,
                                EXECUTIVE_TOKENS, call, "project", facts, "\n".join(lines), review)
    return result


def executive_view(docs: Dict[str, Dict[str, Any]], clusters: List[Cluster],
                   checks: List[Optional[CheckedProse]]) -> Tuple[List[str], Facts, str]:
    """What T3's executive reads and may cite: the bounded project view (``executive_facts``), and the checked
    text of the first EXECUTIVE_SUMMARIES directory summaries that kept a sentence, with their clusters' facts
    (what a summary shown may cite, the executive may cite). ``checks`` pairs with ``clusters``."""
    lines, facts = executive_facts(docs, MAX_CLUSTERS)
    shown = [(c, check) for c, check in zip(clusters, checks) if check and check.kept][:EXECUTIVE_SUMMARIES]
    for cluster, _ in shown:
        facts = facts | cluster.facts
    return lines, facts, "\n".join(f"{c.directory}: {check.text}" for c, check in shown)


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
        f"named as one (\"the utils directory\") in them was checked against those rows, and each number "
        f"against the rows of the files the sentence gives it to; names of functions or classes, and a directory "
        f"named without such a word, were not: {t['numbers_checked']} numbers cited, {t['sentences_kept']} "
        f"sentences kept, {t['sentences_dropped']} dropped for citing something no kernel produced "
        f"({t['unsupported_numbers']} numbers, {t['unknown_paths']} file names) or giving a number to a file "
        f"it is not of ({t['misattributed_numbers']}), and {t['sentences_cut']} unfinished at the model's token "
        f"limit left out; listed in {CHECK_FILE}.")]
    if result.reviewer is not None:
        blocks.append(Paragraph(
            f"Each summary was reviewed before the check above: the claims check"
            + (f" and a tutor model ({result.reviewer})" if result.reviewer else "")
            + f" critiqued the draft against the same rows, and the model revised it "
            f"{t['revisions']} time(s) in all; {t['reviews_clean']} review(s) ended with nothing found."))
    for heading, summary in ([("Executive summary", result.executive)] if result.executive else []) + [
            (f"Directory {s.subject}", s) for s in result.summaries]:
        blocks += [Heading(heading, 3), Paragraph(_prose(summary))]
        if summary.review is not None:
            blocks.append(Paragraph(summary.review.summary_line()))
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
