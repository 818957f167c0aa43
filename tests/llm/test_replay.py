"""Conformance of the replay backend on cassettes recorded from the real embedded SmolLM2.

Re-record (after changing a prompt or a parameter in conformance.py):
    RAGIX_RECORD=1 .venv/bin/python -m pytest tests/llm/test_replay.py
"""

from __future__ import annotations

import json
import os

import pytest

from ragix_core.llm import CassetteMissing, LLMError
from ragix_core.llm.models import TEST_MODEL
from ragix_core.llm.replay import RECORD_ENV, ReplayClient, cassette_key

from .conformance import HELLO, Conformance
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


def test_replayed_reply_is_the_recorded_one():
    client = ReplayClient(SMOL_CASSETTES, mode="replay", backend="embedded", model=TEST_MODEL)
    out = client.complete(HELLO, max_tokens=12)
    key = cassette_key("embedded", TEST_MODEL, HELLO, None, 12, 0.0)
    recorded = json.loads((SMOL_CASSETTES / f"{key}.json").read_text(encoding="utf-8"))
    assert out.text == recorded["reply"]["text"]
    assert out.backend == "replay" and out.meta["replayed_from"] == "embedded"


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
