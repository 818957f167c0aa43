"""The ensemble strategy through run_goal: members answer, the vote merges, agreement is reported."""

from __future__ import annotations

from functools import partial
from pathlib import Path

import pytest

from ragix_core.config import parse_config
from ragix_core.core import registry
from ragix_core.core.events import EventKind
from ragix_core.core.interrupt import USER_ABORT
from ragix_core.memory.traces import read_trace
from ragix_core.core.types import ReasoningState
from ragix_core.runtime.run import run_goal
from tests.scripted_llm import ScriptedLLM

ANSWERS = {"toy_a": "There are 12 Python files.", "toy_b": "there are 12 python files",
           "toy_c": "I found 7 files.", "toy_fail": "", "toy_abort": "Found so far: 3 files.",
           "toy_asks": "12 Python files."}


class ToyMember:
    """A member engine whose answer is fixed by its name; ``toy_fail`` ends without success."""

    def __init__(self, ctx, name):
        self.ctx = ctx
        self.trace = [name]
        self.name = name

    def run(self, state: ReasoningState) -> ReasoningState:
        assert "ensemble" not in state.meta and state.meta["strategy"] == self.name
        if self.name == "toy_asks":  # a member that asks the model once
            self.ctx.roles.get("worker").complete([{"role": "user", "content": "count"}])
        state.final_answer = ANSWERS[self.name] or None
        state.stop_reason = "success" if ANSWERS[self.name] else "max_iterations"
        if self.name == "toy_abort":  # what a graph does on Ctrl-C: it catches it and ends user_abort
            state.stop_reason, state.last_error = USER_ABORT, "interrupted by the user (Ctrl-C) in ACT"
        # like every engine, a member publishes its own RUN_END
        self.ctx.bus.publish(EventKind.RUN_END, state.session_id, stop_reason=state.stop_reason,
                             answer=state.final_answer or "")
        return state


# the registry builds an engine as module:function(ctx)
toy_a = partial(ToyMember, name="toy_a")
toy_b = partial(ToyMember, name="toy_b")
toy_c = partial(ToyMember, name="toy_c")
toy_fail = partial(ToyMember, name="toy_fail")
toy_abort = partial(ToyMember, name="toy_abort")
toy_asks = partial(ToyMember, name="toy_asks")


@pytest.fixture()
def project(tmp_path, monkeypatch):
    monkeypatch.setenv("RAGIX_HOME", str(tmp_path / "home"))
    for name in ANSWERS:
        monkeypatch.setitem(registry.ENGINES, name, registry.EngineSpec(name, f"{__name__}:{name}", "toy", roles=(),
                                                                     classifies=False))
    root = tmp_path / "project"
    root.mkdir()
    return root


def _run(project, members, traces=False):
    cfg = parse_config({"reasoning": {"traces": {"enabled": traces}}})
    return run_goal("How many Python files?", cwd=project, config=cfg, strategy="ensemble",
                    meta={"ensemble": {"members": members}})


def test_the_majority_answer_wins_and_agreement_counts_every_member(project):
    result = _run(project, ["toy_c", "toy_a", "toy_b"])
    state = result.state
    assert state.stop_reason == "success" and state.final_answer == ANSWERS["toy_a"]
    ens = state.meta["ensemble"]
    assert (ens["agreement"], ens["groups"], ens["winner"]) == (0.667, 2, "toy_a")
    assert [m["group"] for m in ens["members"]] == [1, 0, 0]
    assert result.node_trace == ["MEMBER:toy_c", "MEMBER:toy_a", "MEMBER:toy_b", "VOTE"]


def test_no_majority_ends_no_agreement_with_the_largest_group(project):
    state = _run(project, ["toy_c", "toy_a", "toy_fail", "toy_fail"]).state
    assert state.stop_reason == "no_agreement" and state.final_answer == ANSWERS["toy_c"]  # tie: the earliest
    assert state.meta["ensemble"]["agreement"] == 0.25 and "1 of 4" in state.last_error


def test_no_member_answering_is_named(project):
    state = _run(project, ["toy_fail", "toy_fail"]).state
    assert state.stop_reason == "no_answer" and "toy_fail ended max_iterations" in state.final_answer


