"""The llm: config section, role resolution, shared clients, tracing and usage totals."""

from __future__ import annotations

import pytest

from ragix_core.config import ConfigError, parse_config
from ragix_core.core.events import EventBus, EventKind
from ragix_core.llm import (
    CassetteMissing,
    LLMConfig,
    Roles,
    backend_is_local,
    make_client,
)
from ragix_core.llm.embedded import EmbeddedClient
from ragix_core.llm.models import DEFAULT_MODEL, TEST_MODEL
from ragix_core.llm.ollama import OllamaClient
from ragix_core.llm.openai_compat import OpenAICompatClient

from .conformance import HELLO
from .conftest import CASSETTES

REPLAY = {"backend": "replay", "model": TEST_MODEL, "cassette_dir": str(CASSETTES / "smollm2")}


def test_defaults_are_the_embedded_model_for_every_role():
    roles = Roles(LLMConfig())
    for role in ("planner", "worker", "verifier", "tutor", "peer"):
        client = roles.get(role)
        assert client.backend == "embedded" and client.model == DEFAULT_MODEL
    # one underlying client (one model load) for all of them
    assert len({id(roles.get(r).inner) for r in ("planner", "worker", "verifier", "tutor", "peer")}) == 1


def test_role_override_merges_over_default():
    cfg = parse_config({"llm": {"default": {"temperature": 0.2}, "verifier": {"backend": "ollama", "model": "qwen2.5:7b"}}})
    s = cfg.llm.for_role("verifier")
    assert (s.backend, s.model, s.temperature) == ("ollama", "qwen2.5:7b", 0.2)
    roles = Roles(cfg.llm)
    assert isinstance(roles.get("verifier").inner, OllamaClient)
    assert isinstance(roles.get("planner").inner, EmbeddedClient)
    assert roles.get("planner").inner is not roles.get("verifier").inner


@pytest.mark.parametrize(
    "data, fragment",
    [
        ({"llm": {"planer": {}}}, "llm.planer: unknown key; allowed keys here: default, planner"),
        ({"llm": {"worker": {"backend": "vllm"}}}, "llm.worker.backend"),
        ({"llm": {"worker": {"base_url": "ftp://x"}}}, "base_url must start with http"),
        ({"llm": {"default": {"temperature": 5}}}, "llm.default.temperature"),
        ({"llm": {"tutor": {"threads": 0}}}, "llm.tutor.threads"),
    ],
)
def test_bad_config_is_a_clear_error(data, fragment):
    with pytest.raises(ConfigError) as info:
        parse_config(data)
    assert fragment in str(info.value)


def test_unknown_role_names_the_valid_ones():
    with pytest.raises(ValueError, match="planner, worker, verifier, tutor, peer"):
        Roles().get("critic")


def test_calls_publish_events_and_add_up_usage_per_role():
    bus = EventBus()
    events = []
    bus.subscribe(events.append)
    roles = Roles(LLMConfig.model_validate({"default": REPLAY}), bus=bus, session_id="s1")
    a = roles.get("planner").complete(HELLO, max_tokens=12)
    b = roles.get("planner").complete(HELLO, max_tokens=6)
    c = roles.get("worker").complete(HELLO, max_tokens=12)
    assert roles.usage["planner"] == a.usage + b.usage
    assert roles.usage["worker"] == c.usage
    assert roles.total() == a.usage + b.usage + c.usage
    assert [e.kind for e in events] == [EventKind.LLM_CALL] * 3
    first = events[0]
    assert first.session_id == "s1"
    assert first.data["role"] == "planner" and first.data["backend"] == "replay" and first.data["ok"] is True
    assert first.data["prompt_tokens"] == a.usage.prompt_tokens > 0
    assert first.data["completion_tokens"] == a.usage.completion_tokens > 0


def test_failed_call_publishes_an_error_event_and_raises():
    bus = EventBus()
    events = []
    bus.subscribe(events.append)
    roles = Roles(LLMConfig.model_validate({"default": REPLAY}), bus=bus)
    with pytest.raises(CassetteMissing):
        roles.get("tutor").complete(HELLO, max_tokens=999)
    assert events[-1].data["ok"] is False and "CassetteMissing" in events[-1].data["error"]
    assert events[-1].data["latency"] >= 0
    assert "tutor" not in roles.usage


def test_a_reply_that_fails_its_schema_is_counted_and_kept():
    """A cut JSON reply (replayed from the real SmolLM2 cut at two tokens) cost tokens: they go into the
    role's totals and the event, like any call's; errors before a reply (above) add nothing."""
    from ragix_core.llm import LLMBadOutput

    from .conformance import ADD, ANSWER_SCHEMA

    bus = EventBus()
    events = []
    bus.subscribe(events.append)
    roles = Roles(LLMConfig.model_validate({"default": REPLAY}), bus=bus, include_prompts=True)
    with pytest.raises(LLMBadOutput) as info:
        roles.get("planner").complete(ADD, schema=ANSWER_SCHEMA, max_tokens=2)
    cost = info.value.usage
    assert cost.prompt_tokens > 0 and cost.completion_tokens == 2
    assert roles.usage["planner"] == cost and roles.summary()["completion_tokens"] == 2
    event = events[-1].data
    assert event["ok"] is False and (event["prompt_tokens"], event["completion_tokens"]) == (cost.prompt_tokens, 2)
    assert event["reply"] == info.value.text


def test_role_defaults_apply_when_the_caller_passes_nothing():
    cfg = LLMConfig.model_validate({"default": {**REPLAY, "max_tokens": 12}})
    out = Roles(cfg).get("peer").complete(HELLO)  # replays the max_tokens=12 cassette
    assert out.usage.completion_tokens == 12


@pytest.mark.parametrize(
    "kind, url, local",
    [
        ("embedded", None, True),
        ("replay", None, True),
        ("ollama", None, True),
        ("ollama", "http://127.0.0.1:11434", True),
        ("openai", "http://localhost:8080/v1", True),
        ("openai", "http://[::1]:8080/v1", True),
        ("openai", "http://127.8.9.10:8080/v1", True),
        ("openai", None, False),
        ("openai", "https://api.openai.com/v1", False),
        ("ollama", "http://192.168.1.20:11434", False),
        ("openai", "http://localhost.evil.example/v1", False),
        ("openai", "http://127.0.0.1.nip.io/v1", False),
    ],
)
def test_backend_is_local(kind, url, local):
    assert backend_is_local(kind, url) is local


def test_make_client_specs(tmp_path):
    assert isinstance(make_client(), EmbeddedClient)
    assert make_client("ollama:qwen2.5:7b").model == "qwen2.5:7b"
    c = make_client({"backend": "openai", "model": "m", "base_url": "http://127.0.0.1:9/v1"})
    assert isinstance(c, OpenAICompatClient) and c.base_url == "http://127.0.0.1:9/v1"
    gguf = tmp_path / "x.gguf"
    assert make_client(str(gguf)).model == str(gguf)
    with pytest.raises(TypeError):
        make_client(42)  # type: ignore[arg-type]
