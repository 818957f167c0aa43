"""The critic's deterministic checks: existence, quote support, tiers, answer grounding."""

from __future__ import annotations

import pytest

from ragix_core.research.checks import answer_terms, check_draft, support
from ragix_core.research.draft import ClaimIn, Draft


def lab(resolver, chunk):
    return next(i["label"] for i in resolver.context if i["chunk"] == chunk)


@pytest.mark.parametrize("quote,expected", [
    ("capital of Vantoria is Quellmere", "exact"),
    ("The  CAPITAL of vantoria is “Quellmere”.", "exact"),
    ("capital of Vantoria is the Quellmere", "close"),
    ("Vantoria has no capital at all", "none"),
])
def test_quote_support(quote, expected):
    got, text = support(quote, "", "Intro. The capital of Vantoria is Quellmere. Vantoria exports glass.")
    assert got == expected
    if expected != "none":
        assert text in "Intro. The capital of Vantoria is Quellmere. Vantoria exports glass."


def test_claim_without_quote_is_matched_to_its_sentence():
    got, text = support("", "Vantoria exports glass", "The capital is Quellmere. Vantoria exports glass.")
    assert got == "close" and text == "Vantoria exports glass."


def test_a_supported_draft_passes_and_citations_come_from_the_index(resolver):
    s = lab(resolver, "official/vantoria.html#0")
    d = Draft("Quellmere", [ClaimIn(text="capital", source=s, quote="capital of Vantoria is Quellmere")])
    report = check_draft(d, resolver, "What is the capital of Vantoria?", "discovery")
    assert report.passed, report.failures()
    c = d.citations[0]
    assert (c.path, c.source, c.tier, c.chunk) == ("official/vantoria.html", "Registry", 1, "official/vantoria.html#0")


def test_an_invented_label_or_file_is_a_fabricated_citation(resolver):
    d = Draft("Quellmere", [ClaimIn(text="x", source="S42", quote="capital of Vantoria is Quellmere"),
                            ClaimIn(text="y", source="official/atlas.md#0", quote="Quellmere")])
    report = check_draft(d, resolver, "capital?", "discovery")
    assert report.fabricated == ["S42", "official/atlas.md#0"] and not report.passed


def test_a_cited_file_deleted_since_indexing_is_fabricated(resolver, docs):
    s = lab(resolver, "official/vantoria.html#0")
    (docs / "official" / "vantoria.html").unlink()
    d = Draft("Quellmere", [ClaimIn(text="x", source=s, quote="Quellmere")])
    assert check_draft(d, resolver, "capital?", "discovery").fabricated == [s]


def test_a_quote_the_source_does_not_hold_is_rejected(resolver):
    s = lab(resolver, "official/vantoria.html#0")
    d = Draft("Quellmere", [ClaimIn(text="x", source=s, quote="Quellmere has two million people")])
    assert check_draft(d, resolver, "capital?", "discovery").unsupported_quotes


def test_strict_mode_rejects_a_low_tier_citation_given_by_chunk_id(resolver):
    d = Draft("5000", [ClaimIn(text="x", source="forum/rumours.md#0", quote="employs 5000 people")])
    report = check_draft(d, resolver, "How many people does Zorblat employ?", "strict")
    assert report.tier_violations and "Forum" in report.tier_violations[0]
    assert check_draft(d, resolver, "How many people does Zorblat employ?", "discovery").passed


def test_an_answer_stating_what_no_cited_source_says_is_rejected(resolver):
    s = lab(resolver, "official/zorblat.md#1")
    hq = lab(resolver, "official/zorblat.md#0")
    q = "How many people does Zorblat Industries employ?"
    good = Draft("412 people", [ClaimIn(text="x", source=s, quote="employs 412 people")])
    assert check_draft(good, resolver, q, "discovery").passed
    wrong_number = Draft("About 4,120 people", [ClaimIn(text="x", source=s, quote="employs 412 people")])
    assert check_draft(wrong_number, resolver, q, "discovery").unsupported_terms == ["4,120"]
    wrong_word = Draft("salt", [ClaimIn(text="x", source=hq, quote="headquartered in Vantoria")])
    assert check_draft(wrong_word, resolver, "What does Zorblat make?", "discovery").unsupported_terms == ["salt"]
    wrong_name = Draft("It is based in Brindle", [ClaimIn(text="x", source=hq, quote="headquartered in Vantoria")])
    assert check_draft(wrong_name, resolver, "Where is Zorblat?", "discovery").unsupported_terms == ["Brindle"]


def test_an_answer_with_no_citation_is_rejected_but_not_found_is_not(resolver):
    assert check_draft(Draft("Quellmere"), resolver, "capital?", "discovery").missing_citations
    assert check_draft(Draft("NOT FOUND"), resolver, "capital?", "discovery").passed


def test_answer_terms_ignore_the_question_words_and_sentence_starts():
    long = "The capital of that small inland republic is Quellmere, which was founded in 1987."
    assert set(answer_terms(long, "What is the capital of Vantoria?")) == {"Quellmere", "1987"}
    assert set(answer_terms("copper wire", "What does Vantoria export?")) == {"copper", "wire"}
    assert answer_terms("Vantoria.", "Where is Zorblat, in Vantoria?") == []


@pytest.mark.parametrize("answer, question, restates", [
    # the shape of a small model's non-answer: the question turned into a statement
    ("The hard ceiling applies to the number of arguments a function can take.",
     "What hard ceiling applies to the number of arguments a function can take?", True),
    ("Many arguments.", "How many arguments can functions take?", False),  # 2 content words: too few
    ("The ceiling is 127 arguments.", "What ceiling applies to the arguments?", False),  # 127 is new
    ("SQLite supports nested transactions.", "Does SQLite support nested transactions?", False),  # yes/no
    ("SQLite uses the rollback journal", "Which does SQLite use, write-ahead log or rollback journal?", False),
])
def test_an_answer_made_of_the_questions_words_answers_nothing(answer, question, restates):
    from ragix_core.research.checks import restates_question

    assert restates_question(answer, question) is restates


def test_a_draft_that_restates_the_question_fails_its_checks(resolver):
    s = lab(resolver, "official/zorblat.md#1")
    q = "How many people does Zorblat Industries employ?"
    restated = Draft("Zorblat Industries employs many people", [ClaimIn(text="x", source=s, quote="employs 412 people")])
    report = check_draft(restated, resolver, q, "discovery")
    assert report.restates_question and not report.passed
    assert "repeats the question" in " ".join(report.failures())


@pytest.mark.parametrize("term,text,stated", [
    ("50,000", "The batch size is limited to 50 thousand objects.", True),
    ("2,000,000", "up to 2 million rows", True),
    ("50,000", "The batch size is limited to 50 objects.", False),
    ("SHA-1", "sha1 is the default", True),
    ("SHA-256", "sha1 is the default", False),
    ("4,000", "4000 rows", True),
])
def test_a_term_is_stated_whatever_way_the_page_writes_its_number_or_hyphen(term, text, stated):
    from ragix_core.research.matching import term_in

    assert term_in(term, [text]) is stated
