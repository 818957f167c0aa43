"""`ragix chat` end to end through the real command, with scripted model replies.

The default orchestrator writes free text (``chat.decisions: free``; chat/free_form.py): a reply is a
```python block (run in the repl), a `SEARCH:` line, or the answer itself, with no writer call after it.
The replies below are scripted that way."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from ragix_core.chat.store import ChatStore
from ragix_core.cli import app
from ragix_core.chat.prompting import free_system
from tests.chat.conftest import Scripted as ScriptedLLM


@pytest.fixture()
def model(monkeypatch, home):
    """Every role's client is this scripted model (the real backends are never built)."""
    llm = ScriptedLLM([])
    monkeypatch.setattr("ragix_core.llm.roles.build_client", lambda settings: llm)
    return llm


@pytest.fixture()
def project(tmp_path):
    p = tmp_path / "proj"
    p.mkdir()
    return p


def chat(project, *args, input=None):
    return CliRunner().invoke(app, ["chat", "--cwd", str(project), *map(str, args)], input=input)


def test_one_message_as_json_then_a_follow_up_in_another_invocation(model, project, home):
    model.replies += ["Hello! How can I help?"]
    first = chat(project, "--session", "s1", "--json", "hi there")
    assert first.exit_code == 0, first.output
    out = json.loads(first.stdout)
    assert {"session_id", "thread_id", "final_answer", "reasoning", "tool_calls"} <= set(out)
    assert out["session_id"] == "s1" and out["final_answer"] == "Hello! How can I help?"
    # A free reply that answers is the step's thinking and the answer at once (a free step has no
    # confidence of its own: 50, as free_form.free_decision sets it); no writer call follows it.
    assert out["reasoning"] == [{"step": 1, "thinking": "Hello! How can I help?", "action": "answer",
                                 "confidence": 50, "missing_info": []}]
    assert out["tool_calls"] == [] and out["stop_reason"] == "success" and len(model.calls) == 1

    model.replies += ["You said hi."]
    second = chat(project, "--session", "s1", "--json", "what did I say first?")
    assert second.exit_code == 0, second.output
    prompt = model.calls[1]["messages"][1]["content"]  # the orchestrator's question turn, built from the store
    assert "User: hi there" in prompt and "Assistant: Hello! How can I help?" in prompt
    assert json.loads(second.stdout)["thread_id"] != out["thread_id"]
    assert ChatStore(home / "chat" / "sessions.sqlite").history("s1") == [
        ("hi there", "Hello! How can I help?"), ("what did I say first?", "You said hi.")]


def test_a_turn_with_documents_closes_their_index_when_it_ends(model, project, home, tmp_path, monkeypatch):
    from ragix_core.research.index import DocumentIndex

    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "a.md").write_text("# A\nThe answer is 42.\n")
    opened, closed = [], []
    real_open, real_close = DocumentIndex.open.__func__, DocumentIndex.close
    monkeypatch.setattr(DocumentIndex, "open", classmethod(lambda cls, *a, **k: opened.append(1) or real_open(cls, *a, **k)))
    monkeypatch.setattr(DocumentIndex, "close", lambda self: closed.append(1) or real_close(self))
    model.replies += ["SEARCH: answer", "42 [1]."]
    result = chat(project, "--session", "s1", "--docs", docs, "--json", "what is the answer?")
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["final_answer"] == "42 [1]."
    assert opened and len(closed) == len(opened)


def test_tool_calls_in_the_json_output(model, project, repl_box):
    # Free text computes through the repl (a ```python block); the operator tool is the JSON form's.
    model.replies += ["Multiply exactly.\n```python\nprint(347 * 29)\n```", "347 × 29 = 10063 [1]."]
    res = chat(project, "--json", "What is 347 times 29?")
    assert res.exit_code == 0, res.output
    out = json.loads(res.stdout)
    (call,) = out["tool_calls"]
    assert call["tool"] == "repl" and call["input"] == {"code": "print(347 * 29)"}
    assert call["output"].strip() == "10063" and call["error"] is None and call["step"] == 1
    assert out["reasoning"][0]["thinking"] == "Multiply exactly." and out["final_answer"] == "347 × 29 = 10063 [1]."
    assert out["citations"][0]["label"] == 1 and out["session_id"].startswith("chat-")


