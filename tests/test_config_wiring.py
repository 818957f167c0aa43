"""Every accepted config key changes what a run does (no key is accepted and ignored).

Real tool boxes, traces and corpus; a scripted model (tests/reasoning_v30/test_agent_fns.ScriptedLLM)."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest

from ragix_core.config import ConfigError, parse_config
from ragix_core.core.events import EventKind
from ragix_core.core.types import ReasoningEvent
from ragix_core.memory.experience import HybridExperienceCorpus
from ragix_core.memory.recall import SessionRecall
from ragix_core.profiles import get_profile
from ragix_core.runtime.context import RunContext
from ragix_core.core.registry import get_engine
from ragix_core.runtime.run import run_goal
from tests.reasoning_v30.test_agent_fns import ScriptedLLM



def plan(command):
    return {"objective": "o", "validation": "v", "confidence": 0.5,
            "steps": [{"num": 1, "description": command, "tool": command.split()[0], "args": {"command": command}}]}


def context(repo, reasoning):
    cfg = parse_config({"reasoning": reasoning})
    ctx = RunContext.open(cwd=repo, config=cfg, profile=get_profile("dev"), engine=get_engine("graph_v30"))
    ctx.close()
    return ctx


def test_step_and_reflect_timeouts_reach_the_tool_boxes(repo):
    ctx = context(repo, {"graph": {"timeout_per_step": 7}, "reflect": {"shell_timeout": 3}})
    assert ctx.toolbox.limits.timeout == 7 and ctx.reflect_box.limits.timeout == 3


def test_reflect_disabled_means_a_failed_step_ends_the_run(repo):
    llm = ScriptedLLM([{"complexity": "MODERATE"}, plan("cat docs/nothing_like_it.md")])
    cfg = parse_config({"reasoning": {"reflect": {"enabled": False}, "routing": "classify_first"}})
    assert set(cfg.reasoning.max_reflections_by_complexity().values()) == {0}
    res = run_goal("show the file", cwd=repo, config=cfg, client_factory=lambda s: llm)
    assert res.state.stop_reason == "max_reflections" and "REFLECT" not in res.node_trace


def test_traces_format_names_the_trace_file(repo):
    res = run_goal("What is a closure in programming?", cwd=repo,
                   config=parse_config({"reasoning": {"traces": {"format": "ndjson"}}}),
                   client_factory=lambda s: ScriptedLLM([{"answer": "a function with its scope", "confidence": 0.9}]))
    assert res.trace_path.suffix == ".ndjson" and res.trace_path.is_file()
    from ragix_core.memory.traces import find_trace

    assert find_trace(res.session_id, [res.trace_path.parent]) == res.trace_path


@pytest.mark.parametrize("include", [False, True])
def test_include_prompts_puts_the_messages_in_the_trace(repo, include):
    llm = ScriptedLLM([{"answer": "a function with its scope", "confidence": 0.9}])
    res = run_goal("What is a closure in programming?", cwd=repo, client_factory=lambda s: llm,
                   config=parse_config({"reasoning": {"traces": {"include_prompts": include}}}))
    calls = [e for e in res.events if e.kind == EventKind.LLM_CALL]
    assert calls
    if include:
        assert "closure" in calls[0].data["messages"][0]["content"] and "scope" in calls[0].data["reply"]
    else:
        assert "messages" not in calls[0].data


def test_a_reply_that_is_not_json_is_kept_in_the_trace_with_the_prompts(repo):
    # a BYPASS answer is JSON: the first reply is cut, the repair completes it
    llm = ScriptedLLM(['{"answer": "a function that keeps its sc', {"answer": "a closure keeps its scope", "confidence": 0.9}])
    res = run_goal("What is a closure in programming?", cwd=repo, client_factory=lambda s: llm,
                   config=parse_config({"reasoning": {"traces": {"include_prompts": True}}}))
    failed = [e for e in res.events if e.kind == EventKind.LLM_CALL and not e.data["ok"]]
    assert failed and failed[0].data["reply"] == '{"answer": "a function that keeps its sc'


def test_similarity_threshold_hides_weak_experience(tmp_path):
    corpus = HybridExperienceCorpus(global_root=tmp_path / "g", project_root=tmp_path / "p")
    for minute, goal in enumerate(("count lines in the guide", "count the words in the readme")):
        stamp = (datetime.now(timezone.utc) - timedelta(minutes=minute + 1)).replace(tzinfo=None).isoformat()
        corpus.append(ReasoningEvent(timestamp=stamp, session_id="old",
                                     event_type="execution", goal=goal, outcome_status="success"))
    query = "count lines in the guide"
    assert "readme" in SessionRecall(corpus, "now").search(query)  # one shared word is enough by default
    strict = SessionRecall(corpus, "now", min_score=0.75).search(query)
    assert "guide" in strict and "readme" not in strict


def test_unsupported_spec_002_key_is_refused_with_the_reason():
    with pytest.raises(ConfigError, match=r"reasoning\.graph.*complexity_bypass_threshold is not supported.*label"):
        parse_config({"reasoning": {"graph": {"complexity_bypass_threshold": 0.9}}})


def test_reflect_tools_must_be_read_only():
    with pytest.raises(ConfigError, match=r"reflect\.allowed_tools.*not read-only tools: rm"):
        parse_config({"reasoning": {"reflect": {"allowed_tools": ["ls", "rm"]}}})
