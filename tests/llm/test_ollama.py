"""Conformance of the ollama backend with the official client.

No Ollama server can be installed here (neither PyPI nor Debian ships one), so
only the error path runs for real: the client against a loopback port where
nothing listens. If an Ollama server is reachable (OLLAMA_HOST or the default)
and RAGIX_TEST_OLLAMA_MODEL names a pulled model, the whole suite runs on it.
"""

from __future__ import annotations

import os

import pytest

from ragix_core.llm.ollama import DEFAULT_OLLAMA_HOST, OllamaClient

from .conformance import Conformance

NO_SERVER = "no Ollama server here (none on PyPI or Debian); set OLLAMA_HOST + RAGIX_TEST_OLLAMA_MODEL to run"


def _live_model() -> str:
    model = os.environ.get("RAGIX_TEST_OLLAMA_MODEL")
    if not model:
        pytest.skip(NO_SERVER)
    return model


class TestOllamaConformance(Conformance):
    @pytest.fixture
    def client(self):
        return OllamaClient(_live_model(), base_url=os.environ.get("OLLAMA_HOST") or DEFAULT_OLLAMA_HOST)

    @pytest.fixture
    def endpoint(self, dead_url):
        return dead_url.removesuffix("/v1")

    @pytest.fixture
    def down_client(self, endpoint):
        return OllamaClient("qwen2.5:0.5b", base_url=endpoint)

    @pytest.fixture
    def unknown_client(self):
        _live_model()
        return OllamaClient("no-such-model-7b", base_url=os.environ.get("OLLAMA_HOST") or DEFAULT_OLLAMA_HOST)
