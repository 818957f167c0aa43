"""The s0 baseline (the plain call) runs through the same runtime as the engines: run_goal, the
profile's confined tool box, the roles' usage counting and the same RESPOND; s0_json is its JSON
variant. A scripted model stands in for the LLM; the tools are real."""

from pathlib import Path

from ragix_core.config import parse_config
from ragix_core.core.events import EventKind
from ragix_core.eval.evaluate import evaluate_run
from ragix_core.eval.scenario import Scenario
from ragix_core.llm.base import LLMUnavailable
from ragix_core.runtime.run import run_goal
from tests.reasoning_v30.test_agent_fns import ScriptedLLM


def s0(goal, cwd, *replies, strategy="s0", **kw):
    llm = ScriptedLLM(list(replies))
    kw.setdefault("config", parse_config({"reasoning": {"traces": {"enabled": False}}}))
    return run_goal(goal, cwd=cwd, strategy=strategy, client_factory=lambda settings: llm, **kw), llm


def fenced(command: str) -> str:
    """A free-text reply as the model writes one: a sentence, then the command in a code block."""
    return f"This command answers it:\n```sh\n{command}\n```\nIt prints the result."


def answer_prompt(llm) -> str:
    return llm.calls[-1]["messages"][-1]["content"]


def test_s0_runs_one_command_and_answers_from_its_output(tmp_path):
    (tmp_path / "x.md").write_text("a\nb\nc\n")
    res, llm = s0("How many lines in x.md?", tmp_path, fenced("wc -l x.md"), "x.md has 3 lines")
    assert res.state.final_answer == "x.md has 3 lines" and res.state.stop_reason == "success"
    assert res.strategy == "s0" and res.node_trace == ["COMMAND", "RESPOND"]
    assert "3 x.md" in answer_prompt(llm)  # the real tool's output reached the answer prompt
    # counted by the run's roles (ScriptedLLM reports 10 + 5 tokens a call), not by hand
    assert res.usage == {"llm_calls": 2, "prompt_tokens": 20, "completion_tokens": 10, "cached_prompt_tokens": 0}
    tool_events = [e for e in res.events if e.kind == EventKind.TOOL_CALL]
    assert len(tool_events) == 1 and tool_events[0].data["argv"][-1] == "x.md"
    r = evaluate_run(Scenario(id="l", input="q", expected_patterns=["3 lines"], must_run_commands=["wc"]), res)
    assert r.passed and r.steps == 1 and r.complexity_got is None


def test_s0_failed_command_is_no_evidence_with_the_engines_path_hint(tmp_path):
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "guide.md").write_text("hello\n")
    res, llm = s0("How many lines in docs/guid.md?", tmp_path, fenced("wc -l docs/guid.md"), "it has 12 lines")
    assert res.state.stop_reason == "no_evidence"  # an answer from no tool output is not a success
    assert res.state.final_answer.startswith("## Partial Results")
    assert "12 lines" not in res.state.final_answer  # the unsupported claim is not passed on
    assert "existing files with a similar name: docs/guide.md" in res.state.final_answer


def test_s0_search_without_match_is_an_answer(tmp_path):
    (tmp_path / "a.py").write_text("print(1)\n")
    res, llm = s0("Which files mention TODO?", tmp_path, fenced("grep -rn TODO ."), "No file mentions TODO.")
    assert res.state.stop_reason == "success"
    assert "(no matches)" in answer_prompt(llm)


def test_s0_sees_the_head_and_tail_of_a_long_output(tmp_path):
    (tmp_path / "big.txt").write_text("".join(f"line {i} filler text\n" for i in range(2000)))
    res, llm = s0("Show big.txt", tmp_path, fenced("cat big.txt"), "a long file")
    prompt = answer_prompt(llm)
    assert "omitted" in prompt and "line 1999 filler text" in prompt  # head and tail, as a user would paste it
    assert len(prompt) < 3000


def test_s0_uses_the_profile_tool_set(tmp_path):
    cfg = parse_config({"llm": {"default": {"backend": "openai", "model": "m", "base_url": "https://api.example.com/v1"}},
                        "reasoning": {"traces": {"enabled": False}}})
    res, _ = s0("list files", tmp_path, fenced("ls"), "nothing", profile="safe", config=cfg)
    calls = [e for e in res.events if e.kind == EventKind.TOOL_CALL]
    assert calls and all(e.data["refused"] for e in calls)  # `safe` runs no process, for s0 too
    assert res.state.stop_reason == "no_evidence"


def test_s0_refused_command_is_not_counted_as_run(tmp_path):
    res, _ = s0("fetch the page", tmp_path, fenced("curl http://example.com"), "could not")
    r = evaluate_run(Scenario(id="d", input="q", must_run_commands=["curl"]), res)
    assert not r.passed and r.missing_commands == ["curl"]


def test_s0_llm_failure_is_a_named_stop_not_a_crash(tmp_path):
    res, _ = s0("q", tmp_path, LLMUnavailable("backend unreachable at http://127.0.0.1:1"))
    assert res.state.stop_reason == "llm_unavailable"
    assert "127.0.0.1:1" in res.state.final_answer


def test_s0_reply_without_a_command_is_a_named_stop(tmp_path):
    res, llm = s0("q", tmp_path, "I would look at the files first.")
    assert res.state.stop_reason == "command_generation_failed" and len(llm.calls) == 1
    assert "no command in the reply" in res.state.final_answer


def test_s0_asks_the_main_paths_free_text_request_and_takes_the_first_block(tmp_path):
    (tmp_path / "x.md").write_text("a\n")
    reply = "First:\n```sh\n$ wc -l x.md\n```\nor\n```sh\ncat x.md\n```"
    res, llm = s0("How many lines in x.md?", tmp_path, reply, "1 line")
    assert res.state.executed_steps[0].tool_call.args["command"] == "wc -l x.md"  # prompt "$ " dropped
    request = llm.calls[0]["messages"][-1]["content"]
    assert "```sh code block" in request and "./x.md" in request  # the worker's request, with the listing
    assert llm.calls[0]["schema"] is None  # free text: no JSON schema


def test_s0_json_asks_for_json_and_sees_the_engines_excerpt(tmp_path):
    (tmp_path / "x.md").write_text("a\nb\n")
    res, llm = s0("How many lines in x.md?", tmp_path, {"command": "wc -l x.md"}, "2 lines", strategy="s0_json")
    assert llm.calls[0]["schema"] is not None and res.state.stop_reason == "success"
    assert "2 x.md" in answer_prompt(llm) and res.strategy == "s0_json"


def test_s0_invalid_json_command_reply_is_repaired_once_then_a_named_stop(tmp_path):
    res, llm = s0("q", tmp_path, "not json", "still not json", strategy="s0_json")
    assert res.state.stop_reason == "command_generation_failed" and len(llm.calls) == 2
    assert "invalid" in llm.calls[1]["messages"][-1]["content"]
