"""What REFLECT and PLAN see of past experience."""

from ragix_core.memory.experience import HybridExperienceCorpus
from ragix_core.memory.recall import SessionRecall
from ragix_core.core.types import ReasoningEvent


def ev(session, goal, **kw):
    return ReasoningEvent(timestamp="2026-11-20T10:00:00", session_id=session, event_type="execution", goal=goal, **kw)


def test_current_session_hidden_duplicates_dropped_outcome_shown(tmp_path):
    corpus = HybridExperienceCorpus(tmp_path / "g", tmp_path / "p")
    corpus.append(ev("old", "count markdown lines", step_description="wc on docs", outcome_status="success",
                     tool_input="find . -name '*.md' | xargs wc -l"))
    corpus.append(ev("now", "count markdown lines", error="cat: x.md: No such file"))
    text = SessionRecall(corpus, "now").search("count markdown lines", top_k=5)
    assert "No such file" not in text  # the run's own failure is not "past" experience
    assert text.count("goal=count markdown lines") == 1  # project copy only, global duplicate dropped
    assert "outcome: success" in text and "xargs wc -l" in text
    assert text.startswith("### Project experience")


def test_empty_corpus_gives_empty_text(tmp_path):
    corpus = HybridExperienceCorpus(tmp_path / "g", tmp_path / "p")
    assert SessionRecall(corpus, "s").search("anything") == ""
