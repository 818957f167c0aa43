"""Spec 000 §5 API: ranking, TTL, prune, text format, hybrid behaviour, failures."""

from __future__ import annotations

import errno
import json
import os
import subprocess
import sys

import pytest

from ragix_core.memory import jsonl_log
from ragix_core.reasoning_v30.config import ExperienceSection
from ragix_core.memory.experience import ExperienceCorpus, HybridExperienceCorpus
from ragix_core.core.types import ReasoningEvent

from .conftest import NOW, event


def test_spec_constructor_and_layout(tmp_path):
    exp = HybridExperienceCorpus(global_root=tmp_path / "global", project_root=tmp_path / "project")
    assert exp.global_corpus.events_path == tmp_path / "global" / "experience" / "events.jsonl"
    assert exp.project_corpus.events_path == tmp_path / "project" / "experience" / "events.jsonl"
    assert exp.global_corpus.max_age.days == 90 and exp.project_corpus.max_age.days == 30
    assert exp.search("anything") == ""


def test_reasoning_event_round_trip_and_text_block(tmp_path):
    corpus = ExperienceCorpus(tmp_path)
    ev = ReasoningEvent(timestamp="2026-11-26T10:00:00", session_id="s", event_type="reflection",
                        goal="find largest markdown file", error="wc: x.md: No such file",
                        llm_critique="quote paths with spaces", outcome_status="success", meta={"k": [1]})
    corpus.append(ev)
    hits = corpus.search_events("markdown", now=NOW)
    assert hits[0].reasoning_event() == ev
    assert hits[0].source == str(tmp_path)
    from ragix_core.memory.experience import format_block

    assert format_block([h.event for h in hits]) == (
        "[1] 2026-11-26T10:00:00 — goal=find largest markdown file\n"
        "    error: wc: x.md: No such file\n"
        "    critique: quote paths with spaces"
    )


def _order(corpus, query):
    return [h.event["goal"] for h in corpus.search_events(query, top_k=10, now=NOW)]


def test_recency_orders_equal_matches(tmp_path):
    corpus = ExperienceCorpus(tmp_path, max_age_days=90)
    corpus.append_many([event("build failed old", days_ago=60), event("build failed new", days_ago=1),
                        event("build failed mid", days_ago=30)])
    assert _order(corpus, "build failed") == ["build failed new", "build failed mid", "build failed old"]


def test_success_outweighs_recency_and_recovery_is_preferred(tmp_path):
    corpus = ExperienceCorpus(tmp_path, max_age_days=90)
    corpus.append_many([
        event("deploy tests", days_ago=0, outcome="failure"),
        event("deploy tests", days_ago=40, outcome="success"),
        event("deploy tests", days_ago=40, outcome="success", event_type="reflection"),
    ])
    hits = corpus.search_events("deploy tests", top_k=3, now=NOW)
    assert [(h.event["event_type"], h.event["outcome_status"]) for h in hits] == [
        ("reflection", "success"), ("execution", "success"), ("execution", "failure")]
    assert hits[0].score > hits[1].score > hits[2].score


def test_relevance_dominates_weighting(tmp_path):
    corpus = ExperienceCorpus(tmp_path)
    corpus.append_many([event("parse yaml config", days_ago=1, outcome="success"),
                        event("yaml config parser crashed on tabs", days_ago=80, error="yaml tabs",
                              outcome="failure")])
    assert _order(corpus, "yaml tabs crashed")[0] == "yaml config parser crashed on tabs"


def test_ttl_excludes_and_prune_removes(tmp_path):
    corpus = ExperienceCorpus(tmp_path, max_age_days=30)
    corpus.append_many([event("cache miss fresh", days_ago=2), event("cache miss stale", days_ago=45)])
    corpus.log.append({"timestamp": "not a date", "goal": "cache miss undated", "session_id": "s",
                       "event_type": "execution"})
    assert _order(corpus, "cache") == ["cache miss fresh"]
    assert corpus.count_expired(now=NOW) == 1
    assert corpus.prune(now=NOW) == 1
    goals = [r["goal"] for r in corpus.log]
    assert goals == ["cache miss fresh", "cache miss undated"]  # undated is kept, never searched
    stats = corpus.stats(now=NOW)
    assert stats["events"] == 2 and stats["expired"] == 0 and stats["undated"] == 1
    assert _order(corpus, "cache") == ["cache miss fresh"]


