"""Conformance of the openai backend against llama.cpp's real HTTP server on loopback."""

from __future__ import annotations

import pytest

from ragix_core.llm.openai_compat import OpenAICompatClient

from .conformance import Conformance

pytestmark = pytest.mark.slow


class TestOpenAICompatConformance(Conformance):
    @pytest.fixture
    def client(self, loopback_server):
        return OpenAICompatClient("smollm2", base_url=loopback_server)

    @pytest.fixture
    def endpoint(self, dead_url):
        return dead_url

    @pytest.fixture
    def down_client(self, dead_url):
        return OpenAICompatClient("smollm2", base_url=dead_url)

    @pytest.fixture
    def unknown_client(self, loopback_server):
        return OpenAICompatClient("no-such-model-7b", base_url=loopback_server)


def test_schema_reply_says_which_json_mode_was_used(loopback_server):
    from .conformance import ADD, ANSWER_SCHEMA

    out = OpenAICompatClient("smollm2", base_url=loopback_server).complete(ADD, schema=ANSWER_SCHEMA, max_tokens=24)
    assert out.meta["json_mode"] == "json_schema"  # llama.cpp's server accepts json_schema: no fallback


def test_missing_api_key_env_is_a_clear_error(monkeypatch):
    from ragix_core.llm import LLMUnavailable

    monkeypatch.delenv("RAGIX_TEST_NO_SUCH_KEY", raising=False)
    with pytest.raises(LLMUnavailable, match="RAGIX_TEST_NO_SUCH_KEY"):
        OpenAICompatClient("m", base_url="http://127.0.0.1:9/v1", api_key_env="RAGIX_TEST_NO_SUCH_KEY")


def test_cached_prompt_tokens_reported_by_the_server_reach_usage():
    from tests.scripted_openai import scripted_openai_server

    with scripted_openai_server(lambda request: "hi", usage=(30, 2), cached=24) as server:
        out = OpenAICompatClient("scripted", base_url=server.url).complete(
            [{"role": "user", "content": "hello"}], max_tokens=4)
    assert (out.usage.prompt_tokens, out.usage.cached_tokens) == (30, 24)
    with scripted_openai_server(lambda request: "hi", usage=(30, 2)) as server:  # a server that does not say
        out = OpenAICompatClient("scripted", base_url=server.url).complete(
            [{"role": "user", "content": "hello"}], max_tokens=4)
    assert out.usage.cached_tokens == 0