@pytest.mark.parametrize("members, message", [(["toy_a"], "2 to 7 members"), (["toy_a", "ensemble"], "itself"),
                                              (["toy_a", "nosuch"], "unknown strategy 'nosuch'")])
def test_a_bad_member_list_is_a_named_stop(project, members, message):
    state = _run(project, members).state
    assert state.stop_reason == "bad_ensemble" and message in state.last_error


def test_ctrl_c_in_a_member_ends_the_ensemble_and_no_later_member_starts(project):
    result = _run(project, ["toy_abort", "toy_a", "toy_b"])  # the two later members would agree
    state = result.state
    assert state.stop_reason == USER_ABORT and state.final_answer == ANSWERS["toy_abort"]
    assert result.node_trace == ["MEMBER:toy_abort"]
    assert [m["engine"] for m in state.meta["ensemble"]["members"]] == ["toy_abort"]


def test_the_last_run_end_of_the_trace_is_the_ensembles(project):
    result = _run(project, ["toy_a", "toy_b", "toy_c"], traces=True)  # the last member answers otherwise
    ends = [r for r in read_trace(result.trace_path) if r["kind"] == EventKind.RUN_END.value]
    assert len(ends) == 4  # three members' and the ensemble's
    assert ends[-1]["data"]["answer"] == ANSWERS["toy_a"] != ANSWERS["toy_c"]
    assert (ends[-1]["data"]["stop_reason"], ends[-1]["data"]["agreement"]) == ("success", 0.667)


def test_an_aborted_ensemble_ends_its_trace_with_its_own_run_end(project):
    result = _run(project, ["toy_a", "toy_abort", "toy_b"])
    last = [e for e in result.events if e.kind == EventKind.RUN_END][-1]
    assert last.data["stop_reason"] == USER_ABORT and len([e for e in result.events
                                                           if e.kind == EventKind.RUN_END]) == 3


def test_each_members_calls_and_tokens_are_kept_beside_its_answer(project):
    cfg = parse_config({"reasoning": {"traces": {"enabled": False}}})
    result = run_goal("How many Python files?", cwd=project, config=cfg, strategy="ensemble",
                      meta={"ensemble": {"members": ["toy_a", "toy_asks", "toy_c"]}},
                      client_factory=lambda settings: ScriptedLLM(["12"], usage=(30, 4)))
    usage = {m["engine"]: m["usage"] for m in result.state.meta["ensemble"]["members"]}
    assert usage["toy_asks"]["llm_calls"] == 1 and usage["toy_asks"]["prompt_tokens"] == 30
    assert usage["toy_asks"]["completion_tokens"] == 4
    assert usage["toy_a"]["llm_calls"] == usage["toy_c"]["llm_calls"] == 0
    assert result.usage["llm_calls"] == sum(u["llm_calls"] for u in usage.values())


# -- members that write: each in its own copy, the winner's changes carried back once ---------------------

WRITERS = {"toy_append": ("Appended the line.", "echo appended >> notes.txt"),
           "toy_append2": ("appended the line", "echo appended >> notes.txt"),
           "toy_other": ("Wrote another file.", "echo other > other.txt"),
           "toy_terse": ("Done.", "echo appended >> notes.txt"),  # the same change, other words
           "toy_claims": ("Appended the line.", "cat notes.txt")}  # says it appended, changed nothing
SEEN = []  # (member, its project root, notes.txt as it found it)


class ToyWriter:
    def __init__(self, ctx, name):
        self.ctx, self.name, self.trace = ctx, name, [name]

    def run(self, state: ReasoningState) -> ReasoningState:
        root = Path(self.ctx.toolbox.root)
        SEEN.append((self.name, root, (root / "notes.txt").read_text()))
        result = self.ctx.toolbox.run_command(WRITERS[self.name][1])
        assert result.returncode == 0, result.error
        state.final_answer, state.stop_reason = WRITERS[self.name][0], "success"
        return state


toy_append = partial(ToyWriter, name="toy_append")
toy_append2 = partial(ToyWriter, name="toy_append2")
toy_other = partial(ToyWriter, name="toy_other")
toy_terse = partial(ToyWriter, name="toy_terse")
toy_claims = partial(ToyWriter, name="toy_claims")


