"""What a research run reads from the question (issue 40, item 4), through the orchestrator with a
scripted model: the mode and its reason, a stated time range filtering by document date, the
`reasoning.enabled` flag, and clarification when a question about changes gives no start."""

from __future__ import annotations

import json
import os
import datetime as dt

import pytest

from ragix_core.core.events import EventBus, EventKind
from ragix_core.research import DeepResearchOrchestrator, DocumentIndex
from ragix_core.research.time_range import parse_time_range

from .conftest import FILES, ScriptedLLM, analyst, critic, label, write_collection, writer

STAFF = "How many people does Zorblat Industries employ?"


@pytest.fixture
def dated_index(tmp_path):
    """The shared collection with fixed dates for the undated files (their mtime), so the years a
    run sees do not depend on when the test runs: zorblat 2024 (front matter), vantoria 2023 (meta),
    the rest 2025-06-01 (mtime)."""
    docs = write_collection(tmp_path / "docs")
    stamp = dt.datetime(2025, 6, 1, 12, tzinfo=dt.timezone.utc).timestamp()
    for rel in FILES:
        os.utime(docs / rel, (stamp, stamp))
    idx = DocumentIndex.open(docs)
    idx.update()
    yield idx
    idx.close()


def run(index, settings, replies, question, mode=None, **kw):
    llm = ScriptedLLM(replies)
    bus = EventBus()
    seen = []
    bus.subscribe(seen.append)
    o = DeepResearchOrchestrator(index, settings=settings, client=llm, bus=bus)
    items = o.run_research(question, mode, **kw)
    return items[0]["schema_object"], llm, seen


def staff_replies():
    return [lambda m: analyst("412", [("staff", label(m, "official/zorblat.md"), "employs 412 people")]),
            critic("PASS"), writer("412 [S1].")]


def test_a_mode_asked_in_the_question_is_used_and_said(dated_index, settings):
    schema, llm, seen = run(dated_index, settings, staff_replies(), "Only from official docs: " + STAFF)
    assert schema["mode"] == "strict" and "forum/" not in llm.calls[0]["messages"][-1]["content"]
    assert schema["mode_choice"]["source"] == "question" and "'only from official docs'" in schema["mode_choice"]["reason"].lower()
    first = next(e for e in seen if e.kind == EventKind.RESEARCH_SEARCH)  # in the trace: the run's first search
    assert first.data["mode"] == "strict" and first.data["mode_source"] == "question"

    schema, llm, _ = run(dated_index, settings, staff_replies(), "Compare what sources say: " + STAFF)
    assert schema["mode"] == "monitor" and "LESS CREDIBLE" in llm.calls[0]["messages"][-1]["content"]


def test_the_mode_flag_wins_over_the_question(dated_index, settings):
    schema, llm, _ = run(dated_index, settings, staff_replies(), "Only from official docs: " + STAFF, mode="discovery")
    assert schema["mode"] == "discovery" and schema["mode_choice"]["source"] == "flag"
    assert "forum/rumours.md" in llm.calls[0]["messages"][-1]["content"]


def test_no_mode_in_the_question_falls_back_to_the_config(dated_index, settings):
    settings.default_mode = "strict"
    schema, _, _ = run(dated_index, settings, staff_replies(), STAFF)
    assert schema["mode"] == "strict" and schema["mode_choice"]["source"] == "config"


@pytest.mark.parametrize("question, kept, dropped", [
    ("What is the capital of Vantoria, in documents from before 2024?", "official/vantoria.html", "official/zorblat.md"),
    ("Since 2024, what do the documents say about Zorblat Industries and Vantoria?", "official/zorblat.md",
     "official/vantoria.html"),
])
def test_a_time_range_in_the_question_filters_by_document_date(dated_index, settings, question, kept, dropped):
    schema, llm, seen = run(dated_index, settings, [analyst("NOT FOUND")], question)
    prompt = llm.calls[0]["messages"][-1]["content"]
    assert kept in prompt and dropped not in prompt
    found = parse_time_range(question)
    assert schema["time_range"]["source"] == "question"
    assert {k: schema["time_range"].get(k) for k in ("since", "until")} == {"since": found.since, "until": found.until}
    first = next(e for e in seen if e.kind == EventKind.RESEARCH_SEARCH)
    assert first.data["time_reason"].startswith("documents dated")


