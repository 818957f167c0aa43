"""Conformance of the replay backend on cassettes recorded from the real embedded SmolLM2.

Re-record (after changing a prompt or a parameter in conformance.py):
    RAGIX_RECORD=1 .venv/bin/python -m pytest tests/llm/test_replay.py
"""

from __future__ import annotations

import json
import os

import pytest

from ragix_core.llm import CassetteMissing, LLMBadOutput, LLMError, Usage
from ragix_core.llm.base import Completion
from ragix_core.llm.models import TEST_MODEL
from ragix_core.llm.replay import RECORD_ENV, ReplayClient, cassette_key

from .conformance import ADD, ANSWER_SCHEMA, HELLO, SYSTEM, Conformance
from .conftest import CASSETTES

SMOL_CASSETTES = CASSETTES / "smollm2"


class TestReplayConformance(Conformance):
    @pytest.fixture
    def client(self, request):
        if os.environ.get(RECORD_ENV) == "1":
            inner = request.getfixturevalue("smol_embedded")  # the real model, only when recording
            return ReplayClient(SMOL_CASSETTES, inner, mode="record")
        return ReplayClient(SMOL_CASSETTES, mode="replay", backend="embedded", model=TEST_MODEL)

    def test_timeout(self, client):
        pytest.skip("replay returns recorded text without computing: there is no call to time out")

    def test_unavailable_names_endpoint(self, tmp_path):
        """Replay's 'endpoint' is its cassette dir: a missing recording says where and how to record."""
        client = ReplayClient(tmp_path, mode="replay", backend="embedded", model=TEST_MODEL)
        with pytest.raises(CassetteMissing) as info:
            client.complete(HELLO, max_tokens=4)
        key = cassette_key("embedded", TEST_MODEL, HELLO, None, 4, 0.0)
        message = str(info.value)
        assert key in message and str(tmp_path) in message and RECORD_ENV in message

    def test_unknown_model(self):
        client = ReplayClient(SMOL_CASSETTES, mode="replay", backend="embedded", model="no-such-model-7b")
        with pytest.raises(CassetteMissing, match="no-such-model-7b"):
            client.complete(HELLO, max_tokens=12)


class Numbered:
    """A stand-in model whose n-th reply is "reply n": which recording came back is visible."""

    backend, model = "embedded", "m"

    def __init__(self):
        self.calls = []

    def complete(self, messages, *, schema=None, max_tokens=512, temperature=0.0, timeout=None):
        self.calls.append(messages)
        n = len(self.calls)
        return Completion(text=f"reply {n}", data={"answer": n} if schema else None, usage=Usage(10 + n, n),
                          latency=0.25, model=self.model, backend=self.backend, meta={"path": "/local/model.gguf"})


def test_record_then_replay_returns_each_reply_for_its_own_request_only(tmp_path):
    inner = Numbered()
    recorder = ReplayClient(tmp_path, inner, mode="record")
    assert recorder.complete(HELLO, max_tokens=12).text == "reply 1"
    assert recorder.complete(ADD, schema=ANSWER_SCHEMA, max_tokens=24).text == "reply 2"
    # one file per request, named by the key derived from that request
    keys = {cassette_key("embedded", "m", HELLO, None, 12, 0.0), cassette_key("embedded", "m", ADD, ANSWER_SCHEMA, 24, 0.0)}
    assert {p.stem for p in tmp_path.glob("*.json")} == keys
    assert "/local/model.gguf" not in "".join(p.read_text() for p in tmp_path.glob("*.json"))  # no local paths

    replay = ReplayClient(tmp_path, mode="replay", backend="embedded", model="m")
    out = replay.complete(ADD, schema=ANSWER_SCHEMA, max_tokens=24)
    assert (out.text, out.data, out.usage.prompt_tokens, out.backend) == ("reply 2", {"answer": 2}, 12, "replay")
    assert replay.complete(HELLO, max_tokens=12).text == "reply 1"
    # what does not shape the reply does not change the key: the timeout, key order, extra message keys
    reordered = [{"content": m["content"], "role": m["role"], "name": "x"} for m in HELLO]
    assert replay.complete(reordered, max_tokens=12, timeout=0.5).text == "reply 1"

    # anything that shapes the reply is another request: a miss, never a neighbour's reply
    other_user = [SYSTEM, {"role": "user", "content": "Say hello!"}]
    swapped_roles = [{"role": "user", "content": SYSTEM["content"]}, HELLO[1]]
    misses = [
        (replay, other_user, {"max_tokens": 12}),
        (replay, swapped_roles, {"max_tokens": 12}),
        (replay, HELLO, {"max_tokens": 13}),
        (replay, HELLO, {"max_tokens": 12, "temperature": 0.5}),
        (replay, HELLO, {"max_tokens": 12, "schema": ANSWER_SCHEMA}),
        (replay, ADD, {"max_tokens": 24}),  # the recorded request had a schema
        (ReplayClient(tmp_path, mode="replay", backend="embedded", model="m2"), HELLO, {"max_tokens": 12}),
        (ReplayClient(tmp_path, mode="replay", backend="ollama", model="m"), HELLO, {"max_tokens": 12}),
    ]
    for client, messages, kw in misses:
        with pytest.raises(CassetteMissing) as info:
            client.complete(messages, **kw)
        key = cassette_key(client.recorded_backend, client.model, messages, kw.get("schema"), kw["max_tokens"],
                           kw.get("temperature", 0.0))
        assert key not in keys and key in str(info.value) and RECORD_ENV in str(info.value), kw
    assert len(inner.calls) == 2  # replay never called the model


