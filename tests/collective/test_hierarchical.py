"""The hierarchical strategy through run_goal: real graph workers on real tools, a scripted model.

A goal that asks one thing is one worker's, unchanged; a goal that asks several is split by the master,
each part answered by its own graph worker, all within one budget, and the answer says which part is which."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from ragix_core.cli import app
from ragix_core.collective.split import validate_parts
from ragix_core.config import parse_config
from ragix_core.core.events import EventKind
from ragix_core.llm.base import LLMBadOutput
from ragix_core.runtime.run import run_goal
from tests.kernels.audit.conftest import write
from tests.scripted_llm import ScriptedLLM

LINES_Q = "How many lines does docs/install.md have?"
NOTES_Q = "Which files are in notes?"
TWO_ASKS = "How many lines does docs/install.md have, and which files are in notes?"
SPLIT = {"parts": [LINES_Q, NOTES_Q]}
# worker 1: the greedy command and the cross-check sample (wc's line is the answer as printed: no writer);
# worker 2: a long listing needs no sample, then the writer. The workers draw one cross-check (none by default)
# so that part 1's short count can end `success`.
CHECKED = {"voting": {"cross_check_draws": 1}}
LINES_WORKER = ["```sh\nwc -l docs/install.md\n```", "```sh\ncat docs/install.md | wc -l\n```"]
NOTES_WORKER = ["```sh\nls notes\n```", "n0.txt to n4.txt."]


@pytest.fixture()
def project(tmp_path, monkeypatch) -> Path:
    monkeypatch.setenv("RAGIX_HOME", str(tmp_path / "home"))
    root = tmp_path / "project"
    write(root, {"docs/install.md": "# Install\n" + "step\n" * 11, **{f"notes/n{n}.txt": "x\n" for n in range(5)}})
    return root


def run(goal, project, *replies, options=None, traces=False):
    llm = ScriptedLLM(list(replies))
    cfg = parse_config({"reasoning": {"traces": {"enabled": traces}, **CHECKED}})
    meta = {"hierarchical": options} if options is not None else None
    return run_goal(goal, cwd=project, config=cfg, strategy="hierarchical", client_factory=lambda s: llm,
                    meta=meta), llm


def test_a_goal_that_asks_one_thing_goes_to_one_worker_unchanged_without_a_split_call(project):
    res, llm = run(LINES_Q, project, *LINES_WORKER)
    state = res.state
    assert res.node_trace == ["SPLIT", "PART:1", "COMPOSE"] and len(llm.calls) == 2
    assert state.stop_reason == "success" and state.final_answer == "docs/install.md has 12 lines."
    h = state.meta["hierarchical"]
    assert h["split"]["by"] == "rules" and h["parts"][0]["question"] == LINES_Q


def test_several_asks_are_split_answered_by_part_and_composed_saying_which_part(project):
    res, llm = run(TWO_ASKS, project, SPLIT, *LINES_WORKER, *NOTES_WORKER)
    state = res.state
    assert res.node_trace == ["SPLIT", "PART:1", "PART:2", "COMPOSE"]
    assert state.stop_reason == "success" and len(llm.calls) == 5
    assert state.final_answer == (f"Part 1 — {LINES_Q}\ndocs/install.md has 12 lines.\n\n"
                                  f"Part 2 — {NOTES_Q}\nn0.txt to n4.txt.")
    h = state.meta["hierarchical"]
    assert h["split"]["by"] == "master" and [p["used"]["llm_calls"] for p in h["parts"]] == [2, 2]
    assert h["budget"]["used"]["llm_calls"] == 5 == res.usage["llm_calls"]
    assert h["parts"][1]["left_at_start"]["llm_calls"] == 40 - 3  # the split and worker 1 spent 3 of 40
    tools = [(e.data["command"].removeprefix("/usr/bin/"), e.data.get("part")) for e in res.events
             if e.kind == EventKind.TOOL_CALL]  # commands as run: /usr/bin/wc ...
    assert tools[0] == ("wc -l docs/install.md", 1) and tools[-1] == ("ls --ignore=.ragix notes", 2)
    llm_parts = [e.data.get("part") for e in res.events if e.kind == EventKind.LLM_CALL]
    assert llm_parts == [None, 1, 1, 2, 2]  # the master's split call is its own, untagged
    stages = [(e.data["stage"], e.data.get("part")) for e in res.events if e.kind == EventKind.PART]
    assert stages == [("split", None), ("start", 1), ("end", 1), ("start", 2), ("end", 2), ("compose", None)]


def test_a_budget_spent_between_parts_stops_the_run_by_name_and_keeps_what_was_answered(project):
    res, llm = run(TWO_ASKS, project, SPLIT, *LINES_WORKER, options={"budget": {"max_calls": 3}})
    state = res.state
    assert len(llm.calls) == 3 and res.node_trace == ["SPLIT", "PART:1", "COMPOSE"]
    assert state.stop_reason == "budget_calls" and "3 model calls" in state.last_error
    assert "Part 1 — How many lines" in state.final_answer and "has 12 lines." in state.final_answer
    assert (f"Part 2 — {NOTES_Q}\n(not answered: the run's budget of 3 model calls is spent before this part)"
            in state.final_answer)
    assert [p["stop_reason"] for p in state.meta["hierarchical"]["parts"]] == ["success", "not_run"]


def test_a_budget_spent_inside_a_worker_ends_that_worker_by_name_and_no_call_is_made_past_it(project):
    res, llm = run(TWO_ASKS, project, SPLIT, LINES_WORKER[0], options={"budget": {"max_calls": 2}})
    state = res.state
    assert len(llm.calls) == 2  # the split and the greedy command; the cross-check draw was refused
    parts = state.meta["hierarchical"]["parts"]
    assert parts[0]["stop_reason"] == "budget_calls" and parts[1]["stop_reason"] == "not_run"
    assert state.stop_reason == "budget_calls" and state.confidence == 0.0
    part_1 = state.final_answer.split("\n\nPart 2")[0]  # the worker's partial results, and why they are partial
    assert "## Partial Results" in part_1 and part_1.endswith("(this part ended budget_calls)")


@pytest.mark.parametrize("reply, note", [
    ({"parts": [LINES_Q, " how many  LINES does docs/install.md have? "]}, "part 2 repeats an earlier part"),
    ({"parts": [LINES_Q, NOTES_Q, "a?", "b?", "c?"]}, "5 parts, more than the 4 allowed"),
    ({"parts": [LINES_Q, "  "]}, "part 2 is not a non-empty question"),
    ({"parts": [LINES_Q, 7]}, "part 2 is not a non-empty question"),
    ({"parts": [TWO_ASKS]}, "1 part(s): not a split"),
    ({"questions": [LINES_Q, NOTES_Q]}, 'not an object with a "parts" list'),
    (LLMBadOutput("not JSON: sure, here", text="sure, here are the parts"), "LLMBadOutput"),
])
def test_an_unusable_split_sends_the_whole_goal_to_one_worker_and_says_why(project, reply, note):
    # A budget of one call: the split is the whole run, so the worker's part is recorded as not run.
    res, llm = run(TWO_ASKS, project, reply, options={"budget": {"max_calls": 1}})
    split = res.state.meta["hierarchical"]["split"]
    assert split["by"] == "fallback" and split["parts"] == [TWO_ASKS] and note in split["note"]
    assert "one worker on the whole goal" in split["note"] and len(llm.calls) == 1


def test_the_split_is_validated_with_the_bound_asked():
    assert validate_parts({"parts": ["a?", "b?", "c?"]}, max_parts=2) == (None, "3 parts, more than the 2 allowed")
    assert validate_parts({"parts": ["Count  the files", "b?"]}) == (["Count the files", "b?"], "")


@pytest.mark.parametrize("options, fragment", [
    ({"max_parts": 1}, "max_parts must be a whole number from 2 to 8"),
    ({"workers": 3}, "unknown hierarchical option(s) workers"),
    ({"budget": {"max_tokens": -5}}, "max_tokens must be a positive number"),
])
def test_bad_options_end_the_run_by_name_before_any_call(project, options, fragment):
    res, llm = run(TWO_ASKS, project, options=options)
    assert res.state.stop_reason == "bad_hierarchical" and fragment in res.state.final_answer
    assert llm.calls == []


def test_trace_show_prints_each_workers_events_under_its_part(project):
    res, _ = run(TWO_ASKS, project, SPLIT, *LINES_WORKER, *NOTES_WORKER, traces=True)
    shown = CliRunner().invoke(app, ["trace", "show", res.session_id, "--cwd", str(project)], terminal_width=200)
    assert shown.exit_code == 0, shown.output
    text = shown.output
    assert "split (master)" in text and f"part 2: {NOTES_Q}" in text
    assert "part 1 │ $ /usr/bin/wc -l docs/install.md" in text and "part 2 │ $ /usr/bin/ls" in text
    assert "part 2 ended success" in text and "compose 2 part(s): success" in text
    records = json.loads(CliRunner().invoke(app, ["trace", "show", res.session_id, "--cwd", str(project),
                                                  "--json"]).stdout)
    ends = [r for r in records if r["kind"] == "run_end"]
    assert [r["data"].get("part") for r in ends] == [1, 2, None]  # the workers' runs end inside the master's


def test_ragix_eval_runs_the_strategy_and_judges_its_composed_answer(project):
    from ragix_core.eval.harness import EvalOptions, run_scenarios
    from ragix_core.eval.scenario import Scenario

    llm = ScriptedLLM([SPLIT, *LINES_WORKER, *NOTES_WORKER])
    scenario = Scenario(id="two-asks", input=TWO_ASKS, expected_patterns=["12 lines", "n4.txt"],
                        must_run_commands=["wc", "ls"], max_steps=6, category="t")
    cfg = parse_config({"reasoning": {"traces": {"enabled": False}, **CHECKED}})
    [result] = run_scenarios([scenario], lambda goal, **kw: run_goal(goal, client_factory=lambda s: llm, **kw),
                             EvalOptions(cwd=project, strategy="hierarchical", config=cfg))
    assert result.passed, result.failure
    assert result.strategy == "hierarchical" and len(llm.calls) == 5


def test_a_dry_run_stops_at_the_first_workers_first_command_and_starts_no_other_part(project):
    llm = ScriptedLLM([SPLIT, LINES_WORKER[0]])
    cfg = parse_config({"reasoning": {"traces": {"enabled": False}}})
    res = run_goal(TWO_ASKS, cwd=project, config=cfg, strategy="hierarchical", client_factory=lambda s: llm,
                   dry_run=True)
    parts = res.state.meta["hierarchical"]["parts"]
    assert res.state.stop_reason == "dry_run" and len(llm.calls) == 2
    assert [p["stop_reason"] for p in parts] == ["dry_run", "not_run"]
    assert "wc -l docs/install.md" in res.state.meta["dry_run"]["commands"][0]["command"]