def test_explicit_dates_win_and_a_version_bound_keeps_documents_naming_no_version(dated_index, settings):
    schema, llm, _ = run(dated_index, settings, [analyst("NOT FOUND")],
                         "Since 2024, what is the capital of Vantoria?", temporal_context={"until": "2023-12-31"})
    assert schema["time_range"] == {"source": "flag", "until": "2023-12-31", "reason": "--since/--until were given"}
    assert "official/vantoria.html" in llm.calls[0]["messages"][-1]["content"]
    schema, llm, _ = run(dated_index, settings, [analyst("NOT FOUND")],
                         "What was the capital of Vantoria before version 3?")
    assert schema["time_range"]["versions"] == ["before version 3"]
    assert "documents whose path names a version < 3 (from 'before version 3'), and those naming none" \
        in schema["time_range"]["reason"]
    assert "official/vantoria.html" in llm.calls[0]["messages"][-1]["content"]  # its path names no version


def test_a_version_bound_in_the_question_filters_the_documents_whose_path_names_a_version(tmp_path, settings):
    notes = {"notes/2.39.0.txt": "Release 2.39.0. The open pack limit per repository is 64.",
             "notes/3.1.0.txt": "Release 3.1.0. The open pack limit per repository is 128.",
             "notes/v2/pack.md": "# Packs in v2\n\nThe open pack limit per repository is 64 in every v2 release.",
             "guide/packs.md": "# Packs\n\nThe open pack limit per repository is set in the configuration."}
    docs = write_collection(tmp_path / "docs", notes)
    idx = DocumentIndex.open(docs)
    idx.update()
    try:
        for question, kept, dropped in [
            ("What was the open pack limit per repository before version 3?",
             ["notes/2.39.0.txt", "notes/v2/pack.md", "guide/packs.md"], ["notes/3.1.0.txt"]),
            ("What is the open pack limit per repository since version 3.1?",
             ["notes/3.1.0.txt", "guide/packs.md"], ["notes/2.39.0.txt", "notes/v2/pack.md"])]:
            schema, llm, _ = run(idx, settings, [analyst("NOT FOUND")], question)
            prompt = llm.calls[0]["messages"][-1]["content"]
            assert all(p in prompt for p in kept) and not any(p in prompt for p in dropped), (question, prompt)
    finally:
        idx.close()


@pytest.mark.parametrize("path, version", [("RelNotes/2.40.0.txt", (2, 40, 0)), ("docs/v3/guide.md", (3,)),
                                           ("python-3.11/a.html", (3, 11)), ("chapter1/x.md", None),
                                           ("2023/news.md", None), ("libv4l/readme", None)])
def test_the_version_a_path_names(path, version):
    from ragix_core.research.time_range import path_version

    assert path_version(path) == version


def test_reasoning_disabled_returns_the_search_results_and_asks_no_model(dated_index, settings):
    settings.reasoning.enabled = False
    schema, llm, _ = run(dated_index, settings, [], STAFF)
    assert not llm.calls
    assert (schema["status"], schema["stop_reason"], schema["@type"]) == ("SEARCH_ONLY", "reasoning_disabled",
                                                                        "ResearchSearchResults")
    paths = [r["path"] for r in schema["results"]]
    assert paths and "official/zorblat.md" in paths
    assert all(r["date"] and r["source"] for r in schema["results"])


@pytest.mark.parametrize("question", [
    "What changed at Zorblat Industries?",
    "What's new at Zorblat Industries?",
    "Recent changes to Zorblat Industries staff?",
])
def test_a_question_about_changes_without_a_start_offers_the_periods(dated_index, settings, question):
    schema, llm, _ = run(dated_index, settings, [{"question": "Since when?"}], question)
    assert schema["status"] == "CLARIFICATION_NEEDED" and schema["ambiguity_type"] == "time"
    assert [o["since"] for o in schema["options"]] == ["2024-01-01", "2025-01-01"]
    assert len(llm.calls) == 1  # the clarifier phrased the question; no analyst ran
    # Each option is the question again with its start written in: asked as is, it is no longer ambiguous.
    option = schema["options"][0]["query"]
    assert parse_time_range(option).since == "2024-01-01"
    schema, llm, _ = run(dated_index, settings, [analyst("NOT FOUND")], option)
    assert schema["status"] == "NOT_FOUND" and schema["time_range"]["since"] == "2024-01-01"


