"""Citation repair and preference: a claim is cited where its text stands, on the page that documents
it; a quote that no retrieved text holds is still unsupported, a source that does not exist still
fabricated."""

from __future__ import annotations

import pytest

from ragix_core.research import DeepResearchOrchestrator, SourceTierFilter
from ragix_core.research.checks import Resolver, check_draft, support
from ragix_core.research.context import Context, item_of
from ragix_core.research.draft import ClaimIn, Draft
from ragix_core.research.settings import SourceMap

from .conftest import LIMIT_QUESTION, ScriptedLLM, analyst, critic, label, writer

STITCHED = "The repository settings accept open packs, loose objects and delta depth"


def resolver_over(index, settings, hits, mode="discovery"):
    smap = SourceMap(settings)
    tf = SourceTierFilter(settings.source_tiers, settings.mode_configs)
    ctx = Context()
    ctx.add(tf.filter_and_enrich([item_of(h, smap.source_of(h.path)) for h in hits], mode))
    return Resolver(ctx, index, index.docs_dir, smap, tf)


@pytest.fixture
def manual(manual_index, settings):
    return resolver_over(manual_index, settings, manual_index.search(LIMIT_QUESTION, 8))


def lab(resolver, path):
    return next(i["label"] for i in resolver.context if i["path"] == path)


# -- matching -------------------------------------------------------------------------------

LIST_CHUNK = ("The repository settings accept:\nopen packs: how many pack files stay open at once\n"
              "loose objects: how many objects wait before a repack\ndelta depth: how long a chain of deltas may grow\n"
              "Each setting has a ceiling. The open pack limit per repository is 64.")


def test_a_list_stitched_into_a_sentence_is_found_close_in_its_lines():
    got, text = support(STITCHED, "", LIST_CHUNK)
    assert got == "close"
    assert text in LIST_CHUNK and text.startswith("The repository settings accept:") and "delta depth" in text


def test_a_stitched_quote_whose_items_stand_far_apart_falls_back_to_the_claims_sentence():
    spread = LIST_CHUNK.replace("\nloose objects", "\nnote one\nnote two\nnote three\nnote four\nloose objects")
    got, text = support(STITCHED, "The open pack limit per repository is 64", spread)
    assert (got, text) == ("close", "The open pack limit per repository is 64.")


@pytest.mark.parametrize("quote,claim", [
    ("Sixty four packs were approved by the steering board in March", "The open pack limit per repository is 64"),
    ("the repository settings never accept delta depth", ""),  # a negation the chunk does not state
])
def test_a_quote_whose_words_the_chunk_does_not_hold_is_not_supported_whatever_the_claim(quote, claim):
    assert support(quote, claim, LIST_CHUNK)[0] == "none"


def test_a_close_match_must_state_the_quotes_numbers():
    assert support("the open pack limit per repository is 128", "", LIST_CHUNK)[0] == "none"
    assert support("the open pack limit of a repository is 64", "", LIST_CHUNK)[0] == "close"
    assert support("", "the open pack limit is 128", LIST_CHUNK)[0] == "none"
    forum = "Someone wrote that the open pack limit per repository is 128."
    assert support("The open pack limit per repository is 64", "the limit", forum)[0] == "none"


# -- repair -----------------------------------------------------------------------------------

def test_a_quote_under_the_wrong_label_is_reattached_where_it_stands(manual):
    claim = ClaimIn(text="limit", source=lab(manual, "forum/packs.md"), quote="The open pack limit per repository is 64")
    d = Draft("64", [claim])
    report = check_draft(d, manual, LIMIT_QUESTION, "discovery")
    assert report.passed, report.failures()
    c = d.citations[0]
    # exact matches first (the forum's 128 sentence is not even close), the official page before the digest
    assert (c.path, c.tier, c.support, c.label) == ("official/pack-limits.md", 1, "exact", lab(manual, c.path))
    assert c.quote == "The open pack limit per repository is 64" and c.cited_chunk == "forum/packs.md#0"
    assert [r["path"] for r in report.repaired] == ["official/pack-limits.md"]
    assert report.repaired[0]["cited"] == claim.source and "does not hold" in report.repaired[0]["why"]


def test_a_quote_found_in_another_chunk_of_the_cited_document_is_reattached_there(index, settings):
    hq = index.get("official/zorblat.md#0")
    r = resolver_over(index, settings, [hq])  # the staff section was never retrieved
    d = Draft("412 people", [ClaimIn(text="staff", source="S1", quote="employs 412 people")])
    report = check_draft(d, r, "How many people does Zorblat Industries employ?", "discovery")
    assert report.passed, report.failures()  # the answer's 412 counts from the repaired chunk's text
    assert (d.citations[0].chunk, d.citations[0].label) == ("official/zorblat.md#1", None)
    assert len(report.repaired) == 1


