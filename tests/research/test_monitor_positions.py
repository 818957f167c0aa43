"""Monitor mode reports a disagreement instead of declining: each position with its sources and
tiers, and the one the most authoritative tier supports."""

from __future__ import annotations

from ragix_core.research import DeepResearchOrchestrator
from ragix_core.research.draft import Citation
from ragix_core.research.positions import rival_positions

from .conftest import LIMIT_QUESTION, ScriptedLLM, analyst, critic, label, writer

OFFICIAL = "The open pack limit per repository is 64"
FORUM = "the open pack limit per repository is 128"


def run(index, settings, replies, mode="monitor"):
    llm = ScriptedLLM(replies)
    o = DeepResearchOrchestrator(index, settings=settings, client=llm)
    return o.run_research(LIMIT_QUESTION, mode)[0], o, llm


def both_sides(answer, other_answer="128"):
    return lambda m: analyst(answer, [("the manual's limit", label(m, "official/pack-limits.md"), OFFICIAL)],
                             other_answer=other_answer,
                             other_claims=[("a forum's limit", label(m, "forum/packs.md"), FORUM)])


def assert_reports_both_positions(item):
    schema = item["schema_object"]
    assert schema["status"] == "ANSWERED" and "64" in schema["answer"] and "128" not in schema["answer"]
    conflict = schema["conflict"]
    assert conflict["disagree"] is True
    assert [(p["value"], p["tier"]) for p in conflict["positions"]] == [("64", 1), ("128", 5)]
    assert conflict["most_authoritative"] == {"value": "64", "tier": 1}
    assert [s["path"] for p in conflict["positions"] for s in p["sources"]] == ["official/pack-limits.md", "forum/packs.md"]
    assert {(c["path"], c["tier"]) for c in schema["citations"]} == {("official/pack-limits.md", 1), ("forum/packs.md", 5)}
    text = item["description"]
    assert "Sources disagree" in text and "tier 1 sources say" in text.lower() and "tier 5 sources say" in text
    assert "The most authoritative source (tier 1) supports: 64." in text


def test_a_draft_declined_over_disagreeing_sources_becomes_a_report_of_both_positions(manual_index, settings):
    item, o, llm = run(manual_index, settings, [both_sides("NOT FOUND"), critic("PASS")])
    assert_reports_both_positions(item)
    assert o.last_run["declined"] is False and len(llm.calls) == 2  # written without the writer model


def test_a_critic_rejecting_the_disagreement_itself_does_not_loop_the_analyst(manual_index, settings):
    replies = [both_sides("64"), critic("REJECT", gaps=["the sources contradict each other"]),
               writer("The limit is 64 [S1]; a forum says 128 [S2].")]
    item, o, llm = run(manual_index, settings, replies)
    assert_reports_both_positions(item)
    assert item["schema_object"]["critic"]["status"] == "WARN" and item["schema_object"]["iterations"] == 1


def test_an_answer_stating_both_positions_is_backed_by_either_sides_sources(manual_index, settings):
    replies = [both_sides("64 according to the manual; a forum says 128"), critic("PASS"),
               writer("The manual says 64 [S1]; a forum says 128 [S2].")]
    item, o, _ = run(manual_index, settings, replies)
    schema = item["schema_object"]
    assert schema["status"] == "ANSWERED" and schema["critic"]["status"] == "PASS"
    assert [p["value"] for p in schema["conflict"]["positions"]] == ["64", "128"]


def test_a_rejected_monitor_draft_still_reports_the_verified_positions(manual_index, settings):
    settings.reasoning.max_iterations = 1
    # the answer names what no source states: the checks reject it, the verified quotes still disagree
    item, _, _ = run(manual_index, settings, [both_sides("64, as the release manager Quillan confirmed")])
    assert_reports_both_positions(item)
    assert "not verified" in item["description"] and item["schema_object"]["confidence"] == "Low"
    assert item["schema_object"]["answer"] == OFFICIAL  # the rejected answer is not repeated, the quote is


def test_outside_monitor_mode_a_decline_stays_a_decline(manual_index, settings):
    replies = [lambda m: analyst("NOT FOUND", [("a", label(m, "official/pack-limits.md"), OFFICIAL),
                                               ("b", label(m, "forum/packs.md"), FORUM)]), critic("PASS")]
    item, o, _ = run(manual_index, settings, replies, mode="discovery")
    assert item["schema_object"]["status"] == "NOT_FOUND" and o.last_run["declined"] is True


