"""The loop of spec 004 §5 with scripted model replies: gap search, revision, modes, clarification,
errors as Items, logs and events. The real model runs in test_real_model.py."""

from __future__ import annotations

import asyncio
import json

import pytest

from ragix_core.core.events import EventBus, EventKind
from ragix_core.llm.base import LLMTimeout
from ragix_core.research import DeepResearchOrchestrator, validate_items
from ragix_core.research.items import ItemSchemaError

from .conftest import ScriptedLLM, analyst, critic, label, writer

MULTI_HOP = "What is the capital of the country where Zorblat Industries is headquartered?"


def orch(index, settings, llm, **kw):
    return DeepResearchOrchestrator(index, settings=settings, client=llm, **kw)


def run(index, settings, replies, question, mode="discovery", **kw):
    llm = ScriptedLLM(replies)
    o = orch(index, settings, llm, **kw)
    items = o.run_research(question, mode)
    return items, o, llm


def test_gap_search_runs_the_analysts_queries_against_the_index(index, settings):
    settings.retrieval.k = 1  # the first search finds only the company's page
    replies = [
        lambda m: analyst("NOT FOUND", status="SEARCH_REQUIRED", queries=["capital of Vantoria"]),
        lambda m: analyst("Quellmere", [("HQ", label(m, "official/zorblat.md"), "headquartered in Vantoria"),
                                        ("capital", label(m, "official/vantoria.html"), "capital of Vantoria is Quellmere")]),
        critic("PASS"),
        lambda m: writer(f"The capital is Quellmere [{label_in(m, 'vantoria')}]."),
    ]
    items, o, llm = run(index, settings, replies, MULTI_HOP)
    first, second = llm.prompts_of("ANALYST")
    assert "official/vantoria.html" not in first and "official/vantoria.html" in second
    schema = items[0]["schema_object"]
    assert schema["status"] == "ANSWERED" and schema["answer"] == "Quellmere" and schema["iterations"] == 2
    assert {c["path"] for c in schema["citations"]} == {"official/zorblat.md", "official/vantoria.html"}
    assert schema["citations"][1]["quote"] == "capital of Vantoria is Quellmere"
    gap = [r for r in o.last_run["rounds"] if r.get("gap_queries")]
    assert gap and gap[0]["gap_queries"] == ["capital of Vantoria"]
    assert "Quellmere [" in items[0]["description"] and "**Sources**" in items[0]["description"]


def label_in(messages, word):
    import re

    return re.search(r"\[(S\d+)\] [^\n]*" + word, messages[-1]["content"]).group(1)


def test_a_rejected_draft_is_revised_with_the_checks_failures_and_never_cited(index, settings):
    replies = [
        lambda m: analyst("Quellmere", [("capital", "S9", "capital of Vantoria is Quellmere")]),  # S9 does not exist
        lambda m: analyst("Quellmere", [("capital", label(m, "official/vantoria.html"), "capital of Vantoria is Quellmere")]),
        critic("PASS"),
        writer("Quellmere [S1]."),
    ]
    items, o, llm = run(index, settings, replies, "What is the capital of Vantoria?")
    revise_prompt = llm.prompts_of("ANALYST")[1]
    assert "REJECTED" in revise_prompt and "does not exist: S9" in revise_prompt
    cits = items[0]["schema_object"]["citations"]
    assert [c["path"] for c in cits] == ["official/vantoria.html"]
    assert [r.get("verdict") for r in o.last_run["rounds"] if r.get("verdict")] == ["REJECT", "PASS"]


def test_a_fabricated_citation_that_survives_every_round_yields_no_answer(index, settings):
    settings.reasoning.max_iterations = 2
    bad = analyst("Quellmere", [("capital", "official/atlas.md#0", "capital of Vantoria is Quellmere")])
    items, _, llm = run(index, settings, [bad, bad], "What is the capital of Vantoria?")
    schema = items[0]["schema_object"]
    assert schema["status"] == "UNVERIFIED" and schema["citations"] == [] and schema["answer"] == ""
    assert "atlas" not in items[0]["description"].split("**No verified answer.**")[0]
    assert len(llm.calls) == 2  # both rejected by the checks: the critic model was never asked


