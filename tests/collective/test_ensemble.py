"""The ensemble strategy through run_goal: members answer, the vote merges, agreement is reported."""

from __future__ import annotations

import pytest

from ragix_core.config import parse_config
from ragix_core.core import registry
from ragix_core.core.types import ReasoningState
from ragix_core.runtime.run import run_goal

ANSWERS = {"toy_a": "There are 12 Python files.", "toy_b": "there are 12 python files",
           "toy_c": "I found 7 files.", "toy_fail": ""}


class ToyMember:
    """A member engine whose answer is fixed by its name; ``toy_fail`` ends without success."""

    def __init__(self, ctx, name):
        self.trace = [name]
        self.name = name

    def run(self, state: ReasoningState) -> ReasoningState:
        assert "ensemble" not in state.meta and state.meta["strategy"] == self.name
        state.final_answer = ANSWERS[self.name] or None
        state.stop_reason = "success" if ANSWERS[self.name] else "max_iterations"
        return state


def toy_a(ctx):
    return ToyMember(ctx, "toy_a")


def toy_b(ctx):
    return ToyMember(ctx, "toy_b")


def toy_c(ctx):
    return ToyMember(ctx, "toy_c")


def toy_fail(ctx):
    return ToyMember(ctx, "toy_fail")


@pytest.fixture()
def project(tmp_path, monkeypatch):
    monkeypatch.setenv("RAGIX_HOME", str(tmp_path / "home"))
    for name in ANSWERS:
        monkeypatch.setitem(registry.ENGINES, name, registry.EngineSpec(name, f"{__name__}:{name}", "toy", roles=(),
                                                                     classifies=False))
    root = tmp_path / "project"
    root.mkdir()
    return root


def _run(project, members):
    cfg = parse_config({"reasoning": {"traces": {"enabled": False}}})
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
