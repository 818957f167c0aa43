import pytest

from ragix_core.eval.harness import EvalOptions
from ragix_core.eval.learning import learning_curve
from ragix_core.eval.scenario import Scenario
from tests.eval.fakes import make_result


class Corpus:
    def __init__(self, root):
        self.lessons = []


def learning_runner(goal, *, corpus, **kw):
    """Fails a transfer task unless a lesson from a warm-up task is in its corpus; lessons cost fewer tokens."""
    if goal.startswith("warm"):
        corpus.lessons.append("wrong paths: search by name")
        return make_result("done")
    knows = bool(corpus.lessons)
    res = make_result("fixed" if knows else "failed", reflections=0 if knows else 2)
    res.usage = {"llm_calls": 2, "prompt_tokens": 50 if knows else 300, "completion_tokens": 10}
    return res


WARM = [Scenario(id="w1", input="warm: wrong path", category="learning_warmup")]
XFER = [Scenario(id=f"x{i}", input=f"transfer {i}", expected_patterns=["fixed"], category="learning_transfer")
        for i in range(3)]


def test_kept_corpus_beats_fresh_when_the_engine_learns(tmp_path):
    summary, results = learning_curve(WARM, XFER, learning_runner, EvalOptions(cwd=tmp_path), corpus_factory=Corpus)
    assert summary["keep"]["pass_rate"] == 1.0 and summary["fresh"]["pass_rate"] == 0.0
    assert summary["delta_pass_rate"] == 1.0
    assert summary["delta_total_tokens"] == 3 * (60 - 310)
    assert summary["warmup"]["runs"] == 1
    assert [r.category for r in results] == ["learning_warmup@keep"] + ["learning_transfer@keep"] * 3 + \
        ["learning_transfer@fresh"] * 3


def test_no_learning_shows_no_effect(tmp_path):
    def forgetful(goal, **kw):
        return make_result("fixed")

    summary, _ = learning_curve(WARM, XFER, forgetful, EvalOptions(cwd=tmp_path), corpus_factory=Corpus)
    assert summary["delta_pass_rate"] == 0.0 and summary["delta_total_tokens"] == 0


def test_overlapping_sets_rejected(tmp_path):
    with pytest.raises(ValueError, match="share scenario ids: x0"):
        learning_curve(XFER, XFER[:1], learning_runner, EvalOptions(cwd=tmp_path), corpus_factory=Corpus)