def test_a_revision_that_repeats_a_rejected_answer_is_drawn_again_at_a_temperature(index, settings):
    # Greedy, shown the same sources and the same failure, the analyst writes the same draft: the round after
    # a repeat is sampled (research.reasoning.repeat_temperature), no extra call.
    bad = analyst("Quellmere", [("capital", "official/atlas.md#0", "capital of Vantoria is Quellmere")])
    good = lambda m: analyst("Quellmere", [("capital", label(m, "official/vantoria.html"),
                                            "capital of Vantoria is Quellmere")])
    items, o, llm = run(index, settings, [bad, bad, good, critic("PASS"), writer("Quellmere [S1].")],
                        "What is the capital of Vantoria?")
    analyst_calls = [c for c in llm.calls if "ANALYST" in json.dumps(c["messages"])]
    assert [c["temperature"] for c in analyst_calls] == [0.0, 0.0, 0.7]  # the role default, then sampled
    assert o.last_run["resampled"] == 1 and items[0]["schema_object"]["status"] == "ANSWERED"


def test_repeat_temperature_zero_keeps_every_revision_greedy(index, settings):
    settings.reasoning.repeat_temperature = 0
    bad = analyst("Quellmere", [("capital", "official/atlas.md#0", "capital of Vantoria is Quellmere")])
    items, o, llm = run(index, settings, [bad, bad, bad], "What is the capital of Vantoria?")
    assert all(c["temperature"] == 0.0 for c in llm.calls) and "resampled" not in o.last_run
    assert items[0]["schema_object"]["status"] == "UNVERIFIED"


def test_max_iterations_bounds_the_gap_searches(index, settings):
    settings.reasoning.max_iterations = 2
    replies = [analyst("NOT FOUND", status="SEARCH_REQUIRED", queries=["glass exports"]),
               lambda m: analyst("NOT FOUND")]
    items, o, llm = run(index, settings, replies, "What does Vantoria export?")
    assert llm.calls[-1]["schema"]["properties"]["status"]["enum"] == ["DRAFT_READY"]
    assert items[0]["schema_object"]["status"] == "NOT_FOUND" and len(llm.calls) == 2


def test_a_search_that_finds_nothing_new_forces_a_draft(index, settings):
    replies = [analyst("NOT FOUND", status="SEARCH_REQUIRED", queries=["completely unrelated words xyzzy"]),
               analyst("NOT FOUND")]
    items, _, llm = run(index, settings, replies, "Who founded Zorblat?")
    assert llm.calls[1]["schema"]["properties"]["status"]["enum"] == ["DRAFT_READY"]
    assert items[0]["schema_object"]["status"] == "NOT_FOUND"


def test_strict_mode_never_shows_low_tiers_and_says_when_nothing_is_left(index, settings):
    replies = [lambda m: analyst("412", [("staff", label(m, "official/zorblat.md"), "employs 412 people")]),
               critic("PASS"), writer("412 [S1].")]
    items, _, llm = run(index, settings, replies, "How many people does Zorblat Industries employ?", mode="strict")
    assert "forum/" not in llm.calls[0]["messages"][-1]["content"]
    assert all(c["tier"] <= 2 for c in items[0]["schema_object"]["citations"])
    # a question only the forum answers: strict mode finds no allowed source and says so
    items, _, llm = run(index, settings, [], "forum user claims rumours", mode="strict")
    assert items[0]["schema_object"]["stop_reason"] == "no_valid_sources" and not llm.calls
    assert "tier <= 2" in items[0]["schema_object"]["error"]


def test_monitor_mode_states_the_disagreement_and_cites_both_sides(index, settings):
    replies = [
        lambda m: analyst("412 people", [("staff", label(m, "official/zorblat.md"), "employs 412 people")],
                          other_answer="5000 people",
                          other_claims=[("rumour", label(m, "forum/rumours.md"), "employs 5000 people")]),
        critic("PASS"),
        writer("Zorblat employs 412 people [S1]."),
    ]
    items, _, llm = run(index, settings, replies, "How many people does Zorblat Industries employ?", mode="monitor")
    prompt = llm.calls[0]["messages"][-1]["content"]
    assert "MORE CREDIBLE" in prompt and "LESS CREDIBLE" in prompt
    schema = items[0]["schema_object"]
    assert schema["conflict"]["disagree"] is True
    assert {c["tier"] for c in schema["citations"]} == {1, 5}
    text = items[0]["description"]
    assert "Sources disagree" in text and "412 people" in text and "5000 people" in text
    assert "forum/rumours.md" in text and "official/zorblat.md" in text


