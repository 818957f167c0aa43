"""Presenter tiers T1-T3 over real kernel output, with a scripted model: the model is shown only kernel
rows, its unsupported sentences never reach the report, and `ragix audit DIR --tier N` writes both."""

from __future__ import annotations

import json
import os

import pytest
from typer.testing import CliRunner

from ragix_core.cli import app
from ragix_core.kernels.audit import run_all
from ragix_core.kernels.presenter.claims import check_prose
from ragix_core.kernels.presenter.clusters import risk_clusters
from ragix_core.kernels.presenter.clusters import FILES_PER_CLUSTER
from ragix_core.kernels.presenter.tiers import (CHECK_FILE, EXECUTIVE_SUMMARIES, SUMMARY_TOKENS, summarize,
                                                 write_tier_report)
from ragix_core.llm.base import LLMTimeout
from tests.kernels.audit.conftest import COMPLEX, write
from tests.kernels.audit.rows import directory_rows, unsupported
from tests.scripted_llm import ScriptedLLM


@pytest.fixture()
def docs(history, tmp_path):
    return run_all(history, cache_dir=tmp_path / "cache")


def test_every_number_a_cluster_shows_the_model_is_a_fact(docs):
    clusters = risk_clusters(docs)
    assert [c.directory for c in clusters] == [d["path"] for d in docs["risk"]["data"]["directories"]]
    src = next(c for c in clusters if c.directory == "src")
    assert src.lines[1].startswith("file src/core.py: risk ")
    for cluster in clusters:  # the facts text passes its own check: what the model read, it may cite
        result = check_prose(cluster.text, cluster.facts)
        assert result.dropped == [], result.dropped
        assert result.numbers_checked >= 4


def test_t1_keeps_checked_sentences_and_counts_the_dropped(docs, tmp_path):
    core = next(r for r in docs["risk"]["data"]["files"] if r["path"] == "src/core.py")
    reply = (f"src/core.py is the riskiest file with risk {core['risk']}. It changed in 3 commits by 2 authors. "
             "It has 40 functions. Start with src/legacy.py.")
    llm = ScriptedLLM([reply])
    result = summarize(docs, llm, tier=1, top_k=1)
    assert len(llm.calls) == 1 and "FACTS about the directory src:" in llm.calls[0]["messages"][1]["content"]
    summary = result.summaries[0]
    assert summary.subject == "src"
    assert summary.check.kept == [f"src/core.py is the riskiest file with risk {core['risk']}.",
                                  "It changed in 3 commits by 2 authors."]
    numbers, paths = directory_rows(docs, "src")  # the real-model test's independent second check, here tried
    assert [unsupported(s, numbers, paths) for s in summary.check.kept] == [[], []]
    assert [unsupported(d.sentence, numbers, paths) for d in summary.check.dropped] == [["40"], ["src/legacy.py"]]
    t = result.totals()
    assert (t["sentences_dropped"], t["unsupported_numbers"], t["unknown_paths"]) == (2, 1, 1)
    assert result.usage == {"calls": 1, "prompt_tokens": 10, "completion_tokens": 5}

    report = write_tier_report(docs, tmp_path / "out", "Audit", result, with_plots=False)
    md = (tmp_path / "out" / "report.md").read_text()
    assert "40 functions" not in md and "legacy" not in md
    assert "### Directory src\n\nsrc/core.py is the riskiest file" in md
    assert "2 dropped for citing something no kernel produced (1 numbers, 1 file names" in md
    check = json.loads((tmp_path / "out" / CHECK_FILE).read_text())
    assert check["totals"]["sentences_dropped"] == 2 and report.files[-1].name == CHECK_FILE
    assert check["summaries"][0]["dropped"][0]["unsupported_numbers"] == ["40"]


def test_t1_drops_a_sentence_that_gives_one_files_risk_to_another(docs):
    rows = [r for r in docs["risk"]["data"]["files"] if r["path"].startswith("src/")][:2]
    first, second = rows  # the riskiest file of src and the next, with different risks
    assert first["risk"] != second["risk"]
    reply = (f"File {first['path']} has risk {first['risk']}. "
             f"Files {first['path']} and {second['path']} both have risk {first['risk']}.")
    result = summarize(docs, ScriptedLLM([reply]), tier=1, top_k=1)
    check = result.summaries[0].check
    assert check.kept == [f"File {first['path']} has risk {first['risk']}."]
    assert check.dropped[0].misattributed == [f"{first['risk']} ({second['path']})"]
    assert check.dropped[0].numbers == [] and check.dropped[0].paths == []  # every number and name exists
    assert result.totals()["misattributed_numbers"] == 1


def test_the_unfinished_sentence_of_a_reply_cut_at_the_token_limit_is_left_out_and_listed(docs, tmp_path):
    core = next(r for r in docs["risk"]["data"]["files"] if r["path"] == "src/core.py")
    finished = f"File src/core.py has risk {core['risk']}."
    unfinished = "Split the function in `src/core.py` (line"  # every word of it checks
    cut = summarize(docs, ScriptedLLM([f"{finished} {unfinished}"], usage=(10, SUMMARY_TOKENS)), tier=1, top_k=1)
    assert cut.summaries[0].check.kept == [finished] and cut.cut == [unfinished]
    assert cut.totals()["sentences_cut"] == 1
    write_tier_report(docs, tmp_path / "out", "Audit", cut, with_plots=False)
    assert json.loads((tmp_path / "out" / CHECK_FILE).read_text())["cut"] == [unfinished]
    assert "(line" not in (tmp_path / "out" / "report.md").read_text()
    # the same reply under the limit is the model's whole answer: nothing is cut
    whole = summarize(docs, ScriptedLLM([f"{finished} {unfinished}"], usage=(10, SUMMARY_TOKENS - 1)), tier=1, top_k=1)
    assert whole.cut == [] and whole.summaries[0].check.kept == [finished, unfinished]


