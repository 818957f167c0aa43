"""One run-wide budget: limits checked before every model call, the named stop, the timeout capped."""

from __future__ import annotations

import pytest

from ragix_core.core.events import EventBus, EventKind
from ragix_core.core.stop import BudgetSpent, StopRun
from ragix_core.llm.roles import Roles
from ragix_core.runtime.budget import BudgetLimits, RunBudget
from tests.scripted_llm import ScriptedLLM


class Clock:
    def __init__(self):
        self.now = 100.0

    def __call__(self):
        return self.now


def _budget(usage, clock=None, **limits):
    return RunBudget(BudgetLimits(**limits), lambda: usage, clock or Clock())


def test_each_limit_names_its_own_stop():
    usage = {"llm_calls": 3, "prompt_tokens": 0, "completion_tokens": 0}
    assert _budget(usage, max_calls=3).spent().reason == "budget_calls"
    usage.update(llm_calls=1, prompt_tokens=70, completion_tokens=30)
    stop = _budget(usage, max_calls=3, max_tokens=100).spent()
    assert stop.reason == "budget_tokens" and "100 tokens" in stop.message and isinstance(stop, StopRun)
    clock = Clock()
    budget = _budget(usage, clock, max_seconds=10)
    assert budget.spent() is None and budget.check() == 10.0
    clock.now += 7.5
    assert budget.check() == 2.5 and budget.left()["seconds"] == 2.5
    clock.now += 2.5
    with pytest.raises(BudgetSpent) as spent:
        budget.check()
    assert spent.value.reason == "budget_wall"


@pytest.mark.parametrize("options, fragment", [
    ({"max_calls": 0}, "max_calls must be a positive number"),
    ({"max_tokens": "many"}, "max_tokens must be a positive number"),
    ({"max_seconds": True}, "max_seconds must be a positive number"),
    ({"max_call": 3}, "unknown budget option(s) max_call"),
])
def test_bad_limits_are_named(options, fragment):
    with pytest.raises(ValueError) as err:
        BudgetLimits.from_mapping(options)
    assert fragment in str(err.value)


def test_installed_budget_refuses_the_call_without_counting_it_and_caps_its_timeout():
    llm = ScriptedLLM(["one", "two"], usage=(60, 40))
    roles = Roles(client_factory=lambda s: llm)
    clock = Clock()
    budget = RunBudget(BudgetLimits(max_calls=5, max_tokens=150, max_seconds=30), roles.summary, clock)
    with budget.installed(roles):
        roles.get("worker").complete([{"role": "user", "content": "q"}], timeout=300)
        assert llm.calls[0]["timeout"] == 30.0  # the wall time left, not the role's 300 s
        clock.now += 25
        roles.get("planner").complete([{"role": "user", "content": "q"}])  # 100 tokens used: one more may start
        assert llm.calls[1]["timeout"] == 5.0
        with pytest.raises(BudgetSpent) as spent:
            roles.get("worker").complete([{"role": "user", "content": "q"}])
    assert spent.value.reason == "budget_tokens"
    assert roles.summary()["llm_calls"] == 2 and len(llm.calls) == 2  # the refused call was not made nor counted
    assert roles.guard is None  # the block's end removes the guard


def test_a_scope_tags_every_event_published_inside_it_and_ends_with_the_block():
    bus, seen = EventBus(), []
    bus.subscribe(seen.append)
    child = bus.tagged(purpose="diagnosis")
    with bus.scope(part=2):
        bus.publish(EventKind.LLM_CALL, "s", role="worker")
        child.publish(EventKind.TOOL_CALL, "s", command="ls")
    bus.publish(EventKind.LLM_CALL, "s", role="planner")
    assert [e.data.get("part") for e in seen] == [2, 2, None]
    assert seen[1].data["purpose"] == "diagnosis"
