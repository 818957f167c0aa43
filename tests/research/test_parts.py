"""A declined question is split into the questions it asks, and each is researched on its own
(agents/decomposer.py, parts.py): ADaPT's decomposition after a failure."""

from __future__ import annotations

from ragix_core.research import DeepResearchOrchestrator
from ragix_core.research.agents.decomposer import may_ask_several, own_words_share
from ragix_core.research.parts import compose_parts

from .conftest import ScriptedLLM, analyst, label

TWO = "How many people does Zorblat Industries employ, and what is the capital of Vantoria?"
STAFF = "How many people does Zorblat Industries employ?"
CAPITAL = "What is the capital of Vantoria?"


def _plain(settings):
    """One round, no model critic or writer: each run is one analyst call."""
    settings.reasoning.max_iterations = 1
    settings.reasoning.critic_llm = False
    settings.reasoning.writer_llm = False
    return settings


def _invented(m):  # a draft whose quote no source holds: the checks reject it and the run declines
    return analyst("412 people in Quellmere", [("both", label(m, "official/zorblat.md"), "412 people live in Quellmere")])


def _staff(m):
    return analyst("412 people", [("staff", label(m, "official/zorblat.md"), "Zorblat Industries employs 412 people")])


def _capital(m):
    return analyst("Quellmere", [("capital", label(m, "official/vantoria.html"), "The capital of Vantoria is Quellmere")])


def test_a_declined_two_part_question_is_answered_part_by_part_with_each_parts_citations(index, settings):
    llm = ScriptedLLM([_invented, {"questions": [STAFF, CAPITAL]}, _staff, _capital])
    o = DeepResearchOrchestrator(index, settings=_plain(settings), client=llm)
    item = o.run_research(TWO, "discovery")[0]
    schema = item["schema_object"]
    assert schema["status"] == "ANSWERED" and schema["stop_reason"] == "success"
    assert schema["answer"] == "412 people; Quellmere"  # the parts in the order the question asks them
    assert {c["path"] for c in schema["citations"]} == {"official/zorblat.md", "official/vantoria.html"}
    assert [p["status"] for p in schema["parts"]] == ["ANSWERED", "ANSWERED"]
    assert f"### {STAFF}" in item["description"] and f"### {CAPITAL}" in item["description"]
    assert o.last_run["declined"] is False and "official/vantoria.html" in o.last_run["retrieved_paths"]
    assert [p["question"] for p in o.last_run["parts"]] == [STAFF, CAPITAL]
    assert (o.log_dir / o.last_run["query_id"] / "part2").is_dir()  # each part's turns are logged apart


def test_when_one_part_cannot_be_backed_the_other_is_answered_and_the_report_says_which(index, settings):
    llm = ScriptedLLM([_invented, {"questions": [STAFF, CAPITAL]}, _staff, _invented])
    o = DeepResearchOrchestrator(index, settings=_plain(settings), client=llm)
    item = o.run_research(TWO, "discovery")[0]
    schema = item["schema_object"]
    assert schema["status"] == "PARTIAL" and schema["stop_reason"] == "partial" and schema["confidence"] == "Low"
    assert schema["answer"] == "412 people" and {c["path"] for c in schema["citations"]} == {"official/zorblat.md"}
    assert f"1 of 2 could not be backed by the documents: {CAPITAL}" in item["description"]
    assert o.last_run["declined"] is False


def test_a_split_that_invents_a_question_or_repeats_the_whole_is_not_used(index, settings):
    invented = "What does Zorblat Industries charge for a quantum teapot?"  # the user never asked it
    llm = ScriptedLLM([_invented, {"questions": [TWO, invented]}])
    o = DeepResearchOrchestrator(index, settings=_plain(settings), client=llm)
    schema = o.run_research(TWO, "discovery")[0]["schema_object"]
    assert schema["status"] == "UNVERIFIED" and "parts" not in schema and len(llm.calls) == 2
    assert o.last_run["declined"] is True and "parts" not in o.last_run


def test_a_question_that_joins_nothing_costs_no_decomposer_call(index, settings):
    llm = ScriptedLLM([_invented])
    o = DeepResearchOrchestrator(index, settings=_plain(settings), client=llm)
    schema = o.run_research(STAFF, "discovery")[0]["schema_object"]
    assert schema["status"] == "UNVERIFIED" and len(llm.calls) == 1


def test_decompose_false_keeps_the_decline(index, settings):
    _plain(settings).reasoning.decompose = False
    llm = ScriptedLLM([_invented])
    o = DeepResearchOrchestrator(index, settings=settings, client=llm)
    assert o.run_research(TWO, "discovery")[0]["schema_object"]["status"] == "UNVERIFIED" and len(llm.calls) == 1


def test_an_answered_question_is_never_split(index, settings):
    llm = ScriptedLLM([_staff])
    o = DeepResearchOrchestrator(index, settings=_plain(settings), client=llm)
    schema = o.run_research("How many people does Zorblat Industries employ, in total?", "discovery")[0]["schema_object"]
    assert schema["status"] == "ANSWERED" and len(llm.calls) == 1 and "parts" not in o.last_run


def test_the_checks_of_a_split():
    assert may_ask_several(TWO) and may_ask_several("Compare the loose-object count with the batch limit.")
    assert may_ask_several("Tell me the join table limit plus the JSON nesting limit")  # no "and" needed
    assert not may_ask_several(STAFF)
    assert own_words_share(STAFF, TWO) == 1.0
    assert own_words_share("What does Zorblat Industries charge for a quantum teapot?", TWO) < 0.6
    assert compose_parts([(STAFF, {"schema_object": {"status": "UNVERIFIED", "answer": ""}, "description": "x"})]) is None
