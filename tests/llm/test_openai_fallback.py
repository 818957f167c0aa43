"""The json_schema → json_object fallback, against a loopback stub of a server without json_schema.

A stub, not a model: what is under test is our reaction to an HTTP 400, which no
real server here produces. Its reply text is the one the real SmolLM2 server gave
to the same question (tests/llm/cassettes/smollm2).
"""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from ragix_core.llm import LLMBadOutput
from ragix_core.llm.openai_compat import OpenAICompatClient

from .conformance import ADD, ANSWER_SCHEMA

RECORDED_TEXT = '{\n  "answer": 2\n}'  # SmolLM2 is fast, not good at sums


def _stub(reply_text: str):
    seen = []

    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args):  # keep test output clean
            pass

        def _send(self, code, body):
            data = json.dumps(body).encode()
            self.send_response(code)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def do_GET(self):
            self._send(200, {"object": "list", "data": [{"id": "stub", "object": "model"}]})

        def do_POST(self):
            body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
            seen.append(body)
            if body.get("response_format", {}).get("type") == "json_schema":
                self._send(400, {"error": {"message": "response_format json_schema is not supported", "type": "invalid_request_error"}})
                return
            self._send(200, {
                "id": "x", "object": "chat.completion", "created": 0, "model": "stub",
                "choices": [{"index": 0, "finish_reason": "stop", "message": {"role": "assistant", "content": reply_text}}],
                "usage": {"prompt_tokens": 30, "completion_tokens": 9, "total_tokens": 39},
            })

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, seen


@pytest.fixture
def stub():
    server, seen = _stub(RECORDED_TEXT)
    yield f"http://127.0.0.1:{server.server_address[1]}/v1", seen
    server.shutdown()


def test_falls_back_to_json_object_and_remembers(stub):
    url, seen = stub
    client = OpenAICompatClient("stub", base_url=url)
    out = client.complete(ADD, schema=ANSWER_SCHEMA, max_tokens=24)
    assert out.data == {"answer": 2} and out.meta["json_mode"] == "json_object"
    assert [r["response_format"]["type"] for r in seen] == ["json_schema", "json_object"]
    assert "JSON Schema" in seen[1]["messages"][0]["content"]  # the schema travels in the prompt instead
    client.complete(ADD, schema=ANSWER_SCHEMA, max_tokens=24)
    assert seen[-1]["response_format"]["type"] == "json_object"  # no second rejected attempt
    assert len(seen) == 3


def test_fallback_reply_is_still_checked_against_the_schema():
    server, _ = _stub('{"answer": "five"}')
    try:
        client = OpenAICompatClient("stub", base_url=f"http://127.0.0.1:{server.server_address[1]}/v1")
        with pytest.raises(LLMBadOutput, match="expected integer"):
            client.complete(ADD, schema=ANSWER_SCHEMA, max_tokens=24)
    finally:
        server.shutdown()