def test_list_show_delete(model, project):
    model.replies += ["Paris."]
    assert chat(project, "--session", "geo", "Capital of France?").exit_code == 0
    listed = chat(project, "--list", "--json")
    assert [s["session_id"] for s in json.loads(listed.stdout)] == ["geo"]
    shown = chat(project, "--show", "geo")
    assert shown.exit_code == 0 and "Capital of France?" in shown.stdout and "Paris." in shown.stdout
    shown_json = json.loads(chat(project, "--show", "geo", "--json").stdout)
    assert shown_json["threads"][0]["final_answer"] == "Paris."
    assert chat(project, "--delete", "geo").exit_code == 0
    assert chat(project, "--show", "geo").exit_code == 2
    gone = chat(project, "--delete", "geo")
    assert gone.exit_code == 2 and "no chat session 'geo'" in gone.output


@pytest.mark.parametrize("args,message", [
    (["--list", "hello"], "go alone"),
    (["--list", "--show", "x"], "go alone"),
    (["--json"], "--json needs a message"),
    (["--session", "../etc", "hi"], "contains '/'"),
    (["--docs", "/no/such/dir", "hi"], "is not a directory"),
    (["--profile", "root", "hi"], "unknown profile 'root'"),
])
def test_usage_errors_exit_2_with_a_message(model, project, args, message):
    res = chat(project, *args)
    assert res.exit_code == 2 and message in res.output and "Traceback" not in res.output


def test_a_bad_config_exits_2_naming_the_key(model, project):
    (project / "ragix.yaml").write_text("chat:\n  max_reasoning_step: 3\n")
    res = chat(project, "hi")
    assert res.exit_code == 2 and "chat.max_reasoning_step" in res.output


def test_a_run_that_does_not_succeed_exits_1(model, project):
    from ragix_core.llm.base import LLMUnavailable

    model.replies += [LLMUnavailable("down"), LLMUnavailable("down")]
    res = chat(project, "--json", "hi")
    assert res.exit_code == 1
    out = json.loads(res.stdout)
    assert out["stop_reason"] == "llm_unavailable" and out["final_answer"].startswith("No answer could be written")


def test_ctrl_c_in_one_message_mode_keeps_the_question_as_aborted(model, project, home):
    model.replies += [KeyboardInterrupt()]
    res = chat(project, "--session", "s", "a long question")
    assert res.exit_code == 130
    (thread,) = ChatStore(home / "chat" / "sessions.sqlite").threads("s")
    assert thread.stop_reason == "user_abort" and thread.question == "a long question"


def test_interactive_session_commands_and_ctrl_c(model, project, home):
    model.replies += ["Hi!", KeyboardInterrupt(), "Still here."]
    res = chat(project, "--session", "live", input="hello\n/steps\ninterrupt me\nare you there?\n/history\n"
                                                       "/bogus\n/new\n/quit\n")
    assert res.exit_code == 0, res.output
    out = res.output
    assert "Hi!" in out and "interrupted" in out and "Still here." in out
    assert "unknown command /bogus" in out and "new conversation: session chat-" in out
    store = ChatStore(home / "chat" / "sessions.sqlite")
    assert [t.stop_reason for t in store.threads("live")] == ["success", "user_abort", "success"]
    # The interrupted question is not history: the next question saw only the first exchange
    # (the last call is that question's orchestrator step: a free answer has no writer call).
    last_prompt = model.calls[-1]["messages"][1]["content"]
    assert "interrupt me" not in last_prompt and "are you there?" in last_prompt and "Hi!" in last_prompt


def test_safe_profile_offers_no_process_tools(monkeypatch, home, project):
    llm = ScriptedLLM(["```python\nprint(1)\n```"])
    monkeypatch.setattr("ragix_core.llm.roles.build_client", lambda settings: llm)
    (home / "ragix.yaml").write_text(
        "profile: safe\nllm:\n  default: {backend: openai, model: m, base_url: 'https://api.example.com/v1'}\n")
    res = chat(project, "--json", "hi")
    assert res.exit_code == 0, res.output
    out = json.loads(res.stdout)
    assert any("repl, operator: profile 'safe' starts no process" in n for n in out["notes"])
    # Free text: the model is not told to write programs, and a program it writes anyway is not run.
    assert llm.calls[0]["messages"][0]["content"] == free_system(["search"])
    assert "Python program" not in llm.calls[0]["messages"][0]["content"]
    assert out["tool_calls"] == [] and out["final_answer"] == "```python\nprint(1)\n```"


def test_an_empty_message_is_a_usage_error(model, project):
    res = chat(project, "   ")
    assert res.exit_code == 2 and "the message is empty" in res.output
