"""run_goal plumbing (strategies, traces, memory, profiles) with a scripted model and real tools."""

from __future__ import annotations

from pathlib import Path

import pytest

from ragix_core.config import parse_config
from ragix_core.core.events import EventKind
from ragix_core.core.types import TaskComplexity
from ragix_core.memory.traces import read_trace
from ragix_core.profiles import ProfileError, check_models, get_profile
from ragix_core.runtime.run import resolve_strategy, run_goal
from tests.reasoning_v30.test_agent_fns import ScriptedLLM



class ScriptedRoles:
    """A scripted model behind every role: run_goal still builds its own Roles around it."""

    def __init__(self, replies):
        self.llm = ScriptedLLM(replies)

    def __call__(self, settings):
        return self.llm


# Spec 000's routing: the model labels the goal, and a MODERATE one plans first. The plumbing tests
# below script that label; the main path (routing try_first, the default) is tested in
# tests/reasoning_v30/test_main_path.py.
SPEC_000 = parse_config({"reasoning": {"routing": "classify_first"}})


def plan(*commands):
    return {"objective": "o", "validation": "v", "confidence": 0.5,
            "steps": [{"num": i + 1, "description": c, "tool": c.split()[0], "args": {"command": c}}
                      for i, c in enumerate(commands)]}


def test_graph_v30_real_tools_trace_and_memory(repo: Path):
    roles = ScriptedRoles([{"complexity": "MODERATE"},
                           plan("find . -name '*.md' | xargs wc -l | sort -n"),
                           "docs/guide.md is the largest with 120 lines"])
    res = run_goal("Find the largest markdown file", cwd=repo, client_factory=roles, config=SPEC_000)
    assert res.state.stop_reason == "success"
    step = res.state.executed_steps[0]
    assert "120 ./docs/guide.md" in step.result.stdout  # the real tool ran in the copy
    kinds = [r["kind"] for r in read_trace(res.trace_path)]
    assert "tool_call" in kinds and "step_executed" in kinds and kinds[-1] == "run_end"
    events = (repo / ".ragix" / "experience" / "events.jsonl").read_text()
    assert "Find the largest markdown file" in events  # project memory written
    assert res.usage["prompt_tokens"] == 30


def test_graph_v2_reflect_replans_and_returns_to_execute(repo: Path):
    roles = ScriptedRoles([{"complexity": "MODERATE"},
                           plan("cat docs/missing.md"),
                           {"diagnosis": "the file is not there", "new_plan_summary": "list docs"},
                           plan("ls docs"),
                           "docs holds guide.md and notes.md"])
    res = run_goal("Show the docs", cwd=repo, client_factory=roles, strategy="graph_v2", config=SPEC_000)
    assert res.state.stop_reason == "success" and res.state.reflection_count == 1
    assert res.node_trace == ["CLASSIFY", "PLAN", "EXECUTE", "REFLECT", "EXECUTE", "RESPOND"]
    assert "guide.md" in res.state.executed_steps[-1].result.stdout


def test_graph_v30_reflect_goes_back_to_plan(repo: Path):
    roles = ScriptedRoles([{"complexity": "MODERATE"}, plan("cat docs/missing.md"),
                           {"diagnosis": "missing", "new_plan_summary": "list"}, plan("ls docs"), "done"])
    res = run_goal("Show the docs", cwd=repo, client_factory=roles, strategy="graph_v30", config=SPEC_000)
    assert res.node_trace == ["CLASSIFY", "PLAN", "EXECUTE", "REFLECT", "PLAN", "EXECUTE", "RESPOND"]
    reflect_prompt = roles.llm.calls[2]["messages"][0]["content"]
    assert "No such file" in reflect_prompt and "guide.md" in reflect_prompt  # error + read-only context


def test_loop_v1_through_run_goal(repo: Path):
    roles = ScriptedRoles([{"complexity": "MODERATE"}, plan("wc -l README.md"), "README.md has 19 lines",
                           {"verdict": "pass", "issues": "", "answer": "19 lines", "confidence": 0.9}])
    res = run_goal("count README lines", cwd=repo, client_factory=roles, strategy="loop_v1")
    assert res.strategy == "loop_v1" and res.state.stop_reason == "success"
    assert res.node_trace == ["CLASSIFY", "PLAN", "EXECUTE", "VERIFY", "RESPOND"]