def test_a_stitched_list_quote_does_not_decline_the_run(manual_index, settings):
    replies = [lambda m: analyst("64", [("the limit", label(m, "official/pack-limits.md"), STITCHED)]),
               critic("PASS"), writer("The limit is 64 [S1].")]
    llm = ScriptedLLM(replies)
    o = DeepResearchOrchestrator(manual_index, settings=settings, client=llm)
    schema = o.run_research(LIMIT_QUESTION, "discovery")[0]["schema_object"]
    assert schema["status"] == "ANSWERED" and schema["answer"] == "64"
    assert schema["citations"][0]["path"] == "official/pack-limits.md"
    assert o.last_run["declined"] is False and "official/pack-limits.md" in o.last_run["retrieved_paths"]


def test_a_quote_no_retrieved_text_holds_is_still_unsupported(manual):
    invented = ClaimIn(text="The open pack limit per repository is 64", source=lab(manual, "official/pack-limits.md"),
                       quote="Sixty four packs were approved by the steering board in March")
    report = check_draft(Draft("64", [invented]), manual, LIMIT_QUESTION, "discovery")
    assert report.unsupported_quotes and not report.repaired and not report.passed


def test_a_source_that_does_not_exist_is_still_fabricated(manual):
    real_quote = "The open pack limit per repository is 64"
    d = Draft("64", [ClaimIn(text="x", source="S42", quote=real_quote),
                     ClaimIn(text="y", source="official/missing.md#0", quote=real_quote)])
    report = check_draft(d, manual, LIMIT_QUESTION, "discovery")
    assert report.fabricated == ["S42", "official/missing.md#0"] and not report.repaired


# -- preference -------------------------------------------------------------------------------

def test_a_page_about_the_subject_is_cited_rather_than_one_mentioning_the_number_in_passing(manual):
    notes = ClaimIn(text="The open pack limit per repository is 64", source=lab(manual, "official/release-notes.md"),
                    quote="raises the open pack limit per repository to 64")
    d = Draft("64", [notes])
    report = check_draft(d, manual, LIMIT_QUESTION, "discovery")
    assert report.passed, report.failures()
    c = d.citations[0]
    assert (c.path, c.tier) == ("official/pack-limits.md", 1)  # same tier: the page titled for the subject
    assert "64" in c.quote and c.quote in manual_text(manual, c.chunk)
    assert report.repaired[0]["why"] == "this page is about the question's subject"


def test_a_more_authoritative_source_is_cited_first(manual):
    digest = ClaimIn(text="The open pack limit per repository is 64", source=lab(manual, "news/weekly.md"),
                     quote="The open pack limit per repository is 64")
    d = Draft("64", [digest])
    report = check_draft(d, manual, LIMIT_QUESTION, "discovery")
    assert (d.citations[0].path, d.citations[0].tier) == ("official/pack-limits.md", 1)
    assert report.repaired[0]["why"] == "a more authoritative source states it"


def test_a_bare_value_or_the_less_credible_side_keeps_its_citation(manual):
    bare = ClaimIn(text="64", source=lab(manual, "official/release-notes.md"), quote="64")
    digest = ClaimIn(text="The open pack limit per repository is 64", source=lab(manual, "news/weekly.md"),
                     quote="The open pack limit per repository is 64")
    d = Draft("64", [bare], other_answer="64", other_claims=[digest])
    report = check_draft(d, manual, LIMIT_QUESTION, "monitor")
    assert [c.path for c in d.citations] == ["official/release-notes.md", "news/weekly.md"]
    assert not report.repaired


def test_repairs_are_in_the_schema_and_the_runs_record(manual_index, settings):
    replies = [lambda m: analyst("64", [("limit", label(m, "forum/packs.md"), "The open pack limit per repository is 64")]),
               critic("PASS"), writer("The limit is 64 [S1].")]
    o = DeepResearchOrchestrator(manual_index, settings=settings, client=ScriptedLLM(replies))
    schema = o.run_research(LIMIT_QUESTION, "discovery")[0]["schema_object"]
    assert schema["status"] == "ANSWERED" and [c["path"] for c in schema["citations"]] == ["official/pack-limits.md"]
    assert schema["repaired"] == o.last_run["repaired"] and schema["repaired"][0]["cited_chunk"] == "forum/packs.md#0"
    # a declined run says so
    o = DeepResearchOrchestrator(manual_index, settings=settings, client=ScriptedLLM([analyst("NOT FOUND")]))
    o.run_research(LIMIT_QUESTION, "discovery")
    assert o.last_run["declined"] is True and o.last_run["repaired"] == []
    assert set(o.last_run["retrieved_paths"]) >= {"official/pack-limits.md", "news/weekly.md"}


def manual_text(resolver, chunk):
    return resolver.text_of(chunk)
