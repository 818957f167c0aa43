"""Malformed call arguments are a clear LLMError on every backend, before any I/O."""

from __future__ import annotations

import pytest

from ragix_core.llm import LLMError
from ragix_core.llm.embedded import EmbeddedClient
from ragix_core.llm.ollama import OllamaClient
from ragix_core.llm.openai_compat import OpenAICompatClient
from ragix_core.llm.replay import ReplayClient

OK = [{"role": "user", "content": "hi"}]


def _clients(tmp_path):
    # nothing listens on port 9 and the GGUF does not exist: a call that got past the checks would fail differently
    return [
        EmbeddedClient(str(tmp_path / "none.gguf")),
        OllamaClient("m", base_url="http://127.0.0.1:9"),
        OpenAICompatClient("m", base_url="http://127.0.0.1:9/v1"),
        ReplayClient(tmp_path, mode="replay", backend="embedded", model="m"),
    ]


@pytest.mark.parametrize(
    "messages, kwargs, fragment",
    [
        ("hello", {}, "non-empty list"),
        ([], {}, "non-empty list"),
        ([{"role": "user"}], {}, "message 0"),
        ([{"role": "wizard", "content": "x"}], {}, "message 0"),
        (OK, {"max_tokens": -1}, "max_tokens"),
        (OK, {"max_tokens": 0}, "max_tokens"),
        (OK, {"temperature": 9}, "temperature"),
    ],
)
def test_bad_arguments(tmp_path, messages, kwargs, fragment):
    for client in _clients(tmp_path):
        with pytest.raises(LLMError, match=fragment):
            client.complete(messages, **kwargs)
