"""The state machine on a scripted client: when it decomposes, what it prunes, reviews, collapses,
rebranches, and how every bound (depth, loops, tokens, peer calls, concurrency) holds."""

from __future__ import annotations

import threading
import time

import pytest

from ragix_core.core.events import EventKind
from ragix_core.reasoning_slim import NodeState
from tests.reasoning_slim.fakes import ScriptedClient, reasoner

Q = "In a year where Tuesday is January 1st, name the weekday of February 20."
S1 = "How many days are there from January 1 to February 20?"
S2 = "What weekday is 50 days after a Tuesday?"
OFF = "What is the capital of France?"


def split_client(**kw):
    args = dict(answers={Q: ["Monday", "Friday", "Sunday", "Monday"], S1: ["50"], S2: ["Wednesday"]},
                splits={Q: [[S1, S2, OFF]]}, merges={Q: ["Wednesday"]})
    args.update(kw)
    return ScriptedClient(**args)


def test_agreeing_samples_answer_directly_and_stop_at_quorum():
    client = ScriptedClient({Q: ["Wednesday"]})
    result = reasoner(client, k_entropy_samples=4, quorum=2).solve_sync(Q)
    assert result.final_answer == "Wednesday" and result.stop_reason == "success"
    assert client.kinds() == ["solve", "solve"]  # quorum of 2 reached: no third draw, no split
    assert client.calls[0]["temperature"] == 0.0 and client.calls[1]["temperature"] > 0
    assert not result.metrics.decomposed and result.metrics.nodes == 1
    assert result.root.history == ["new", "normalize", "solve", "done"]


def test_disagreement_decomposes_prunes_and_collapses():
    client = split_client()
    result = reasoner(client, k_entropy_samples=3, max_depth=2).solve_sync(Q)
    root = result.root
    assert root.entropy.total >= 0.5 and result.metrics.decomposed
    assert result.final_answer == "Wednesday"
    assert [c.question for c in root.children] == [S1, S2, OFF]
    off = root.children[2]
    assert off.state is NodeState.PRUNED and off.tokens == 0
    assert OFF not in [c["question"] for c in client.calls]  # pruned before any call
    collapse = [c for c in client.calls if c["kind"] == "collapse"][0]
    assert f"{S1} -> 50" in collapse["prompt"] and f"{S2} -> Wednesday" in collapse["prompt"]
    assert OFF not in collapse["prompt"]
    assert root.collapses[-1]["accepted"] and root.collapses[-1]["reduction"] >= 0.05
    assert root.history == ["new", "normalize", "solve", "decompose", "pre_review", "collapse", "done"]
    assert result.metrics.pruned == 1 and result.metrics.max_depth_reached == 1
    assert result.metrics.total_tokens == sum(n.tokens for n in result.tree) == 20 * len(client.calls)


def test_collapse_that_does_not_contract_rebranches_then_keeps_the_direct_answer():
    merges = ["Monday", "Friday", "Sunday"]  # the merge disagrees with itself as much as the direct samples
    client = split_client(merges={Q: merges}, splits={Q: [[S1, S2], [S2, S1]]})
    result = reasoner(client, k_entropy_samples=3, max_rebranch_attempts=1, max_depth=1).solve_sync(Q)
    root = result.root
    assert [c["kind"] for c in client.calls].count("decompose") == 2  # first split + one rebranch
    second = [c for c in client.calls if c["kind"] == "decompose"][1]
    assert "propose different sub-questions" in second["prompt"] and S1 in second["prompt"]
    assert [r["accepted"] for r in root.collapses] == [False, False]
    assert result.final_answer == "Monday"  # the direct majority (first drawn of the largest cluster)
    assert result.metrics.rebranches == 1 and result.metrics.loops == 2
    assert "kept direct answer" in root.outcome


def test_max_depth_zero_never_decomposes():
    client = split_client()
    result = reasoner(client, k_entropy_samples=3, max_depth=0).solve_sync(Q)
    assert "decompose" not in client.kinds() and not result.metrics.decomposed


