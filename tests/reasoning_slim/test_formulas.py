"""The documented formulas on fixed inputs: entropy components, similarity, relevance, verdicts, params."""

from __future__ import annotations

import math

import pytest

from ragix_core.reasoning_slim.entropy import W_MAX, node_entropy, structural_entropy
from ragix_core.reasoning_slim.params import PRESETS, ContractiveParams, preset
from ragix_core.reasoning_slim.relevance import RelevanceIndex
from ragix_core.reasoning_slim.review import peer_record, PeerReply, pre_review, rank_score, verdict_for
from ragix_core.reasoning_slim.tree import Node
from ragix_core.sampling import Cluster, adaptive_sample, cluster_by_similarity, sequence_similarity, token_jaccard


def clusters(*sizes):
    return [Cluster(f"k{i}", [f"k{i}"] * n) for i, n in enumerate(sizes)]


def test_entropy_components_on_fixed_inputs():
    q = "one two three four five six seven eight nine"  # 9 words
    rep = node_entropy(q, clusters(2, 1, 1))
    hm = -(0.5 * math.log(0.5) + 2 * 0.25 * math.log(0.25)) / math.log(4)  # 0.75
    hs = math.log(10) / math.log(1 + W_MAX)
    assert rep.model == pytest.approx(0.75) == pytest.approx(hm)
    assert rep.inconsistency == pytest.approx(0.5)
    assert rep.structural == pytest.approx(hs)
    assert rep.total == pytest.approx(0.6 * 0.75 + 0.25 * 0.5 + 0.15 * hs)
    assert (rep.samples, rep.clusters) == (4, 3)


def test_entropy_extremes():
    agree = node_entropy("a b", clusters(3))
    assert agree.model == 0 and agree.inconsistency == 0 and agree.total == pytest.approx(0.15 * agree.structural)
    nothing = node_entropy("a b", [])
    assert nothing.total == 1.0 and nothing.samples == 0
    assert structural_entropy("") == 0.0
    assert structural_entropy("w " * 500) == 1.0


def test_sequence_similarity_sees_order_that_jaccard_misses():
    a, b = "Lily is a knight and Logan is a knave", "Lily is a knave and Logan is a knight"
    assert token_jaccard(a, b) == 1.0
    assert sequence_similarity(a, b) < 1.0
    assert sequence_similarity("1,024", "1024") == 1.0
    assert sequence_similarity("Monday", "Tuesday") == 0.0


def test_adaptive_sample_stops_on_similar_quorum():
    answers = ["the answer is Monday", "Monday the answer is", "Friday"]
    sim = lambda a, b: 1.0 if set(a.split()) == set(b.split()) else 0.0  # noqa: E731
    run = adaptive_sample(lambda i: answers[i], key=str, k_max=3, quorum=2,
                          group=lambda xs: cluster_by_similarity(xs, str, sim, 0.5))
    assert run.draws == 2 and run.stopped == "agreed" and run.clusters[0].size == 2
    exact = adaptive_sample(lambda i: answers[i], key=str, k_max=3, quorum=2)
    assert exact.draws == 3 and exact.stopped == "budget"


def test_relevance_separates_on_and_off_topic_questions():
    index = RelevanceIndex("Charles is married to Grace. They have a child called Finn. Finn is married to Linda. "
                           "They have children called Kai and River. How is Charles related to River?")
    on = [index.relevance(q) for q in ("Who are the parents of River?", "How is Charles related to Finn?")]
    off = [index.relevance(q) for q in ("What is the boiling point of water?", "How many legs does a spider have?")]
    assert min(on) >= 0.15 > max(off)
    assert index.relevance(index.root) == 1.0
    assert index.relevance("") == 0.0 and index.relevance("the what how") == 0.0
    # FTS5 syntax in untrusted text is literal, not a query error
    assert 0.0 <= index.relevance('River" OR NEAR(* AND -Finn) "') <= 1.0


@pytest.mark.parametrize("score,verdict", [(1.0, "approved"), (0.6, "approved"), (0.59, "minor_revision"),
                                           (0.4, "minor_revision"), (0.39, "major_revision"), (0.3, "major_revision"),
                                           (0.29, "reject"), (0.0, "reject")])
def test_peer_verdicts_follow_the_spec_score_ranges(score, verdict):
    assert verdict_for(score) == verdict


def test_peer_record_uses_the_score_range_not_the_word():
    rec = peer_record(PeerReply(score=0.2, verdict="approved", suggestion=" redo "))
    assert rec["verdict"] == "reject" and rec["model_verdict"] == "approved" and rec["consistent"] is False
    assert rec["suggestion"] == "redo"


def test_pre_review_scores_and_rank():
    node = Node(id=1, depth=1, question="How many days are in February 2023?", answer="28",
                reasoning="February 2023 is not a leap year, so it has 28 days")
    node.relevance, node.answer_entropy = 0.5, 0.2
    r = pre_review(node)
    assert r["alignment"] == 0.5 and r["completeness"] == 1.0 and r["confidence"] == pytest.approx(0.8)
    assert r["coverage"] == 1.0  # days, february, 2023 all in the answer text
    assert r["score"] == pytest.approx((0.5 + 1 + 1 + 0.8) / 4)
    node.pre_review = r
    node.peer = {"score": 0.1, "verdict": "reject"}
    assert rank_score(node) == pytest.approx((r["score"] + 0.1) / 2)
    assert node.excluded
    assert pre_review(Node(id=2, depth=1, question="q?", answer="I don't know"))["completeness"] == 0.0


def test_params_defaults_are_the_spec_table():
    p = ContractiveParams()
    assert (p.max_depth, p.max_loops, p.max_global_tokens, p.max_branch_tokens, p.max_concurrent_branches) == \
        (4, 10, 64000, 16000, 4)
    assert (p.entropy_decompose_threshold, p.entropy_collapse_threshold, p.entropy_gamma_min_reduction,
            p.k_entropy_samples) == (0.5, 0.4, 0.05, 4)
    assert (p.min_relevance_threshold, p.max_rebranch_attempts, p.timeout_sec) == (0.15, 2, 120)


def test_presets_are_distinct_valid_parameter_sets():
    made = {name: preset(name) for name in ("factual", "complex", "math", "exploration", "fast", "deep")}
    assert set(made) == set(PRESETS)
    assert len({tuple(sorted(p.to_dict().items())) for p in made.values()}) == 6
    assert made["exploration"].entropy_decompose_threshold < made["factual"].entropy_decompose_threshold
    assert made["deep"].max_depth > made["fast"].max_depth
    assert preset("fast", max_depth=3).max_depth == 3


@pytest.mark.parametrize("bad", [dict(max_depth=-1), dict(entropy_decompose_threshold=1.5), dict(k_entropy_samples=0),
                                 dict(similarity="cosine"), dict(timeout_sec=0), dict(quorum=9)])
def test_bad_parameters_are_clear_errors(bad):
    with pytest.raises(ValueError, match="must"):
        ContractiveParams().with_overrides(**bad)


def test_unknown_names_are_errors():
    with pytest.raises(ValueError, match="unknown preset"):
        preset("turbo")
    with pytest.raises(ValueError, match="unknown ContractiveReasoner parameter"):
        ContractiveParams().with_overrides(depth=2)
