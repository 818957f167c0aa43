"""The sampling module on fixed inputs: clusters, entropy, agreement, adaptive stopping, keys."""

import math

import pytest

from ragix_core.sampling import (
    StopSampling,
    adaptive_sample,
    agreement,
    cluster,
    cluster_by_similarity,
    entropy,
    normalize_answer,
    normalize_output,
    token_jaccard,
)


def test_entropy_and_agreement_on_fixed_clusters():
    same = cluster(["a", "a", "a", "a"], key=str)
    assert entropy(same) == 0.0 and agreement(same) == 1.0
    apart = cluster(["a", "b", "c", "d"], key=str)
    assert entropy(apart) == pytest.approx(1.0) and agreement(apart) == 0.25
    split = cluster(["a", "a", "b", "c"], key=str)
    expected = -(0.5 * math.log(0.5) + 2 * 0.25 * math.log(0.25)) / math.log(4)
    assert entropy(split) == pytest.approx(expected) and agreement(split) == 0.5
    assert [c.key for c in split] == ["a", "b", "c"]  # largest first, then draw order
    assert entropy(cluster([], key=str)) == 0.0 and entropy(cluster(["x"], key=str)) == 0.0


def test_adaptive_sampling_stops_at_the_quorum():
    outputs = ["12", "12", "13", "12"]
    run = adaptive_sample(lambda i: outputs[i], key=str, k_max=4, quorum=2)
    assert run.draws == 2 and run.stopped == "agreed" and run.best.key == "12"


def test_adaptive_sampling_goes_to_k_max_on_disagreement_and_skips_failures():
    outputs = ["1", None, "2", "3"]
    run = adaptive_sample(lambda i: outputs[i], key=str, k_max=4, quorum=2)
    assert run.draws == 4 and run.stopped == "budget" and len(run.samples) == 3
    assert run.entropy == pytest.approx(1.0) and run.summary() == "3 usable of 4 drawn, 1 agreed"


def test_a_draw_can_end_sampling():
    def draw(i):
        if i == 1:
            raise StopSampling()
        return "x"

    run = adaptive_sample(draw, key=str, k_max=5, quorum=3)
    assert run.draws == 1 and run.stopped == "exhausted" and run.best.size == 1


def test_outputs_agree_up_to_layout_not_order():
    assert normalize_output("  120 ./docs/guide.md\n\n 19 ./README.md  \n") == "120 docs/guide.md\n19 README.md"
    assert normalize_output("a\nb") != normalize_output("b\na")
    assert normalize_output("see ../x and ./y") == "see ../x and y"


def test_answers_agree_up_to_case_punctuation_and_number_format():
    assert normalize_answer("The file has 1,024 lines.") == normalize_answer("the file has 1024 lines")
    assert normalize_answer("3.0 MB") == normalize_answer("3 mb")
    assert normalize_answer("files 1,2") == "files 1 2"  # a list is not a thousands separator
    assert normalize_answer("8 ports") != normalize_answer("8080 ports")


def test_similarity_clustering_groups_paraphrases_and_splits_different_answers():
    answers = ["The largest file is docs/guide.md", "docs/guide.md is the largest file",
               "The largest file is README.md"]
    clusters = cluster_by_similarity(answers, str, token_jaccard, threshold=0.8)
    assert [c.size for c in clusters] == [2, 1]
    assert token_jaccard("", "") == 1.0 and token_jaccard("a b", "c d") == 0.0


def test_empty_samples_never_make_the_quorum_and_rank_below_any_evidence():
    # Two searches that found nothing and one that found a line: the line wins, and sampling did not
    # stop at the two empty ones.
    outputs = ["", "", "a.py:3: import store", "a.py:3: import store"]
    run = adaptive_sample(lambda i: outputs[i], key=str, k_max=4, quorum=2, empty=lambda s: s == "")
    assert run.draws == 4 and run.stopped == "agreed"
    assert run.best.key == "a.py:3: import store" and not run.best_is_empty
    assert [c.key for c in run.clusters] == ["a.py:3: import store", ""]


def test_a_single_finding_outranks_a_larger_empty_cluster():
    outputs = ["", "x", ""]
    run = adaptive_sample(lambda i: outputs[i], key=str, k_max=3, quorum=2, empty=lambda s: s == "")
    assert run.stopped == "budget" and run.best.key == "x" and run.best.size == 1


def test_all_empty_samples_go_to_k_max_and_say_so():
    run = adaptive_sample(lambda i: "", key=str, k_max=3, quorum=2, empty=lambda s: s == "")
    assert run.draws == 3 and run.stopped == "budget" and run.best_is_empty and run.best.size == 3
    # without the marker the same samples agree at once
    plain = adaptive_sample(lambda i: "", key=str, k_max=3, quorum=2)
    assert plain.draws == 2 and plain.stopped == "agreed" and not plain.best_is_empty


def test_empty_and_group_are_not_combined():
    with pytest.raises(ValueError, match="empty"):
        adaptive_sample(lambda i: "", key=str, k_max=2, group=lambda xs: cluster(xs, str), empty=lambda s: True)


def test_short_outputs_agree_by_their_numbers_else_by_their_lines_in_any_order():
    from ragix_core.sampling import short_output_key

    assert short_output_key("  42 src/main.c\n") == short_output_key("42\n")  # `wc -l FILE` and `wc -l < FILE`
    assert short_output_key("42\n") != short_output_key("41\n")
    assert short_output_key("file1.txt\n") != short_output_key("file2.txt\n")  # a 1 inside a name is no number
    assert short_output_key("./b.md\na.md\n") == short_output_key("a.md\nb.md\n")