def test_max_loops_bounds_decompositions_over_the_whole_tree():
    client = split_client(answers={Q: ["a", "b", "c"], S1: ["x", "y", "z"], S2: ["p", "q", "r"]},
                          splits={Q: [[S1, S2]], S1: [[S1 + " part one?", S1 + " part two?"]],
                                  S2: [[S2 + " part one?", S2 + " part two?"]]})
    result = reasoner(client, k_entropy_samples=3, max_depth=3, max_loops=2, max_rebranch_attempts=0).solve_sync(Q)
    assert client.kinds().count("decompose") == 2 and result.metrics.loops == 2


def test_global_token_budget_is_respected():
    client = split_client(tokens=100)  # 200 tokens a call
    result = reasoner(client, k_entropy_samples=3, max_global_tokens=500).solve_sync(Q)
    # calls are refused once 500 are spent: at most one call overshoots
    assert result.metrics.total_tokens <= 500 + 200
    assert len(client.calls) == 3


def test_branch_budget_limits_one_child_subtree():
    client = split_client(answers={Q: ["a", "b", "c"], S1: ["1", "2", "3"], S2: ["Wednesday"]}, tokens=50)
    result = reasoner(client, k_entropy_samples=3, max_depth=1, max_branch_tokens=100,
                      max_rebranch_attempts=0).solve_sync(Q)
    s1 = result.root.children[0]
    assert s1.tokens == 100  # one 100-token call, then its branch is spent
    assert [c["question"] for c in client.calls].count(S1) == 1


def test_peer_rejection_excludes_a_child_from_the_collapse():
    peer = ScriptedClient(peer=lambda sub: 0.1 if sub == S1 else 0.9)
    client = split_client()
    result = reasoner(client, peer_client=peer, k_entropy_samples=3, peer_review=True).solve_sync(Q)
    s1, s2 = result.root.children[:2]
    assert s1.peer["verdict"] == "reject" and s2.peer["verdict"] == "approved"
    collapse = [c for c in client.calls if c["kind"] == "collapse"][0]
    assert S1 not in collapse["prompt"] and S2 in collapse["prompt"]
    assert result.metrics.peer_reviewed == 2 and result.metrics.peer_approved == 1
    assert peer.kinds() == ["peer", "peer"] and "peer" not in client.kinds()  # the peer role's own model
    assert "peer_review" in result.root.history


def test_peer_calls_are_capped():
    peer = ScriptedClient(peer=lambda sub: 0.9)
    result = reasoner(split_client(), peer_client=peer, k_entropy_samples=3, peer_review=True,
                      max_peer_calls=1).solve_sync(Q)
    assert len(peer.calls) == 1
    assert result.root.children[1].peer == {"verdict": None, "skipped": "max_peer_calls reached"}


def test_ambiguous_root_asks_for_clarification_instead_of_guessing():
    q = "How long is the trip from Paris to Lyon?"
    client = ScriptedClient({q: ["2 hours", "465 km", "5 hours"]},
                            readings={q: ["the travel time by train", "the distance by road in kilometres",
                                          "the driving time by car"]})
    result = reasoner(client, k_entropy_samples=3, clarify=True).solve_sync(q)
    assert result.stop_reason == "clarification_needed" and not result.ok
    readings = [i["reading"] for i in result.clarification["interpretations"]]
    assert "the travel time by train" in readings and "the distance by road in kilometres" in readings
    assert "more than one way" in result.final_answer
    assert "decompose" not in client.kinds()
    assert result.to_dict()["clarification"]["interpretations"]


def test_same_reading_different_answers_is_not_ambiguity():
    client = ScriptedClient({Q: ["Monday", "Friday", "Sunday"]}, readings={Q: ["which weekday February 20 is"]},
                            merges={Q: ["Wednesday"]})
    result = reasoner(client, k_entropy_samples=3, clarify=True).solve_sync(Q)
    assert result.clarification is None and result.stop_reason == "success"


def test_invalid_replies_end_with_a_named_stop_not_a_traceback():
    client = ScriptedClient(invalid=[Q])
    result = reasoner(client, k_entropy_samples=2).solve_sync(Q)
    assert result.stop_reason == "no_answer" and result.root.state is NodeState.FAILED
    assert len(client.calls) == 4  # 2 draws, each with its one repair


def test_backend_down_is_a_named_stop():
    result = reasoner(ScriptedClient(down=True)).solve_sync(Q)
    assert result.stop_reason == "llm_unavailable" and result.final_answer == ""


