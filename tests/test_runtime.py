"""The runtime: one registry of engine names read everywhere, one RunContext, usage counted once."""

from __future__ import annotations

import pytest

from ragix_core.config import ConfigError, parse_config
from ragix_core.core import registry
from ragix_core.core.events import EventBus, EventKind
from ragix_core.core.text import bounded, one_line
from ragix_core.core.types import ReasoningState
from ragix_core.llm.base import LLMUnavailable
from ragix_core.llm.config import LLMConfig
from ragix_core.llm.roles import Roles
from ragix_core.reasoning import ReasoningLoop
from ragix_core.runtime.run import resolve_strategy, run_goal
from tests.reasoning_v30.test_agent_fns import FakeToolBox, ScriptedLLM, fns


class ToyEngine:
    """An engine as the registry sees one: run(state) -> state, and a trace."""

    def __init__(self, ctx):
        self.ctx = ctx
        self.trace = ["TOY"]

    def run(self, state: ReasoningState) -> ReasoningState:
        state.final_answer = f"toy ran in {self.ctx.cwd.name} under {self.ctx.profile.name}"
        state.stop_reason = "success"
        return state


@pytest.fixture()
def toy(monkeypatch):
    spec = registry.EngineSpec("toy", f"{__name__}:ToyEngine", "a test engine", roles=(), classifies=False)
    monkeypatch.setitem(registry.ENGINES, "toy", spec)
    return spec


def test_a_registered_engine_is_known_to_config_cli_eval_and_run_goal(toy, tmp_path, monkeypatch):
    monkeypatch.setenv("RAGIX_HOME", str(tmp_path / "home"))
    cfg = parse_config({"reasoning": {"strategy": "toy", "traces": {"enabled": False}}})
    assert resolve_strategy(None, cfg) == "toy"
    from ragix_core.eval.engines import get_runner
    from ragix_core.cli.eval_cmd import chosen_strategies

    assert chosen_strategies(["toy", "s0"], baseline=True, learning_curve=False) == ["toy", "s0"]
    project = tmp_path / "project"  # beside RAGIX_HOME: a project root may not contain ragix's own state
    project.mkdir()
    res = get_runner("toy")("hello", cwd=project, config=cfg)
    assert res.strategy == "toy" and res.node_trace == ["TOY"]
    assert res.state.final_answer == "toy ran in project under dev"
    assert res.state.meta["complexity_classified"] is False


def test_unknown_strategy_is_refused_everywhere_with_the_registry_names():
    from ragix_core.core.registry import engine_names

    with pytest.raises(ConfigError, match="allowed: " + ", ".join(engine_names())):
        parse_config({"reasoning": {"strategy": "tree"}})
    from ragix_core.cli.eval_cmd import chosen_strategies

    with pytest.raises(ValueError, match="allowed: graph_v30"):
        chosen_strategies(["tree"], baseline=True, learning_curve=False)


def test_cli_help_lists_the_registry_names():
    from typer.testing import CliRunner

    from ragix_core.cli import app

    for command in ("run", "eval"):
        out = CliRunner().invoke(app, [command, "--help"], env={"COLUMNS": "200"}).output
        assert all(name in out for name in registry.engine_names()), command


def test_usage_is_counted_by_the_roles_failed_calls_included():
    llm = ScriptedLLM([{"complexity": "SIMPLE"}, LLMUnavailable("down")])
    roles = Roles(LLMConfig(), client_factory=lambda settings: llm)
    planner = roles.get("planner")
    planner.complete([{"role": "user", "content": "q"}], schema={"type": "object"})
    with pytest.raises(LLMUnavailable):
        roles.get("worker").complete([{"role": "user", "content": "q"}])
    assert roles.summary() == {"llm_calls": 2, "prompt_tokens": 10, "completion_tokens": 5, "cached_prompt_tokens": 0}


def test_loop_v1_keeps_the_graph_contract_on_a_node_failure():
    """loop_v1 is a ReasoningGraph: a crashing phase is reported like any node's (event + stop reason)."""
    bus = EventBus()
    seen = []
    bus.subscribe(seen.append)
    f = fns(ScriptedLLM([{"complexity": "MODERATE"}, {"objective": "o", "validation": "v", "confidence": 0.5,
                          "steps": [{"num": 1, "description": "d", "tool": "ls", "args": {"command": "ls"}}]},
                         "answer"]), FakeToolBox())

    def broken_verify(state):
        raise RuntimeError("verifier bug")

    f.verify = broken_verify
    st = ReasoningLoop(f, events=bus).run(ReasoningState(goal="list the files here", session_id="s"))
    assert st.stop_reason == "node_exception:VERIFY" and st.final_answer
    errors = [e for e in seen if e.kind == EventKind.NODE_ERROR]
    assert errors and errors[0].data["node"] == "VERIFY" and "verifier bug" in errors[0].data["message"]


def test_run_goal_reports_usage_from_its_roles(tmp_path, monkeypatch):
    monkeypatch.setenv("RAGIX_HOME", str(tmp_path / "home"))
    llm = ScriptedLLM([{"answer": "a function with its scope", "confidence": 0.9}])
    (tmp_path / "project").mkdir()
    res = run_goal("What is a closure in programming?", cwd=tmp_path / "project", client_factory=lambda s: llm)
    calls = [e for e in res.events if e.kind == EventKind.LLM_CALL]
    assert res.usage == {"llm_calls": len(calls), "prompt_tokens": 10, "completion_tokens": 5,
                         "cached_prompt_tokens": 0} and len(calls) == 1


def test_bounded_says_what_it_cut():
    assert bounded("abc", 5) == "abc"
    assert bounded("abcdefgh", 3) == "abc\n[... 5 more characters cut]"
    assert bounded("abcdefgh", 4, marker=False) == "abc…"
    assert one_line("a \n b   c" * 10, 8) == "a b ca …"
    assert bounded(None, 3) == ""


def test_a_roles_configured_temperature_reaches_the_model_and_seeds_number_the_calls():
    from ragix_core.llm.structured import ask_json, ask_text
    from ragix_core.reasoning_v30.replies import ClassifyReply

    cfg = LLMConfig.model_validate({"default": {"temperature": 0.6}, "worker": {"temperature": 0.2}})
    llm = ScriptedLLM([{"complexity": "SIMPLE"}, "text", "more"])
    roles = Roles(cfg, client_factory=lambda settings: llm, seed=5)
    ask_json(roles.get("planner"), [{"role": "user", "content": "q"}], ClassifyReply, stop_reason="x")
    ask_text(roles.get("worker"), [{"role": "user", "content": "q"}])
    ask_text(roles.get("worker"), [{"role": "user", "content": "q"}], temperature=0.9, seed=42)
    assert [(c["temperature"], c["seed"]) for c in llm.calls] == [(0.6, 5), (0.2, 6), (0.9, 42)]


def test_run_goal_temperature_and_seed_apply_to_every_call(tmp_path, monkeypatch):
    monkeypatch.setenv("RAGIX_HOME", str(tmp_path / "home"))
    llm = ScriptedLLM([{"answer": "a function with its scope", "confidence": 0.9}])
    (tmp_path / "project").mkdir()
    run_goal("What is a closure in programming?", cwd=tmp_path / "project", client_factory=lambda s: llm,
             temperature=0.7, seed=11)
    assert [(c["temperature"], c["seed"]) for c in llm.calls] == [(0.7, 11)]
