"""A run whose answer rests on no successful tool output is not a success.

Reproduces the report as a new user met it: an OpenAI-compatible server on loopback
(here a scripted one, reached through the official openai client) whose every
command names a missing file. Before, `ragix run` exited 0 with stop_reason
`success` and the server's raw JSON as the answer.
"""

from __future__ import annotations

import json
from typing import Iterator

import pytest
from typer.testing import CliRunner

from ragix_core.cli import app
from tests.scripted_openai import response_schema, scripted_openai_server

COMMAND = {"command": "cat missing-notes.txt"}
PLAN = {"objective": "read it", "validation": "v", "confidence": 0.5,
        "steps": [{"num": 1, "description": "read", "tool": "cat", "args": COMMAND}]}


def _answer(request: dict) -> str:
    """A plan names the missing file; every other call (a command draw) is the same command, as JSON."""
    return json.dumps(PLAN if "steps" in json.dumps(response_schema(request)) else COMMAND)


@pytest.fixture()
def server() -> Iterator[str]:
    with scripted_openai_server(_answer, usage=(11, 7)) as s:
        yield s.url


def _run(tmp_path, server, monkeypatch, reasoning: str = ""):
    """`ragix run --json` on a project without the file the goal names; ``reasoning``: more config lines."""
    monkeypatch.setenv("RAGIX_HOME", str(tmp_path / "home"))
    project = tmp_path / "project"
    project.mkdir()
    (project / "readme.md").write_text("hello\n")
    # The user's own config (--config), not the project's: a project file may not name an endpoint.
    config = tmp_path / "user.yaml"
    config.write_text(f"llm:\n  default: {{backend: openai, model: scripted, base_url: \"{server}\"}}\n"
                      f"reasoning:\n{reasoning}  voting: {{samples: 1}}\n  max_reflections: {{moderate: 0}}\n")
    result = CliRunner().invoke(app, ["run", "--cwd", str(project), "--config", str(config), "--json",
                                      "How many lines does notes.txt have?"])
    return result, json.loads(result.stdout)


def test_all_commands_failing_is_not_a_success_and_exit_1(tmp_path, server, monkeypatch):
    result, out = _run(tmp_path, server, monkeypatch)
    assert out["stop_reason"] == "no_evidence", out  # no plan after the failed attempt (plan_after_failure off)
    assert result.exit_code == 1
    # the command ran once: a command the model repeats is not run again
    assert len(out["executed_steps"]) == 1 and out["executed_steps"][0]["status"] == "failed"
    assert out["final_answer"].startswith("## Partial Results")
    assert "missing-notes.txt does not exist and no file in the project has a similar name" in out["final_answer"]
    # the greedy draw, one sample, two retries each repeating it and drawn once more; no answer is composed
    assert out["usage"]["llm_calls"] == 6


def test_with_plan_after_failure_the_repeated_plan_is_refused_and_the_run_fails(tmp_path, server, monkeypatch):
    result, out = _run(tmp_path, server, monkeypatch, reasoning="  plan_after_failure: true\n")
    assert out["stop_reason"] == "no_new_plan", out  # the plan after the failed attempt repeats its command
    assert result.exit_code == 1 and len(out["executed_steps"]) == 1
    assert json.dumps(COMMAND) not in out["final_answer"].split("### What Was Tried")[0]
    # the greedy draw, one sample, two retries (each redrawn once), a plan and the plan asked again without
    # the failed command
    assert out["usage"]["llm_calls"] == 8