@pytest.mark.parametrize("bad", ["", "   \n\t ", None, 42])
def test_bad_questions_are_clear_errors(bad):
    with pytest.raises(ValueError, match="question"):
        reasoner(ScriptedClient()).solve_sync(bad)


def test_concurrent_branches_are_bounded_by_the_slots():
    inflight, peak = [0], [0]
    lock = threading.Lock()

    class Slow(ScriptedClient):
        def complete(self, *a, **kw):
            with lock:
                inflight[0] += 1
                peak[0] = max(peak[0], inflight[0])
            time.sleep(0.02)
            try:
                return super().complete(*a, **kw)
            finally:
                with lock:
                    inflight[0] -= 1

    subs = [f"{S1} part {i}?" for i in range(3)]
    client = Slow({Q: ["a", "b", "c"], **{s: ["50"] for s in subs}}, splits={Q: [subs]}, merges={Q: ["x"]})
    reasoner(client, k_entropy_samples=3, max_concurrent_branches=2).solve_sync(Q)
    assert peak[0] == 2  # three children ran side by side, never more than two calls at once
    inflight[0] = peak[0] = 0
    reasoner(Slow({Q: ["a", "b", "c"]}, splits={Q: [subs]}), k_entropy_samples=3,
             max_concurrent_branches=1).solve_sync(Q)
    assert peak[0] == 1


def test_per_call_timeout_reaches_the_client():
    client = ScriptedClient({Q: ["x"]})
    reasoner(client, timeout_sec=7).solve_sync(Q)
    assert {c["timeout"] for c in client.calls} == {7}


def test_events_trace_every_transition_on_the_bus():
    client = split_client()
    engine = reasoner(client, k_entropy_samples=3)
    seen = []
    engine.bus.subscribe(lambda e: seen.append(e) if e.kind == EventKind.TREE_NODE else None)
    result = engine.solve_sync(Q)
    assert [e.data for e in seen] == result.events
    states = [(e["node_id"], e["state"]) for e in result.events]
    assert (0, "decompose") in states and (3, "pruned") in states and states[-1] == (0, "done")
    assert result.export_trace()["events"] == result.events


def test_chat_passes_earlier_turns_as_context():
    from ragix_core.reasoning_slim import ChatSession

    client = ScriptedClient({"What day is 3 March 2025?": ["Monday"], "And the day after?": ["Tuesday"]})
    chat = ChatSession(reasoner(client, k_entropy_samples=2))
    chat.ask("What day is 3 March 2025?")
    second = chat.ask("And the day after?")
    assert second.final_answer == "Tuesday"
    last = client.calls[-1]["prompt"]
    assert "Conversation so far" in last and "Q: What day is 3 March 2025?\nA: Monday" in last
    assert "Conversation so far" not in client.calls[0]["prompt"]


def test_answer_only_samples_ask_for_no_reasoning():
    client = ScriptedClient({Q: ["Wednesday"]})
    result = reasoner(client, k_entropy_samples=2, reasoning=False).solve_sync(Q)
    assert result.final_answer == "Wednesday"
    assert all('Put only the final answer in "answer"' in c["prompt"] and '"reasoning"' not in c["prompt"]
               for c in client.calls)
    with_cot = ScriptedClient({Q: ["Wednesday"]})
    reasoner(with_cot, k_entropy_samples=2).solve_sync(Q)
    assert 'Think step by step in "reasoning"' in with_cot.calls[0]["prompt"]


def test_a_number_is_a_valid_answer():
    client = ScriptedClient({Q: [42.0, 42]})  # JSON numbers, as the real model prefers for sums
    result = reasoner(client, k_entropy_samples=2, reasoning=False).solve_sync(Q)
    assert result.final_answer == "42" and result.root.entropy.model == 0.0


def test_the_tree_rebuilt_from_its_events_draws_the_same_mermaid():
    # A past run read from its trace has only its events: `ragix serve` draws its tree from them.
    from ragix_core.reasoning_slim.tree import to_mermaid, tree_from_events

    result = reasoner(split_client(), k_entropy_samples=3).solve_sync(Q)
    rebuilt = tree_from_events(result.events)
    assert [n.question for n in rebuilt.children] == [S1, S2, OFF]
    assert to_mermaid(rebuilt) == result.to_mermaid()
    assert tree_from_events([{"node_id": "x"}, "garbage"]) is None  # a trace's records are untrusted