def test_prune_quarantines_corrupt_lines(tmp_path):
    corpus = ExperienceCorpus(tmp_path, max_age_days=30)
    corpus.log.append(event("ok", days_ago=1))
    with open(corpus.events_path, "ab") as f:
        f.write(b"corrupt line\n")
    assert corpus.prune(now=NOW) == 0
    assert corpus.log.quarantine_path.read_bytes() == b"corrupt line\n"
    assert corpus.stats(now=NOW)["skipped_lines"] == 0


def test_invalid_max_age_is_a_clear_error(tmp_path):
    with pytest.raises(ValueError, match="max_age_days"):
        ExperienceCorpus(tmp_path, max_age_days=0)


def test_hybrid_sections_and_sources(tmp_path):
    exp = HybridExperienceCorpus(tmp_path / "g", tmp_path / "p")
    exp.project_corpus.append(event("lint project code", days_ago=1, error="E501"))
    exp.global_corpus.append(event("lint global habit", days_ago=1, critique="run ruff first"))
    hits = exp.search_events("lint", now=NOW)
    assert [h.source for h in hits] == ["project", "global"]
    # The text block: project first, then global (spec 000 §5.2).
    assert exp.search("lint", now=NOW) == (
        "### Project experience\n"
        f"[1] {hits[0].event['timestamp']} — goal=lint project code\n"
        "    error: E501\n\n"
        "### Global experience\n"
        f"[1] {hits[1].event['timestamp']} — goal=lint global habit\n"
        "    critique: run ruff first"
    )


def test_same_root_is_written_once(tmp_path):
    exp = HybridExperienceCorpus(tmp_path / "same", tmp_path / "same")
    assert exp.append(event("x")) is True
    assert len(list(exp.project_corpus.log)) == 1


def test_full_disk_does_not_crash_the_engine(tmp_path, monkeypatch, capsys):
    exp = HybridExperienceCorpus(tmp_path / "g", tmp_path / "p")
    exp.append(event("before"))
    before = exp.project_corpus.events_path.read_bytes()

    def full(fd, data):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    with monkeypatch.context() as m:
        m.setattr(jsonl_log.os, "write", full)
        assert exp.append(event("during 1")) is False
        assert exp.append(event("during 2")) is False
    err = capsys.readouterr().err
    assert err.count("ENOSPC") == 2  # once per corpus file, not once per event
    assert len(exp.errors) == 4
    assert exp.project_corpus.events_path.read_bytes() == before
    assert exp.append(event("after")) is True


def test_from_config_uses_ragix_home_and_project_dir(tmp_path, ragix_home):
    exp = HybridExperienceCorpus.from_config(ExperienceSection(project_max_age_days=7), tmp_path / "proj")
    assert exp.global_corpus.root == ragix_home
    assert exp.project_corpus.root == tmp_path / "proj" / ".ragix"
    assert exp.project_corpus.max_age_days == 7
    custom = ExperienceSection(global_root=str(tmp_path / "elsewhere"), project_root=str(tmp_path / "abs"))
    exp = HybridExperienceCorpus.from_config(custom, tmp_path)
    assert exp.global_corpus.root == tmp_path / "elsewhere"
    assert exp.project_corpus.root == tmp_path / "abs"  # absolute project_root is used as is


def test_module_import_stays_light():
    code = ("import sys, ragix_core.memory.experience as e; "
            "print(sorted(m for m in ('sqlite3', 'pydantic', 'yaml', 'rich', 'typer') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert json.loads(out.stdout.replace("'", '"')) == []
