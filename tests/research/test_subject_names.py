"""The names a question gives its subject must stand on a page the answer cites (research/subject_names.py)."""

from __future__ import annotations

import pytest

from ragix_core.research.checks import check_draft
from ragix_core.research.draft import ClaimIn, Draft
from ragix_core.research.subject_names import names_missing, question_names


@pytest.mark.parametrize("question,names", [
    ("How do I configure GitHub Actions to run my tests on every push?", ["GitHub Actions"]),
    ("Which command locks a file stored with Git LFS?", ["Git LFS"]),
    ("Which tokenizer do FTS3, FTS4 and FTS5 tables use?", ["FTS3", "FTS4", "FTS5"]),
    ("How deep may JSON input nest in SQLite's JSON functions?", ["JSON", "SQLite"]),
    ("Up to which number can ?NNN host parameters go?", ["NNN"]),
    ("I'm tuning housekeeping. What delta window does an aggressive gc use?", []),
    ("how do i lock a file with git lfs?", []),  # lower case gives no names: not checked
])
def test_a_questions_names_are_its_capitalised_words_that_do_not_open_a_sentence(question, names):
    assert question_names(question) == names


def test_a_name_is_found_as_a_phrase_in_any_case_and_spelling_of_its_joins():
    assert names_missing("How many dimensions can an R-Tree have?", ["The r*tree module allows 5 dimensions"]) == []
    assert names_missing("Which SELECTs may a compound statement join?", ["a compound SELECT statement"]) == []
    assert names_missing("How do I set up GitHub Actions?", ["GitHub hosts code. Actions run jobs."]) == \
        ["GitHub Actions"]  # both words are there, the name is not


def test_an_answer_citing_pages_that_never_name_the_questions_subject_fails_its_checks(resolver):
    label = next(i["label"] for i in resolver.context if i["chunk"] == "official/vantoria.html#0")
    claim = [ClaimIn(text="capital", source=label, quote="capital of Vantoria is Quellmere")]
    # The page states the quote, but the question asks about a country it never names.
    report = check_draft(Draft("Quellmere", list(claim)), resolver, "What is the capital of Brelland?", "discovery")
    assert report.unnamed == ["Brelland"] and not report.passed
    assert any("no cited page names Brelland" in f for f in report.failures())
    ok = check_draft(Draft("Quellmere", list(claim)), resolver, "What is the capital of Vantoria?", "discovery")
    assert ok.unnamed == [] and ok.passed
    # A decline is not an answer about anything: nothing to check.
    assert check_draft(Draft("NOT FOUND"), resolver, "What is the capital of Brelland?", "discovery").passed