def cit(path, tier, claim, quote):
    return Citation(source_ref=path, claim=claim, claimed_quote=quote, chunk=f"{path}#0", path=path, tier=tier,
                    quote=quote, support="exact", exists=True)


def test_positions_need_the_same_subject_and_different_documents():
    q = "How many people does Zorblat Industries employ?"
    staff = cit("official/zorblat.md", 1, "staff", "Zorblat Industries employs 412 people")
    sales = cit("news/teapots.txt", 2, "sales", "quantum teapots sold 9,000 units in 2023")
    rumour = cit("forum/rumours.md", 5, "rumour", "Zorblat Industries employs 5000 people")
    assert rival_positions([staff, sales], q) == []  # two facts about two things
    same_page = cit("official/zorblat.md", 1, "staff", "Zorblat Industries employs 5000 people")
    assert rival_positions([staff, same_page], q) == []  # one document stating two numbers is no dispute
    found = rival_positions([rumour, staff, sales], q, answers=("412 people", "5000 people"))
    assert [(p.shown, p.tier, p.statement) for p in found] == [(["412"], 1, "412 people"), (["5000"], 5, "5000 people")]


def test_a_disagreement_between_sources_of_no_known_tier_says_so_in_words():
    from ragix_core.research.positions import describe

    q = "How many people does Zorblat Industries employ?"
    staff = cit("a/zorblat.md", None, "staff", "Zorblat Industries employs 412 people")
    rumour = cit("b/rumours.md", None, "rumour", "Zorblat Industries employs 5000 people")
    found = rival_positions([staff, rumour], q, answers=("412 people", "5000 people"))
    text = describe(found, {"a/zorblat.md#0": 1, "b/rumours.md#0": 2})
    assert "Sources of unknown tier say \"412 people\" [1]; sources of unknown tier say \"5000 people\" [2]" in text, text
    assert "tier ?" not in text and "(a source of unknown tier) supports: 412" in text


def official_only(answer="64"):
    return lambda m: analyst(answer, [("the manual's limit", label(m, "official/pack-limits.md"), OFFICIAL)])


def test_a_retrieved_page_no_citation_quotes_that_states_another_value_is_a_rival_position(manual_index, settings):
    # The analyst cites the manual alone; the forum page stating 128 was retrieved all the same.
    item, o, _ = run(manual_index, settings, [official_only(), critic("PASS"), writer("The limit is 64 [S1].")])
    schema = item["schema_object"]
    assert schema["status"] == "ANSWERED" and schema["answer"] == "64"
    conflict = schema["conflict"]
    assert conflict["disagree"] is True and conflict["most_authoritative"] == {"value": "64", "tier": 1}
    assert [(p["value"], p["tier"]) for p in conflict["positions"]] == [("64", 1), ("128", 5)]
    # the digest and the release notes say 64 too: they are no new position
    assert [s["path"] for s in conflict["positions"][1]["sources"]] == ["forum/packs.md"]
    assert "Sources disagree" in item["description"]



def test_a_rival_from_the_context_is_about_what_the_question_asks_not_a_look_alike():
    from ragix_core.research.positions import context_rivals
    from ragix_core.research.resolver import Place, citation_at

    question = "How many people does Bravel Works employ?"
    said = "Bravel Works employs 1470 people."
    cited = citation_at(Place("official/bravel.md#1", "official/bravel.md", said, tier=1), said, side="main")
    places = [Place("official/braras.md#1", "official/braras.md", "Braras Works employs 3280 people.", tier=1),
              Place("news/bravel.md#0", "news/bravel.md", "Bravel Works employs 1470 people, the paper says.", tier=2),
              Place("forum/bravel.md#0", "forum/bravel.md",
                    "# Bravel rumours\n\nA forum user insists that Bravel Works employs 1600 people.", tier=5)]
    rivals = context_rivals([cited], places, question)
    # another company's count shares most words but not the one asked about; the same count is no rival
    assert [(c.path, c.quote, c.side) for c in rivals] == [
        ("forum/bravel.md", "A forum user insists that Bravel Works employs 1600 people.", "other")]
