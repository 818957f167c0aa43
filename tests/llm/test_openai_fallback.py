"""The json_schema → json_object fallback, against a loopback stub of a server without json_schema.

A stub, not a model: what is under test is our reaction to an HTTP 400, which no
real server here produces. Its reply text is the one the real SmolLM2 server gave
to the same question (tests/llm/cassettes/smollm2).
"""

from __future__ import annotations

import pytest

from ragix_core.llm import LLMBadOutput
from ragix_core.llm.openai_compat import OpenAICompatClient
from tests.scripted_openai import scripted_openai_server

from .conformance import ADD, ANSWER_SCHEMA

RECORDED_TEXT = '{\n  "answer": 2\n}'  # SmolLM2 is fast, not good at sums


def _no_json_schema(reply_text: str):
    """A server that rejects response_format json_schema with HTTP 400, as some do."""
    def answer(request: dict):
        if request.get("response_format", {}).get("type") == "json_schema":
            return 400, {"error": {"message": "response_format json_schema is not supported",
                                   "type": "invalid_request_error"}}
        return reply_text
    return answer


@pytest.fixture
def stub():
    with scripted_openai_server(_no_json_schema(RECORDED_TEXT), model="stub", usage=(30, 9)) as server:
        yield server.url, server.requests


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
    with scripted_openai_server(_no_json_schema('{"answer": "five"}'), model="stub") as server:
        client = OpenAICompatClient("stub", base_url=server.url)
        with pytest.raises(LLMBadOutput, match="expected integer"):
            client.complete(ADD, schema=ANSWER_SCHEMA, max_tokens=24)
