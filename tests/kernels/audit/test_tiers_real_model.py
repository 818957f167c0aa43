"""Tier T1 with the real embedded default model on a small git tree: the report's model-written part
cites only numbers and files the kernels produced, and what was dropped is counted in tier_check.json."""

from __future__ import annotations

import json

import pytest

from ragix_core.kernels.audit import run_all
from ragix_core.kernels.presenter.tiers import CHECK_FILE, summarize, write_tier_report
from ragix_core.llm.embedded import EmbeddedClient
from ragix_core.llm.models import DEFAULT_MODEL
from tests.kernels.audit.rows import directory_rows, unsupported

pytestmark = pytest.mark.slow


def test_t1_report_of_the_default_model_every_number_checks(history, tmp_path):
    docs = run_all(history, cache_dir=tmp_path / "cache")
    result = summarize(docs, EmbeddedClient(DEFAULT_MODEL, n_ctx=4096), tier=1, top_k=2)
    assert result.totals()["errors"] == 0, [s.error for s in result.summaries]
    assert result.totals()["sentences_kept"] >= 1, [s.raw for s in result.summaries]
    write_tier_report(docs, tmp_path / "out", "Audit", result, with_plots=False)
    check = json.loads((tmp_path / "out" / CHECK_FILE).read_text())
    md = (tmp_path / "out" / "report.md").read_text()
    for summary in check["summaries"]:
        numbers, paths = directory_rows(docs, summary["subject"])
        for sentence in summary["kept"]:
            assert sentence in md
            # checked again, independently of the checker: against the directory's kernel rows themselves
            assert unsupported(sentence, numbers, paths) == [], sentence
        for dropped in summary["dropped"]:  # a dropped sentence never reaches the report
            assert dropped["sentence"] not in md
    print(json.dumps(check["totals"]), [s["raw"] for s in check["summaries"]])  # for the note (-s)
