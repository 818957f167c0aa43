"""The chat agent through the engine registry: `run_goal(strategy="chat")`, as `ragix run` and `ragix eval` use it."""

from __future__ import annotations

from ragix_core.config import parse_config
from ragix_core.core.registry import get_engine
from ragix_core.runtime.run import run_goal
from tests.chat.conftest import scripted


def test_a_goal_is_one_question_in_a_new_thread(tmp_path, home, repl_box):
    # The default orchestrator writes free text: a ```python block runs in the repl, the next reply is the answer.
    llm = scripted(["Exact product.\n```python\nprint(12 * 12)\n```", "12 × 12 = 144 [1]."])
    result = run_goal("What is 12 times 12?", cwd=tmp_path, strategy="chat", client_factory=lambda s: llm)
    state = result.state
    assert state.stop_reason == "success" and state.final_answer == "12 × 12 = 144 [1]."
    (step,) = state.executed_steps
    assert step.tool_call.tool == "repl" and step.result.stdout.strip() == "144" and step.result.ok
    assert state.meta["chat"]["reasoning_steps"] == 2
    # Two model calls, not three: the answering reply is the answer, the writer node makes no call.
    assert result.usage["llm_calls"] == 2 and result.node_trace == ["orchestrator", "tools", "orchestrator", "writer"]
    assert get_engine("chat").roles == ("planner", "worker")


def test_a_broken_search_provider_ends_the_run_with_a_named_reason(tmp_path, home):
    config = parse_config({"chat": {"search": {"providers": ["no_such_module_xyz:factory"]}}})
    result = run_goal("hello", cwd=tmp_path, strategy="chat", config=config,
                      client_factory=lambda s: scripted([]))
    assert result.state.stop_reason == "chat_setup_failed" and "cannot be loaded" in result.state.final_answer