def test_an_ambiguous_question_returns_options_not_a_guess(index, settings):
    items, _, llm = run(index, settings, [{"question": "Do you mean the database or the satellite?"}],
                        "When was Orion released?")
    schema = items[0]["schema_object"]
    assert schema["status"] == "CLARIFICATION_NEEDED" and schema["ambiguity_type"] == "entity"
    assert sorted(o["path"] for o in schema["options"]) == ["official/orion_db.md", "official/orion_sat.md"]
    assert all(o["query"].startswith("When was Orion released (") for o in schema["options"])
    assert len(llm.calls) == 1 and not any("ANALYST" in c["messages"][0]["content"] for c in llm.calls)
    # naming the qualifier removes the ambiguity
    replies = [lambda m: analyst("2019", [("r", label(m, "official/orion_db.md"), "released in 2019")]),
               critic("PASS"), writer("2019 [S1].")]
    items, _, _ = run(index, settings, replies, "When was the Orion database released?")
    assert items[0]["schema_object"]["answer"] == "2019"


def test_errors_are_items_never_tracebacks(index, settings):
    items, _, _ = run(index, settings, [LLMTimeout("slow")], "What is the capital of Vantoria?")
    assert items[0]["schema_object"]["stop_reason"] == "llm_timeout" and items[0]["score"] == 0
    for bad in ["", "   ", "x" * 3000]:
        items, _, _ = run(index, settings, [], bad)
        assert items[0]["schema_object"]["stop_reason"] == "bad_input"
    items, _, _ = run(index, settings, [], "capital?", mode="fast")
    assert "unknown mode" in items[0]["schema_object"]["error"]
    items, _, _ = run(index, settings, ["not json", "still not json"], "What is the capital of Vantoria?")
    assert items[0]["schema_object"]["stop_reason"] == "analyst_failed"


def test_an_unexpected_exception_is_an_error_item(index, settings, monkeypatch):
    monkeypatch.setattr("ragix_core.research.orchestrator.DeepResearchOrchestrator._run",
                        lambda *a, **k: 1 / 0)
    items, _, _ = run(index, settings, [], "What is the capital of Vantoria?")
    assert items[0]["schema_object"]["stop_reason"] == "internal_error" and "ZeroDivisionError" in items[0]["description"]


def test_every_result_is_a_valid_item_list(index, settings):
    good, _, _ = run(index, settings, [lambda m: analyst("Quellmere", [("c", label(m, "official/vantoria.html"),
                                                                       "capital of Vantoria is Quellmere")]),
                                        critic("WARN"), writer("Quellmere [S1].")], "What is the capital of Vantoria?")
    assert validate_items(good) == good and good[0]["@type"] == "Item" and 0 <= good[0]["score"] <= 100
    assert set(good[0]) == {"@type", "url", "name", "site", "siteUrl", "score", "description", "schema_object"}
    for key in ("mode", "iterations", "sources_used", "confidence", "total_sources_analyzed", "citations"):
        assert key in good[0]["schema_object"]
    broken = json.loads(json.dumps(good))
    broken[0]["schema_object"]["citations"][0].pop("path")
    with pytest.raises(ItemSchemaError, match="path"):
        validate_items(broken)
    with pytest.raises(ItemSchemaError, match="score"):
        validate_items([{**good[0], "score": 120}])


def test_items_given_by_the_caller_are_filtered_and_used(index, settings):
    hit = index.search("capital of Vantoria", 1)[0]
    replies = [lambda m: analyst("Quellmere", [("c", label(m, "official/vantoria.html"), "Quellmere")]),
               critic("PASS"), writer("Quellmere [S1].")]
    llm = ScriptedLLM(replies)
    items = orch(index, settings, llm).run_research("What is the capital?", "strict", items=[hit])
    assert items[0]["schema_object"]["total_sources_analyzed"] == 1
    assert "official/zorblat.md" not in llm.calls[0]["messages"][-1]["content"]