def test_t3_writes_an_executive_summary_checked_against_project_totals(docs):
    totals = docs["metrics"]["data"]["totals"]
    clusters = len(docs["risk"]["data"]["directories"])
    replies = ["A summary with no numbers."] * clusters + [
        f"The project has {totals['nloc']} lines of code. Risk is concentrated, 80% of it in one place."]
    result = summarize(docs, ScriptedLLM(replies), tier=3)
    assert len(result.summaries) == clusters
    assert result.executive.check.kept == [f"The project has {totals['nloc']} lines of code."]
    assert result.executive.check.dropped[0].numbers == ["80"]


def test_t3_reads_a_bounded_view_of_a_tree_with_many_directories(tmp_path):
    # 12 directories of 6 files each: every cluster's rows would be 12 x (1 + 5 files + recommendations) lines,
    # which on a real tree (pygments: 30 directories) is more than the model's window.
    files = {f"pkg{d}/mod{f}.py": COMPLEX.replace("route", f"route{f}") * (1 + (d + f) % 3)
             for d in range(12) for f in range(6)}
    write(tmp_path / "tree", files)
    docs = run_all(tmp_path / "tree", cache_dir=tmp_path / "cache")
    rows = docs["risk"]["data"]["files"]
    shown_dirs = [d["path"] for d in docs["risk"]["data"]["directories"][:EXECUTIVE_SUMMARIES]]
    unseen = next(r for r in rows[FILES_PER_CLUSTER:] if os.path.dirname(r["path"]) not in shown_dirs)
    seen = f"File {rows[0]['path']} has risk {rows[0]['risk']}."
    llm = ScriptedLLM([f"Summary {chr(65 + i)}." for i in range(12)]
                      + [f"{seen} File {unseen['path']} has risk {unseen['risk']}."])
    result = summarize(docs, llm, tier=3)
    prompt = llm.calls[-1]["messages"][1]["content"]
    facts, summaries = prompt.split("DIRECTORY SUMMARIES:")
    assert sum(line.startswith("directory ") for line in facts.splitlines()) == 12  # one line per directory
    assert sum(line.startswith("file ") for line in facts.splitlines()) == FILES_PER_CLUSTER  # the riskiest overall
    assert [line for line in summaries.splitlines() if line.startswith("pkg")] == [
        f"{s.subject}: {s.check.text}" for s in result.summaries[:EXECUTIVE_SUMMARIES]]  # the riskiest three
    # the executive may cite what it was shown, not a file it was not shown
    assert result.executive.check.kept == [seen]
    assert result.executive.check.dropped[0].paths == [unseen["path"]]


def test_a_failed_model_call_is_named_and_the_others_still_run(docs):
    result = summarize(docs, ScriptedLLM([LLMTimeout("worker timed out"), "Nothing risky here."]), tier=1, top_k=2)
    assert result.summaries[0].error == "LLMTimeout: worker timed out"
    assert result.summaries[1].check.kept == ["Nothing risky here."]
    assert result.totals()["errors"] == 1


def test_a_bad_tier_or_top_k_is_refused(docs):
    with pytest.raises(ValueError, match="1, 2 or 3"):
        summarize(docs, ScriptedLLM([]), tier=0)
    with pytest.raises(ValueError, match="top_k"):
        summarize(docs, ScriptedLLM([]), tier=1, top_k=0)


def test_cli_tier_1_writes_the_checked_report(history, monkeypatch):
    replies = ["The riskiest file is src/core.py. It has 999 lines."] * 3
    monkeypatch.setattr("ragix_core.llm.factory.build_client", lambda settings: ScriptedLLM(replies))
    result = CliRunner().invoke(app, ["audit", str(history), "--tier", "1", "--top-k", "2", "--no-plots"])
    assert result.exit_code == 0, result.output
    # the second directory's facts do not name src/core.py: a summary cites its own cluster's files only
    assert ("tier 1: 2 summaries, 2 numbers cited, 1 sentences kept, 3 dropped (2 unsupported numbers, "
            "1 unknown files, 0 numbers given to the wrong file; 0 cut at the token limit), 0 model errors; 2 calls") \
        in result.stdout
    assert "tier 1: summary 1/2: directory " in result.stderr  # told before each (slow) model call
    md = (history / ".ragix" / "audit" / "report.md").read_text()
    assert "The riskiest file is src/core.py." in md and "999" not in md
    # every number and file in the model-written part checks: re-read from the report itself
    part = md.split("## Model-written summaries", 1)[1].split("\n## ", 1)[0]
    prose = [p for p in part.split("\n\n")[2:] if not p.startswith("#")]
    facts = risk_clusters(run_all(history))[0].facts
    for clusters in risk_clusters(run_all(history))[1:]:
        facts = facts | clusters.facts
    assert len(prose) == 2 and all(check_prose(p, facts).dropped == [] for p in prose)
    # a later T0 report removes the check file it would no longer describe
    assert CliRunner().invoke(app, ["audit", str(history), "--no-plots"]).exit_code == 0
    assert not (history / ".ragix" / "audit" / CHECK_FILE).exists()


def test_cli_tier_with_a_bad_configuration_exits_2(history):
    (history / "ragix.yaml").write_text("llm:\n  default:\n    backend: nosuch\n")
    result = CliRunner().invoke(app, ["audit", str(history), "--tier", "1", "--no-plots"])
    assert result.exit_code == 2 and "cannot set up the model for tier 1" in result.output
    assert "Traceback" not in result.output