def test_each_shipped_cassette_is_found_by_the_request_it_records():
    paths = sorted(SMOL_CASSETTES.glob("*.json"))
    assert len(paths) >= 3
    for path in paths:
        rec = json.loads(path.read_text(encoding="utf-8"))
        req = rec["request"]
        key = cassette_key(rec["backend"], rec["model"], req["messages"], req["schema"], req["max_tokens"],
                           req["temperature"])
        assert path.stem == rec["key"] == key, path.name  # a key change would orphan every recording
        client = ReplayClient(SMOL_CASSETTES, mode="replay", backend=rec["backend"], model=rec["model"])
        ask = dict(schema=req["schema"], max_tokens=req["max_tokens"], temperature=req["temperature"])
        if "error" in rec["reply"]:  # a reply that failed as recorded fails again, at the recorded cost
            with pytest.raises(LLMBadOutput) as info:
                client.complete(req["messages"], **ask)
            assert str(info.value) == rec["reply"]["error"] and info.value.text == rec["reply"]["text"]
            assert info.value.usage.completion_tokens == rec["reply"]["usage"]["completion_tokens"] > 0
            continue
        out = client.complete(req["messages"], **ask)
        assert out.meta["cassette"] == str(path) and out.meta["replayed_from"] == "embedded"


def test_requests_that_differ_only_in_max_tokens_get_their_own_recordings():
    client = ReplayClient(SMOL_CASSETTES, mode="replay", backend="embedded", model=TEST_MODEL)
    short, longer = client.complete(HELLO, max_tokens=6), client.complete(HELLO, max_tokens=12)
    assert short.meta["cassette"] != longer.meta["cassette"]
    assert short.text != longer.text and longer.text.startswith(short.text)  # greedy decoding, cut earlier


def test_key_depends_on_what_shapes_the_reply():
    base = cassette_key("embedded", "m", HELLO, None, 12, 0.0)
    assert base != cassette_key("embedded", "m", HELLO, None, 13, 0.0)
    assert base != cassette_key("embedded", "m", HELLO, {"type": "object"}, 12, 0.0)
    assert base != cassette_key("ollama", "m", HELLO, None, 12, 0.0)
    assert base == cassette_key("embedded", "m", [dict(m) for m in HELLO], None, 12, 0.0)


def test_malformed_cassette_is_a_clear_error(tmp_path):
    key = cassette_key("embedded", "m", HELLO, None, 4, 0.0)
    (tmp_path / f"{key}.json").write_text("{not json", encoding="utf-8")
    client = ReplayClient(tmp_path, mode="replay", backend="embedded", model="m")
    with pytest.raises(LLMError, match="malformed"):
        client.complete(HELLO, max_tokens=4)


def test_record_mode_needs_a_real_client(tmp_path):
    with pytest.raises(LLMError, match="record mode"):
        ReplayClient(tmp_path, mode="record")


def test_auto_mode_never_calls_live_without_the_env(tmp_path, monkeypatch):
    monkeypatch.delenv(RECORD_ENV, raising=False)

    class Exploding:
        backend, model = "embedded", "m"

        def complete(self, *a, **k):  # pragma: no cover - must not be reached
            raise AssertionError("live call in replay mode")

    client = ReplayClient(tmp_path, Exploding(), mode="auto")
    with pytest.raises(CassetteMissing):
        client.complete(HELLO, max_tokens=4)
