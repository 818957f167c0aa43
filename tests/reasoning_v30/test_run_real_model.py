"""`ragix run` end to end with the embedded default model (Qwen2.5-Coder-1.5B) and real confined tools.

Few and focused: each test is one real run over a copy of the spec's mock repo.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from ragix_core.core.events import EventKind
from ragix_core.runtime.run import run_goal

MOCK_REPO = Path(__file__).parent / "fixtures" / "mock_repo"

pytestmark = pytest.mark.slow


@pytest.fixture()
def repo(tmp_path: Path) -> Path:
    dst = tmp_path / "repo"
    shutil.copytree(MOCK_REPO, dst)
    # The global corpus goes to a temporary dir through the config, not RAGIX_HOME: RAGIX_HOME
    # also holds the assembled model, which must not be rebuilt (1.1 GB) for every test.
    (dst / "ragix.yaml").write_text(f"reasoning:\n  experience:\n    global_root: {tmp_path / 'global'}\n")
    return dst


def commands_run(result) -> list:
    return [e.data.get("command") or "" for e in result.events
            if e.kind == EventKind.TOOL_CALL and not e.data.get("refused")]


def test_largest_markdown_file_is_named_with_its_line_count(repo: Path):
    result = run_goal("Find the largest markdown file in this repo by line count", cwd=repo)
    state = result.state
    assert state.stop_reason == "success", (state.stop_reason, state.last_error, state.final_answer)
    answer = state.final_answer.lower()
    assert "guide.md" in answer and "120" in answer
    ran = " ".join(commands_run(result))
    assert "find" in ran and "wc" in ran
    assert result.trace_path and result.trace_path.is_file()


def test_bypass_question_is_answered_without_any_tool_call(repo: Path):
    goal = "Explain the difference between cyclomatic complexity and cognitive complexity."
    result = run_goal(goal, cwd=repo)
    state = result.state
    assert state.stop_reason == "success"
    assert state.complexity.value == "bypass"
    assert commands_run(result) == []
    answer = state.final_answer.lower()
    assert "cyclomatic" in answer and "cognitive" in answer


def test_cli_json_output_and_exit_code(repo: Path):
    env = dict(os.environ)
    proc = subprocess.run([sys.executable, "-m", "ragix_core.cli", "run", "--json", "--cwd", str(repo),
                           "How many lines does README.md have?"],
                          capture_output=True, text=True, env=env, timeout=900)
    import json

    out = json.loads(proc.stdout)
    assert proc.returncode == (0 if out["stop_reason"] == "success" else 1)
    for key in ("stop_reason", "complexity", "final_answer", "confidence", "plan", "reflections", "session_id",
                "usage", "wall_time"):
        assert key in out
    assert out["usage"]["llm_calls"] >= 1
    assert "19" in out["final_answer"]