@pytest.mark.parametrize("question", [
    STAFF,                                                # a state, not a change
    "What is the latest headcount of Zorblat Industries?",  # the newest document answers it
    "What changed at Zorblat Industries since 2024?",     # the start is given
])
def test_no_time_clarification_when_the_question_is_not_ambiguous_in_time(dated_index, settings, question):
    schema, _, _ = run(dated_index, settings, [analyst("NOT FOUND")], question)
    assert schema["status"] == "NOT_FOUND"


def test_cli_says_which_mode_and_dates_it_chose(dated_index, settings, tmp_path, monkeypatch):
    import yaml
    from typer.testing import CliRunner

    from ragix_core.cli import app
    from .conftest import TIERS

    llm = ScriptedLLM(staff_replies())
    monkeypatch.setattr("ragix_core.llm.roles.build_client", lambda s: llm)
    monkeypatch.setenv("RAGIX_HOME", str(tmp_path / "home"))
    sources = tmp_path / "tiers.yaml"
    sources.write_text(yaml.safe_dump(TIERS))
    r = CliRunner().invoke(app, ["research", "Only from official docs, since 2024: " + STAFF, "--docs",
                                 str(dated_index.docs_dir), "--sources", str(sources)], env={"COLUMNS": "300"})
    assert r.exit_code == 0, r.output
    text = " ".join(r.output.split())
    assert "mode strict: the question says 'Only from official docs'" in text
    assert "Dates: documents dated since 2024-01-01 (from 'since 2024')" in text


def _cli(dated_index, tmp_path, monkeypatch, replies, *args, terminal=False, input=None):
    import yaml
    from typer.testing import CliRunner

    from ragix_core.cli import app
    from .conftest import TIERS

    llm = ScriptedLLM(replies)
    monkeypatch.setattr("ragix_core.llm.roles.build_client", lambda s: llm)
    monkeypatch.setattr("ragix_core.cli.research_cmd._at_a_terminal", lambda: terminal)
    monkeypatch.setenv("RAGIX_HOME", str(tmp_path / "home"))
    sources = tmp_path / "tiers.yaml"
    sources.write_text(yaml.safe_dump(TIERS))
    r = CliRunner().invoke(app, ["research", "What changed at Zorblat Industries?", "--docs",
                                 str(dated_index.docs_dir), "--sources", str(sources), *args],
                           env={"COLUMNS": "300"}, input=input)
    return r, llm


def test_choose_researches_the_chosen_reading_of_an_ambiguous_question(dated_index, settings, tmp_path, monkeypatch):
    r, llm = _cli(dated_index, tmp_path, monkeypatch, [{"question": "Since when?"}, analyst("NOT FOUND")],
                  "--choose", "2", "--json")
    schema = json.loads(r.stdout)[0]["schema_object"]
    assert schema["status"] == "NOT_FOUND" and schema["time_range"]["since"] == "2025-01-01", r.output
    assert "(since 2025-01-01)" in llm.calls[-1]["messages"][-1]["content"]  # the analyst was asked the reading


def test_choose_out_of_range_is_a_usage_error_naming_the_readings(dated_index, settings, tmp_path, monkeypatch):
    r, _ = _cli(dated_index, tmp_path, monkeypatch, [{"question": "Since when?"}], "--choose", "5")
    assert r.exit_code == 2 and "--choose 5: the question has 2 readings (1 to 2)" in " ".join(r.output.split())


def test_at_a_terminal_the_user_picks_a_reading_and_it_is_researched(dated_index, settings, tmp_path, monkeypatch):
    r, llm = _cli(dated_index, tmp_path, monkeypatch, [{"question": "Since when?"}, analyst("NOT FOUND")],
                  terminal=True, input="9\n1\n")
    text = " ".join(r.output.split())
    assert "Since when?" in text and "type a number from 1 to 2" in text  # the bad reply is asked again
    assert "researching: What changed at Zorblat Industries (since 2024-01-01)" in text, text
    assert r.exit_code == 1 and len(llm.calls) == 2  # researched, not found in the scripted documents


def test_off_a_terminal_the_readings_are_listed_and_nothing_is_asked(dated_index, settings, tmp_path, monkeypatch):
    r, llm = _cli(dated_index, tmp_path, monkeypatch, [{"question": "Since when?"}], input="1\n")
    assert r.exit_code == 1 and len(llm.calls) == 1 and "Clarification needed" in r.output
    assert "researching:" not in r.output