def test_timeouts_come_from_the_config(index, settings):
    settings.reasoning.analyst_timeout = 11
    settings.reasoning.critic_timeout = 7
    replies = [lambda m: analyst("Quellmere", [("c", label(m, "official/vantoria.html"), "Quellmere")]),
               critic("PASS"), writer("Quellmere [S1].")]
    _, _, llm = run(index, settings, replies, "What is the capital of Vantoria?")
    assert [c["timeout"] for c in llm.calls[:2]] == [11, 7]


def test_logs_and_events_record_every_turn(index, settings, tmp_path):
    bus = EventBus()
    seen = []
    bus.subscribe(seen.append)
    replies = [lambda m: analyst("Quellmere", [("c", label(m, "official/vantoria.html"), "Quellmere")]),
               critic("PASS"), writer("Quellmere [S1].")]
    items, o, _ = run(index, settings, replies, "What is the capital of Vantoria?", bus=bus, session_id="q1")
    folder = index.location / "research" / "q1"
    names = sorted(p.name for p in folder.iterdir())
    assert names == ["iteration_0_search.json", "iteration_1_analyst.json", "iteration_1_critic.json",
                     "iteration_1_writer.json", "session_summary.json"]
    turn = json.loads((folder / "iteration_1_analyst.json").read_text())
    assert turn["agent"] == "analyst" and turn["input_prompt"][1]["content"].startswith("SOURCES:")
    summary = json.loads((folder / "session_summary.json").read_text())
    assert summary["final_status"] == "ANSWERED" and summary["metadata"]["citations"][0]["path"] == "official/vantoria.html"
    agents = [e.data["agent"] for e in seen if e.kind == EventKind.RESEARCH_AGENT]
    assert agents == ["analyst", "critic", "writer"] and any(e.kind == EventKind.RESEARCH_SEARCH for e in seen)
    assert items[0]["url"] == folder.resolve().as_uri()


def test_the_writers_text_is_dropped_when_it_cites_what_was_not_verified(index, settings):
    replies = [lambda m: analyst("Quellmere", [("c", label(m, "official/vantoria.html"), "Quellmere")]),
               critic("PASS"), writer("Quellmere [S1], as the atlas [S7] confirms.")]
    items, _, _ = run(index, settings, replies, "What is the capital of Vantoria?")
    text = items[0]["description"]
    assert text.startswith("**Answer:** Quellmere") and "atlas" not in text


def test_async_signature(index, settings):
    replies = [lambda m: analyst("NOT FOUND"), ]
    llm = ScriptedLLM(replies)
    items = asyncio.run(orch(index, settings, llm).arun_research("Who founded Zorblat?", "discovery"))
    assert items[0]["schema_object"]["status"] == "NOT_FOUND"


def test_temporal_context_limits_the_documents_and_is_told_to_the_analyst(index, settings):
    llm = ScriptedLLM([analyst("NOT FOUND")])
    items = orch(index, settings, llm).run_research("Zorblat Vantoria capital", "discovery",
                                                    temporal_context={"since": "2024-01-01", "until": "2024-12-31"})
    prompt = llm.calls[0]["messages"][-1]["content"]
    assert "official/zorblat.md" in prompt and "official/vantoria.html" not in prompt
    assert "dated from 2024-01-01 to 2024-12-31" in prompt
    assert items[0]["schema_object"]["status"] == "NOT_FOUND"


@pytest.mark.parametrize("with_tiers", [True, False])
def test_the_sources_list_names_what_is_known_of_each_source_and_nothing_unknown(index, settings, with_tiers):
    from ragix_core.config.research import ResearchSection

    replies = [lambda m: analyst("Quellmere", [("c", label(m, "official/vantoria.html"), "capital of Vantoria is Quellmere")]),
               critic("PASS"), lambda m: writer(f"The capital is Quellmere [{label_in(m, 'vantoria')}].")]
    items, _, _ = run(index, settings if with_tiers else ResearchSection(), replies, "What is the capital of Vantoria?")
    sources = items[0]["description"].split("**Sources**", 1)[1]
    line = next(s for s in sources.splitlines() if "official/vantoria.html" in s)
    if with_tiers:
        assert "official/vantoria.html (Registry, tier 1, official), " in line, line
    else:  # a collection without a sources file: no "unknown (tier ?, unknown)" on every line
        assert "official/vantoria.html, " in line and "unknown" not in line and "tier" not in line, line
