"""Worker + tutor review of the tier summaries (spec 002 §6.2), over real kernel output with scripted models:
the claims check is the deterministic critique, the tutor's critique only adds, rounds are bounded, and
`ragix audit --review N` says what each critique found."""

from __future__ import annotations

import json
import re

import pytest
from typer.testing import CliRunner

from ragix_core.cli import app
from ragix_core.kernels.audit import run_all
from ragix_core.kernels.presenter.review import tutor_problems
from ragix_core.kernels.presenter.tiers import CHECK_FILE, summarize
from ragix_core.llm.base import LLMBadOutput
from tests.scripted_llm import ScriptedLLM

GOOD = "src/core.py changed in 3 commits by 2 authors."
BAD = GOOD + " It has 40 functions."
NOTHING = {"problems": []}


@pytest.fixture()
def docs(history, tmp_path):
    return run_all(history, cache_dir=tmp_path / "cache")


def _review(docs, worker_replies, tutor_replies, revisions=2):
    worker, tutor = ScriptedLLM(worker_replies), ScriptedLLM(tutor_replies)
    result = summarize(docs, worker, tier=1, top_k=1, review=(tutor, revisions))
    return result, result.summaries[0], worker, tutor


def test_a_failed_check_is_revised_though_the_tutor_found_nothing(docs):
    result, summary, worker, tutor = _review(docs, [BAD, GOOD], [NOTHING, NOTHING])
    review = summary.review
    assert (review.ended, review.chosen, len(review.rounds)) == ("clean", 1, 2)
    revise = worker.calls[1]["messages"]
    assert revise[-2] == {"role": "assistant", "content": BAD}  # the worker sees its draft, then the findings
    assert '"It has 40 functions." cites the number 40, which the facts do not show.' in revise[-1]["content"]
    assert summary.check.kept == [GOOD] and summary.raw == GOOD
    shown = tutor.calls[0]["messages"][1]["content"]  # the tutor reads the rows the worker was shown, and the draft
    assert shown.startswith("FACTS:\ndirectory src: risk ") and "\nfile src/core.py: risk " in shown and BAD in shown
    assert result.usage["calls"] == 4 and result.totals()["revisions"] == 1


def test_a_number_given_to_the_wrong_file_is_named_to_the_worker(docs):
    core = next(r for r in docs["risk"]["data"]["files"] if r["path"] == "src/core.py")
    copied = f"Files src/core.py and src/util.py have risk {core['risk']}."
    _, summary, worker, _ = _review(docs, [copied, GOOD], [NOTHING, NOTHING])
    told = worker.calls[1]["messages"][-1]["content"]
    assert f'"{copied}" gives {core["risk"]} to src/util.py; the facts show it for another.' in told
    assert "cites" not in told  # every number and file of it exists: only the pairing is wrong
    assert summary.check.kept == [GOOD]


def test_the_tutors_problem_on_a_checked_draft_is_passed_on_and_fixed(docs):
    wrong = "src/util.py is the riskiest file."
    problem = "It calls src/util.py the riskiest file; the facts rank src/core.py first."
    _, summary, worker, _ = _review(docs, [wrong, GOOD], [{"problems": [problem]}, NOTHING])
    assert f"- {problem}" in worker.calls[1]["messages"][-1]["content"]
    assert summary.review.rounds[0].critique.check.dropped == []  # the check alone would have kept it
    assert summary.check.kept == [GOOD] and summary.review.ended == "clean"
    assert "draft 1: 1 problem(s) named by the tutor. draft 2: nothing found. Kept draft 2." in \
        summary.review.summary_line()


def test_revisions_are_bounded_and_the_draft_with_fewest_failures_is_kept(docs):
    worse = BAD + " Start with src/legacy.py."
    _, summary, worker, tutor = _review(docs, [BAD, worse, worse], [NOTHING] * 3, revisions=2)
    review = summary.review
    assert (review.ended, len(review.rounds), review.chosen) == ("max_revisions", 3, 0)
    assert len(worker.calls) == 3 and len(tutor.calls) == 3
    assert summary.check.kept == [GOOD]  # the kept text is still only what passes the check


def test_a_clean_first_draft_ends_the_review_without_a_revision(docs):
    result, summary, worker, _ = _review(docs, [GOOD], [NOTHING])
    assert summary.review.ended == "clean" and len(worker.calls) == 1 and result.totals()["reviews_clean"] == 1


@pytest.mark.parametrize("reply, note", [
    ({"problems": ["x"] * 6}, "more than 5"),
    ({"problems": "none"}, 'not an object with a "problems" list'),
    ({"problems": ["", "y"]}, "not a string of 1 to 300 characters"),
    (LLMBadOutput("not JSON", text="looks fine"), "the tutor's call failed (LLMBadOutput"),
])
def test_an_unusable_tutor_adds_nothing_and_never_overrides_the_check(docs, reply, note):
    _, summary, _, _ = _review(docs, [BAD, GOOD], [reply, NOTHING])
    first = summary.review.rounds[0].critique
    assert first.problems == [] and note in first.tutor_note
    assert first.check.dropped and summary.review.chosen == 1  # the failed check still sent it back


def test_tutor_problems_are_deduplicated_and_whitespace_normalised():
    assert tutor_problems({"problems": ["a  b", "a b", "c"]}) == (["a b", "c"], None)


def test_cli_review_writes_what_the_critique_found(history, monkeypatch):
    scripted = ScriptedLLM([BAD, NOTHING, GOOD, NOTHING])  # worker and tutor share one client (same model)
    monkeypatch.setattr("ragix_core.llm.factory.build_client", lambda settings: scripted)
    result = CliRunner().invoke(app, ["audit", str(history), "--tier", "1", "--top-k", "1", "--review", "2",
                                      "--no-plots"])
    assert result.exit_code == 0, result.output
    assert "review: 1 revision(s), 1 of 1 review(s) ended with nothing found (tutor scripted)" in result.stdout
    md = (history / ".ragix" / "audit" / "report.md").read_text()
    assert "Review (clean): draft 1: 1 sentence(s) citing what no kernel produced. draft 2: nothing found. " \
           "Kept draft 2." in md
    assert "40 functions" not in md
    check = json.loads((history / ".ragix" / "audit" / CHECK_FILE).read_text())
    rounds = check["summaries"][0]["review"]["rounds"]
    assert rounds[0]["failed_check"][0]["unsupported_numbers"] == ["40"] and rounds[1]["failed_check"] == []


def test_cli_review_without_a_tier_is_refused_and_help_tells_what_it_does(history):
    result = CliRunner().invoke(app, ["audit", str(history), "--review", "1"])
    assert result.exit_code == 2 and "need --tier 1, 2 or 3" in result.output
    shown = CliRunner().invoke(app, ["audit", "--help"], terminal_width=200).output
    helptext = " ".join(re.sub(r"[│╭╮╰╯─]", " ", shown).split())  # rich's panel borders out
    assert "--review" in helptext and "claims check and a tutor model critique the draft" in helptext
