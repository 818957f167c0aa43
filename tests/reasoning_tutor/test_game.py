"""The engine through the shared runtime (run_goal), with a scripted player standing in for the model."""

import json
import re

import pytest

from ragix_core import prompts
from ragix_core.core.events import EventBus, EventKind
from ragix_core.reasoning_tutor.graph import ProofGraph
from ragix_core.runtime.run import run_goal
from tests.reasoning_v30.test_agent_fns import ScriptedLLM

GOAL = "How many lines does README.md have?"
ACCEPT = {"tutor": {"accept": ['line_count("README.md", ?n)']}}
WIN = [
    {"move": "PROPOSE", "intent": "count", "command": "wc -l README.md", "mode": "read"},
    {"move": "RESPOND", "answer": "README.md has 3 lines.",
     "claims": [{"predicate": "line_count", "args": ["README.md", "3"]}]},
]


def play(project, replies, meta=ACCEPT, **kw):
    llm = ScriptedLLM(replies)
    bus = EventBus()
    events = []
    bus.subscribe(events.append)
    result = run_goal(GOAL, cwd=project, strategy="tutor", client_factory=lambda s: llm, meta=meta, events=bus, **kw)
    return result, events, llm


def test_a_won_game_is_a_success_with_evidence_events_and_a_replayable_graph(project):
    result, events, llm = play(project, WIN)
    state = result.state
    assert state.stop_reason == "success" and state.final_answer == "README.md has 3 lines."
    report = state.meta["tutor"]
    assert report["won"] and report["turns"] == 2 and report["score"] > 0
    assert report["answer_drafted"] is True  # "README.md has 3 lines." is the tutor's rendering of the fact
    assert [m["kind"] for m in report["moves"]] == ["executed", "won"]
    assert [s.tool_call.args["command"] for s in state.executed_steps] == ["wc -l README.md"]
    kinds = [e.kind for e in events]
    assert kinds.count(EventKind.MOVE) == 2 and kinds.count(EventKind.VERDICT) == 2
    assert any(e.kind == EventKind.TOOL_CALL and "wc" in e.data.get("command", "") for e in events)
    # The log on disk replays into the graph the run reported; every truth traces back to an observation.
    replayed = ProofGraph.replay(report["graph_log"])
    exported = ProofGraph.from_json(report["graph"])
    assert replayed.edges == exported.edges and list(replayed.nodes) == list(exported.nodes)
    truths = report["graph"]["truths"]
    assert truths and all(t["grounded"] for t in truths)
    assert result.usage["llm_calls"] == 2
    # The player's schema went to the backend on every call.
    assert all(call["schema"] and "anyOf" in call["schema"] for call in llm.calls)


# Without obligations the first command's short output is cross-checked by a command written another way
# (command_turn.py) before the tutor suggests an answer.
WIN_FREE = [WIN[0], "```sh\ncat README.md | wc -l\n```", WIN[1]]

LOST = [WIN[0], {"move": "RESPOND", "answer": "README.md has 12 lines.",
                 "claims": [{"predicate": "line_count", "args": ["README.md", "12"]}]}]


@pytest.mark.parametrize("replies", [WIN, LOST], ids=["won", "refuted-then-out-of-turns"])
def test_the_graph_redrawn_from_the_trace_read_back_is_the_one_the_engine_exports(project, replies):
    # `ragix serve` exports a past run's proof graph from its trace alone, as `ragix tutor --export-mermaid`
    # exports it from the report of the run it just played
    from ragix_core.memory.traces import read_trace
    from ragix_core.reasoning_tutor.graph import graph_from_events

    result, events, _ = play(project, replies, meta={"tutor": {**ACCEPT["tutor"], "max_turns": 2}})
    exported = ProofGraph.from_json(result.state.meta["tutor"]["graph"]).to_mermaid()
    traced = read_trace(result.trace_path)
    redrawn = graph_from_events(record.get("data") for record in traced)
    assert redrawn.to_mermaid() == exported
    assert graph_from_events(e.data for e in events).to_mermaid() == exported  # the live events draw it too
    assert "wc -l README.md" in exported
    assert (":::claim_refuted" in exported, ":::claim_validated" in exported) == ((True, False) if replies is LOST
                                                                                 else (False, True))
    # what the events carry is the drawing, not the observations' output (that stays in the graph log)
    assert all("data" not in change.get("node", {}) for r in traced for change in r["data"].get("graph", []))


def test_a_trace_that_does_not_redraw_a_graph_says_so():
    from ragix_core.reasoning_tutor.graph import GraphLogError, graph_from_events

    assert graph_from_events([{"graph": "x"}, "garbage", {}, {"graph": []}]) is None  # records are untrusted
    node = {"op": "node", "node": {"id": "A1", "kind": "action", "label": "ls"}}
    assert list(graph_from_events([{"graph": [node]}]).nodes) == ["A1"]
    with pytest.raises(GraphLogError, match="event 2: graph change 1: cannot replay 'edge' record"):
        graph_from_events([{"graph": [node]}, {"graph": [{"op": "edge", "edge": {"src": "A1", "dst": "O9",
                                                                                  "kind": "derives"}}]}])
    with pytest.raises(GraphLogError, match="event 1: graph change 1 is not an object"):
        graph_from_events([{"graph": ["A1"]}])


