"""A conversation continued by separate `ragix chat --session` processes.

Non-slow: the model's replies are cassettes recorded from the real default model
(Qwen2.5-Coder-1.5B-Instruct Q4_K_M) and replayed, so every process really
rebuilds the conversation from the SQLite store: a follow-up prompt that did not
carry the first answer would miss its cassette and fail.
Slow: the same two processes on the live model.

Re-record after changing a chat prompt, the decision schema or the tool set:
    RAGIX_RECORD=1 .venv/bin/python -m pytest tests/chat/test_processes.py -k replayed

The chat runs with its default orchestrator, which writes free text (``chat.decisions: free``). Recorded
so, the model answered both turns in words and wrote no program: "[1] 1234 * 56 = 6808", which ragix's
check of written-out arithmetic (chat/arithmetic.py) sent back with the computed value, then
"[1] 1234 * 56 = 69104"; and for the follow-up "69104 - 104 = 69000". So a turn need not call the repl:
it either has a repl/operator call that printed the number, or its final answer states the number with
no written-out arithmetic that the check finds wrong. Each final answer must hold the right number
(the follow-up's only from the first answer, which its prompt carries from the store).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from ragix_core.chat.arithmetic import wrong_arithmetic
from ragix_core.llm.models import DEFAULT_MODEL, models_dir
from ragix_core.llm.replay import RECORD_ENV
from ragix_core.tools.sandbox import Sandbox

ROOT = Path(__file__).resolve().parents[2]
CASSETTES = Path(__file__).resolve().parent / "cassettes"
QUESTIONS = ("What is 1234 times 56?", "And if you subtract 104 from that?")


def _needs_sandbox():
    if not Sandbox("/", "auto").confining:
        pytest.skip("no OS sandbox: the repl is left out, so the recorded prompts (tool list) would differ")


def _ask(project: Path, home: Path, session: str, question: str) -> dict:
    env = dict(os.environ, RAGIX_HOME=str(home), RAGIX_MODELS=str(models_dir()), PYTHONPATH=str(ROOT))
    proc = subprocess.run([sys.executable, "-m", "ragix_core.cli", "chat", "--cwd", str(project), "--session",
                           session, "--json", question], capture_output=True, text=True, env=env, timeout=1500)
    assert proc.returncode == 0, proc.stderr[-3000:]
    return json.loads(proc.stdout)


def _conversation(project: Path, home: Path):
    first = _ask(project, home, "arith", QUESTIONS[0])
    second = _ask(project, home, "arith", QUESTIONS[1])
    return first, second


def _check(first: dict, second: dict) -> None:
    assert first["session_id"] == second["session_id"] == "arith" and first["thread_id"] != second["thread_id"]
    for turn, expected in ((first, "69104"), (second, "69000")):
        assert turn["stop_reason"] == "success"
        assert expected in turn["final_answer"].replace(",", ""), turn["final_answer"]
        calls = [c for c in turn["tool_calls"] if c["tool"] in ("repl", "operator") and not c["error"]]
        computed = any(expected in (c["output"] or "").replace(",", "") for c in calls)
        # Free text may answer arithmetic in words (see the module docstring): then what it wrote out is right.
        assert computed or wrong_arithmetic(turn["final_answer"]) == [], (turn["tool_calls"], turn["final_answer"])
        assert turn["reasoning"] and all(r["thinking"] is not None for r in turn["reasoning"])


def test_separate_processes_continue_the_conversation_replayed(tmp_path):
    _needs_sandbox()
    project, home = tmp_path / "proj", tmp_path / "home"
    project.mkdir()
    home.mkdir()
    record = "record_backend: embedded, threads: 1, timeout: 900" if os.environ.get(RECORD_ENV) == "1" else ""
    # The user's own config: a project's ragix.yaml may not name a backend until trusted.
    (home / "ragix.yaml").write_text(
        f"llm:\n  default: {{backend: replay, model: {DEFAULT_MODEL}, cassette_dir: '{CASSETTES}'"
        + (f", {record}" if record else "") + "}\n")
    first, second = _conversation(project, home)
    _check(first, second)


@pytest.mark.slow
def test_separate_processes_continue_the_conversation_live(tmp_path, qwen_model):
    _needs_sandbox()
    project, home = tmp_path / "proj", tmp_path / "home"
    project.mkdir()
    home.mkdir()
    (home / "ragix.yaml").write_text("llm:\n  default: {timeout: 600}\n")  # a loaded machine is slow, not wrong
    first, second = _conversation(project, home)
    _check(first, second)


@pytest.fixture()
def qwen_model():
    from ragix_core.llm.base import LLMUnavailable
    from ragix_core.llm.models import resolve_model_path

    pytest.importorskip("xllamacpp")
    try:
        return resolve_model_path(DEFAULT_MODEL)
    except LLMUnavailable as exc:
        pytest.skip(f"model not installed: {exc}")