def test_safe_profile_runs_no_process_and_keeps_no_memory(repo: Path):
    cfg = parse_config({"llm": {"default": {"backend": "openai", "model": "m", "base_url": "https://api.example.com/v1"}},
                        "reasoning": {"routing": "classify_first"}})
    roles = ScriptedRoles([{"complexity": "MODERATE"}, plan("ls"), "nothing"])
    res = run_goal("list files", cwd=repo, client_factory=roles, profile="safe", config=cfg)
    calls = [e for e in res.events if e.kind == EventKind.TOOL_CALL]
    assert calls and all(e.data["refused"] for e in calls)
    assert not (repo / ".ragix" / "experience" / "events.jsonl").exists()


def test_sovereign_with_remote_model_fails_fast_naming_role_and_endpoint(repo: Path):
    cfg = parse_config({"llm": {"planner": {"backend": "openai", "model": "gpt", "base_url": "https://api.openai.com/v1"}}})
    with pytest.raises(ProfileError, match=r"planner.*api\.openai\.com"):
        run_goal("anything", cwd=repo, profile="sovereign", config=cfg)


def test_safe_with_embedded_model_fails_fast():
    cfg = parse_config({})
    with pytest.raises(ProfileError, match="cloud models only"):
        check_models(get_profile("safe"), cfg.llm, ["planner"])


def test_loopback_server_counts_as_local_for_sovereign():
    cfg = parse_config({"llm": {"default": {"backend": "openai", "model": "m", "base_url": "http://127.0.0.1:8080/v1"}}})
    check_models(get_profile("sovereign"), cfg.llm, ["planner", "worker", "verifier"])


def test_strategy_switch_precedence(monkeypatch):
    cfg = parse_config({"reasoning": {"strategy": "graph_v2"}})
    assert resolve_strategy(None, cfg) == "graph_v2"
    monkeypatch.setenv("RAGIX_REASONING_STRATEGY", "loop_v1")
    assert resolve_strategy(None, cfg) == "loop_v1"
    assert resolve_strategy("graph_v30", cfg) == "graph_v30"
    monkeypatch.setenv("RAGIX_REASONING_STRATEGY", "graph_v9")
    with pytest.raises(ValueError, match="RAGIX_REASONING_STRATEGY"):
        resolve_strategy(None, cfg)


def test_unknown_profile_named():
    with pytest.raises(ProfileError, match="allowed: safe, dev, sovereign"):
        get_profile("yolo")


def test_cli_sovereign_with_remote_model_exits_2_with_the_reason(tmp_path):
    from typer.testing import CliRunner

    from ragix_core.cli import app

    # the user's own config (--config): a project's ./ragix.yaml may not name endpoints unless trusted
    (tmp_path / "mine.yaml").write_text('llm:\n  planner: {backend: openai, model: gpt, base_url: "https://api.openai.com/v1"}\n')
    result = CliRunner().invoke(app, ["run", "--cwd", str(tmp_path), "--config", str(tmp_path / "mine.yaml"),
                                      "--profile", "sovereign", "list files"])
    assert result.exit_code == 2
    assert "allows local models only" in result.output and "Traceback" not in result.output


def test_reflect_is_given_evidence_and_records_which(repo: Path):
    roles = ScriptedRoles([{"complexity": "MODERATE"}, plan("cat docs/manual/intro.md"),
                           {"diagnosis": "no manual directory", "new_plan_summary": "read the guide"},
                           plan("head -n 3 docs/guide.md"), "the guide starts with its title"])
    res = run_goal("Show the start of 'guide.md' from the manual", cwd=repo, client_factory=roles, config=SPEC_000)
    prompt = roles.llm.calls[2]["messages"][0]["content"]
    assert "exit code: 1" in prompt
    assert "nearest existing directory:\ndocs/: guide.md, notes.md" in prompt
    assert "files mentioning the goal's names:\n'guide.md': in no file" in prompt  # searched, not guessed
    assert "never propose them again):\n- `cat docs/manual/intro.md`" in prompt, prompt
    attempt = res.state.reflection_attempts[0]
    assert attempt.evidence == ["exit_code", "stderr", "close_names", "nearest_directory", "project_search"]
    searches = [e for e in res.events if e.kind == EventKind.TOOL_CALL and "-rlF" in e.data["argv"]]
    assert searches and all(e.data.get("purpose") == "diagnosis" for e in searches)
    assert res.state.stop_reason == "success"


TRY_FIRST = {"reasoning": {"traces": {"enabled": False}}}  # the main path is the default routing


def fenced(command):
    return f"```sh\n{command}\n```"