def test_running_out_of_turns_gives_the_tutors_summary_not_the_players_words(project):
    replies = [WIN[0], {"move": "RESPOND", "answer": "README.md has 12 lines.", "claims": []}]
    result, _, _ = play(project, replies, meta={"tutor": {**ACCEPT["tutor"], "max_turns": 2}})
    state = result.state
    assert state.stop_reason == "max_turns"
    assert state.final_answer.startswith("No answer was proven") and "12" not in state.final_answer.split("rejected")[0]
    assert "12" in state.last_error


def test_a_player_that_cannot_produce_a_move_ends_with_a_named_stop(project):
    result, _, _ = play(project, ["not json", "still not json"])
    assert result.state.stop_reason == "move_generation_failed"
    assert result.state.final_answer.startswith("No answer was proven")


def test_without_acceptance_criteria_one_validated_truth_is_the_bar(project):
    result, _, _ = play(project, WIN_FREE, meta=None)
    assert result.state.stop_reason == "success"


@pytest.mark.parametrize("meta,fragment", [
    ({"tutor": {"accept": ["line_count(README.md"]}}, "acceptance criterion"),
    ({"tutor": {"max_turns": 0}}, "max_turns"),
    ({"tutor": {"truths_before_write": -1}}, "truths_before_write"),
])
def test_bad_options_end_the_run_with_a_message(project, meta, fragment):
    result, _, llm = play(project, [], meta=meta)
    assert result.state.stop_reason == "bad_options" and fragment in result.state.last_error
    assert llm.calls == []


def test_writes_need_yes_and_the_write_capable_profile(project):
    replies = [
        {"move": "PROPOSE", "intent": "see", "command": "cat tmp/cache.tmp", "mode": "read"},
        {"move": "ASSERT", "claim": {"predicate": "contains", "args": ["tmp/cache.tmp", "scratch"]}},
        {"move": "PROPOSE", "intent": "clean", "command": "rm tmp/cache.tmp", "mode": "write"},
    ]
    meta = {"tutor": {"truths_before_write": 1, "max_turns": 3, "accept": ['contains("tmp/cache.tmp", ?t)']}}
    result, _, _ = play(project, list(replies), meta=meta)
    assert result.state.meta["tutor"]["moves"][2]["kind"] == "policy"
    assert (project / "tmp/cache.tmp").exists()
    result, _, _ = play(project, list(replies), meta=meta, assume_yes=True)
    assert result.state.meta["tutor"]["moves"][2]["kind"] == "executed"
    assert not (project / "tmp/cache.tmp").exists()


def test_the_same_moves_and_outputs_give_the_same_verdicts_and_graph(project, tmp_path):
    """The tutor is deterministic: no model call, no clock, no randomness in a verdict."""
    import shutil

    copy = tmp_path / "copy"
    shutil.copytree(project, copy)
    a, _, _ = play(project, list(WIN))
    b, _, _ = play(copy, list(WIN))

    def strip(graph):
        return json.dumps({k: v for k, v in graph.items() if k != "log"}, sort_keys=True)

    assert a.state.meta["tutor"]["moves"] == b.state.meta["tutor"]["moves"]
    assert strip(a.state.meta["tutor"]["graph"]) == strip(b.state.meta["tutor"]["graph"])


@pytest.mark.parametrize("name", ["tutor_player", "tutor_state"])
def test_prompts_put_fixed_text_first(name):
    """The player prompt is the same for the whole run (the cached prefix); the state prompt's values
    come after its headings. No value may precede the game's rules."""
    text = prompts.load(name)
    first = re.search(r"\{\{", text)
    assert first is not None
    if name == "tutor_player":
        names = re.findall(r"\{\{\s*(\w+)\s*\}\}", text)
        assert names[:2] == ["tools", "predicates"] and text.index("{{goal}}") > 0.8 * len(text)


def test_every_move_rejected_as_a_repetition_is_named_in_the_next_prompts(project):
    # Measured (issue 34): on an unseen task the player proposed the same `ls` six turns running. A
    # repeated PROPOSE now makes the next turn a free-text command (test_command_turn.py); the JSON
    # prompts still name every move rejected as a repetition, and the draw after one is sampled.
    ls = {"move": "PROPOSE", "intent": "list", "command": "ls", "mode": "read"}
    ask = {"move": "ASK", "question": {"predicate": "line_count", "args": ["README.md", "?n"]}}
    result, _, llm = play(project, [ls, ask, ask, ls, "```sh\nwc -l README.md\n```", *WIN[1:]])
    assert [m["kind"] for m in result.state.meta["tutor"]["moves"]] == [
        "executed", "asked", "repetition", "repetition", "executed", "won"]
    banned = [c["messages"][-1]["content"].split("never propose these again): ")[1].split("\n")[0]
              for c in llm.calls if c["schema"]]
    assert banned[:3] == ["(none)"] * 3
    assert "ASK" in banned[3] and " ls" not in banned[3], banned
    assert "ASK" in banned[4] and " ls" in banned[4], banned  # both, not only the latest
    assert llm.calls[3]["temperature"] == 0.6  # sampled after the rejected ASK
    assert llm.calls[4]["schema"] is None and llm.calls[4]["temperature"] == 0.6  # the command turn
    assert result.state.stop_reason == "success"