@pytest.fixture()
def writers(project, monkeypatch):
    for name in WRITERS:
        monkeypatch.setitem(registry.ENGINES, name, registry.EngineSpec(name, f"{__name__}:{name}", "toy", roles=(),
                                                                     classifies=False))
    (project / "notes.txt").write_text("first\n")
    SEEN.clear()
    return project


def _write_run(project, members, profile="dev"):
    cfg = parse_config({"reasoning": {"traces": {"enabled": False}}})
    return run_goal("Append a line to notes.txt", cwd=project, config=cfg, strategy="ensemble", profile=profile,
                    assume_yes=True, meta={"ensemble": {"members": members}}).state


def test_a_write_goal_changes_the_project_once_with_the_winners_changes(writers):
    state = _write_run(writers, ["toy_append", "toy_other", "toy_append2"])
    assert state.stop_reason == "success" and state.meta["ensemble"]["winner"] == "toy_append"
    assert (writers / "notes.txt").read_text() == "first\nappended\n"  # once, not once per member
    assert not (writers / "other.txt").exists()  # the outvoted member's write did not land
    # every member found the project as it was, in a copy of its own that is gone now
    assert [s[2] for s in SEEN] == ["first\n"] * 3
    roots = [s[1] for s in SEEN]
    assert len(set(roots)) == 3 and writers not in roots and not any(r.exists() for r in roots)
    changes = {c["engine"]: c for c in state.meta["ensemble"]["changes"]}
    assert changes["toy_append"]["applied"] and changes["toy_append"]["written"] == ["notes.txt"]
    assert not changes["toy_other"]["applied"] and changes["toy_other"]["written"] == ["other.txt"]
    assert not changes["toy_append2"]["applied"]  # agreed, but the group's first member's changes are the ones


def test_without_a_majority_no_members_write_lands(writers):
    state = _write_run(writers, ["toy_append", "toy_other"])
    assert state.stop_reason == "no_agreement"
    assert (writers / "notes.txt").read_text() == "first\n" and not (writers / "other.txt").exists()
    assert [c["applied"] for c in state.meta["ensemble"]["changes"]] == [False, False]


def test_under_a_read_only_profile_members_share_the_project_and_make_no_copy(project):
    cfg = parse_config({"llm": {"default": {"backend": "openai", "model": "m", "base_url": "https://api.example.com/v1"}},
                        "reasoning": {"traces": {"enabled": False}}})  # `safe` asks for a remote model, never called
    state = run_goal("How many Python files?", cwd=project, config=cfg, strategy="ensemble", profile="safe",
                     meta={"ensemble": {"members": ["toy_a", "toy_b"]}}).state
    assert state.stop_reason == "success" and "changes" not in state.meta["ensemble"]


def test_a_project_too_big_to_copy_ends_before_any_member_runs(writers, monkeypatch):
    from ragix_core.runtime import tree_copy

    monkeypatch.setattr(tree_copy, "MAX_COPY_BYTES", 3)
    state = _write_run(writers, ["toy_append", "toy_append2"])
    assert state.stop_reason == "bad_ensemble" and "too big to copy" in state.last_error
    assert SEEN == [] and (writers / "notes.txt").read_text() == "first\n"


def test_when_members_write_the_vote_is_on_what_they_changed_not_on_their_words(writers):
    # by their words two of three say "Appended the line."; by what they did two of three appended
    state = _write_run(writers, ["toy_claims", "toy_terse", "toy_append"])
    ens = state.meta["ensemble"]
    assert ens["vote_on"] == "changes" and state.stop_reason == "success"
    assert ens["winner"] == "toy_terse" and state.final_answer == "Done."
    assert [m["group"] for m in ens["members"]] == [1, 0, 0]
    assert (writers / "notes.txt").read_text() == "first\nappended\n"


def test_when_no_member_writes_the_vote_is_on_the_answers(writers):
    state = _write_run(writers, ["toy_claims", "toy_a", "toy_b"])
    assert state.meta["ensemble"]["vote_on"] == "answers" and state.meta["ensemble"]["winner"] == "toy_a"
