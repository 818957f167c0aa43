"""A run whose answer rests on no successful tool output is not a success.

Reproduces the report as a new user met it: an OpenAI-compatible server on loopback
(here a scripted one, reached through the official openai client) whose every
command names a missing file. Before, `ragix run` exited 0 with stop_reason
`success` and the server's raw JSON as the answer.
"""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Iterator

import pytest
from typer.testing import CliRunner

from ragix_core.cli import app

COMMAND = {"command": "cat missing-notes.txt"}


class _Handler(BaseHTTPRequestHandler):
    """Answers chat completions by the schema asked for; free text gets the command's JSON text."""

    def log_message(self, *args):  # keep test output clean
        pass

    def _send(self, body: dict) -> None:
        data = json.dumps(body).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self):
        self._send({"object": "list", "data": [{"id": "scripted", "object": "model", "owned_by": "test"}]})

    def do_POST(self):
        request = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        schema = json.dumps((request.get("response_format") or {}).get("json_schema") or {})
        reply = {"complexity": "SIMPLE"} if "complexity" in schema else COMMAND
        self._send({"id": "x", "object": "chat.completion", "created": 0, "model": "scripted",
                    "choices": [{"index": 0, "finish_reason": "stop",
                                 "message": {"role": "assistant", "content": json.dumps(reply)}}],
                    "usage": {"prompt_tokens": 11, "completion_tokens": 7, "total_tokens": 18}})


@pytest.fixture()
def server() -> Iterator[str]:
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}/v1"
    httpd.shutdown()


def test_all_commands_failing_is_no_evidence_and_exit_1(tmp_path, server, monkeypatch):
    monkeypatch.setenv("RAGIX_HOME", str(tmp_path / "home"))
    project = tmp_path / "project"
    project.mkdir()
    (project / "readme.md").write_text("hello\n")
    # The user's own config (--config), not the project's: a project file may not name an endpoint.
    config = tmp_path / "user.yaml"
    config.write_text(f"llm:\n  default: {{backend: openai, model: scripted, base_url: \"{server}\"}}\n")
    result = CliRunner().invoke(app, ["run", "--cwd", str(project), "--config", str(config), "--json",
                                      "How many lines does notes.txt have?"])
    out = json.loads(result.stdout)
    assert out["stop_reason"] == "no_evidence", out
    assert result.exit_code == 1
    # the command ran once: a command the model repeats is not run again
    assert len(out["executed_steps"]) == 1 and out["executed_steps"][0]["status"] == "failed"
    assert out["final_answer"].startswith("## Partial Results")
    assert json.dumps(COMMAND) not in out["final_answer"].split("### What Was Tried")[0]
    # classify and three command draws (the default vote); no answer is composed from nothing
    assert out["usage"]["llm_calls"] == 4