def test_the_main_path_answers_a_one_command_goal_without_a_label_or_a_plan(repo: Path):
    # The greedy count is short, so it rests on one command (no cross-check draw by default); the output is
    # one number, so it is the answer with no writer's call: one model call in all.
    roles = ScriptedRoles([fenced("find docs -name '*.md' | wc -l")])
    res = run_goal("How many markdown files are in docs?", cwd=repo, client_factory=roles,
                   config=parse_config(TRY_FIRST))
    assert res.node_trace == ["CLASSIFY", "DIRECT_EXEC", "RESPOND"]  # no plan for a one-command goal
    assert res.state.stop_reason == "unconfirmed" and res.state.complexity == TaskComplexity.SIMPLE
    assert len(roles.llm.calls) == 1 and res.state.final_answer == "2"
    executed = [e.data["event"] for e in res.events if e.kind == EventKind.STEP_EXECUTED]
    assert [(e["tool_input"], e["stdout"].split()[0]) for e in executed] == [("find docs -name '*.md' | wc -l", "2")]
    assert res.state.meta["attempt"]["unconfirmed"] and not res.state.meta["attempt"]["confirmed"]


def test_the_main_path_ends_no_evidence_when_every_command_found_nothing(repo: Path):
    # No plan after the failure by default (reasoning.plan_after_failure): the run says what it tried.
    empty = fenced("grep -rn 'quantity: 0' src/inventory/storage.py")
    roles = ScriptedRoles([empty] * 8)  # greedy, three samples, two retries each repeating it and redrawn
    res = run_goal("Which items in the inventory data file have quantity 0?", cwd=repo, client_factory=roles,
                   config=parse_config(TRY_FIRST))
    assert res.node_trace == ["CLASSIFY", "DIRECT_EXEC", "RESPOND"] and "escalated" not in res.state.meta
    assert res.state.stop_reason == "no_evidence" and len(roles.llm.calls) == 8
    assert "- `grep -rn 'quantity: 0' src/inventory/storage.py`: (no matches)" in res.state.final_answer  # what ran
    assert "The commands that ran found nothing: the absence may be real" in res.state.final_answer


def test_the_main_path_plans_when_every_command_found_nothing_if_asked_to(repo: Path):
    empty = fenced("grep -rn 'quantity: 0' src/inventory/storage.py")
    roles = ScriptedRoles([empty] * 8 + [plan("cat inventory.json"), "B7 (washer) has quantity 0"])
    res = run_goal("Which items in the inventory data file have quantity 0?", cwd=repo, client_factory=roles,
                   config=parse_config({"reasoning": {**TRY_FIRST["reasoning"], "plan_after_failure": True}}))
    assert res.node_trace[:4] == ["CLASSIFY", "DIRECT_EXEC", "PLAN", "EXECUTE"]
    assert res.state.meta["escalated"] == "every command found nothing"
    assert res.state.meta["attempt"]["ran"] == 1 and res.state.meta["attempt"]["retries"] == 2  # repeats ran once
    assert "Tried first, one command at a time:\n- `grep -rn 'quantity: 0' src/inventory/storage.py` [ok]" in \
        roles.llm.calls[8]["messages"][0]["content"]
    assert "B7" in res.state.final_answer and res.state.stop_reason == "success"


def test_classify_first_keeps_spec_000_routing(repo: Path):
    roles = ScriptedRoles([{"complexity": "MODERATE"}, plan("wc -l README.md"), "19"])
    res = run_goal("How many lines does README.md have?", cwd=repo, client_factory=roles,
                   config=parse_config({"reasoning": {"routing": "classify_first", "traces": {"enabled": False}}}))
    assert res.node_trace[:2] == ["CLASSIFY", "PLAN"]
    assert parse_config({}).reasoning.routing == "try_first"  # the default: the main path


def test_labels_rules_first_plans_a_project_goal_without_asking_the_model_for_a_label(repo: Path):
    rules = {"reasoning": {"routing": "classify_first", "labels": "rules_first", "traces": {"enabled": False}}}
    roles = ScriptedRoles([plan("wc -l README.md"), "README.md has 19 lines"])
    res = run_goal("How many lines does README.md have?", cwd=repo, client_factory=roles, config=parse_config(rules))
    assert res.node_trace[:3] == ["CLASSIFY", "PLAN", "EXECUTE"]
    assert res.state.complexity == TaskComplexity.MODERATE and len(roles.llm.calls) == 2  # plan and answer only
    assert "complexity classifier" not in roles.llm.calls[0]["messages"][0]["content"]
    # a goal the rules cannot tie to the project is still labelled by the model
    roles = ScriptedRoles([{"complexity": "SIMPLE"}, fenced("grep -rni maintainer ."), "Ada Lovelace"])
    res = run_goal("Who is named as the maintainer in the documentation?", cwd=repo, client_factory=roles,
                   config=parse_config(rules))
    assert "complexity classifier" in roles.llm.calls[0]["messages"][0]["content"]
    with pytest.raises(ValueError, match="labels"):
        parse_config({"reasoning": {"labels": "guess"}})
