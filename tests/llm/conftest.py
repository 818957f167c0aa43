"""Fixtures for the LLM tests: real models loaded once per session, a real loopback server."""

from __future__ import annotations

import socket
import subprocess
import sys
from pathlib import Path
from typing import Iterator

import pytest

from ragix_core.llm.base import LLMUnavailable
from ragix_core.llm.models import DEFAULT_MODEL, TEST_MODEL, resolve_model_path

HERE = Path(__file__).resolve().parent
CASSETTES = HERE / "cassettes"


def _model_or_skip(name: str) -> str:
    try:
        return str(resolve_model_path(name))
    except LLMUnavailable as exc:
        pytest.skip(f"model not installed: {exc}")


@pytest.fixture(scope="session")
def smol_path() -> str:
    return _model_or_skip(TEST_MODEL)


@pytest.fixture(scope="session")
def qwen_path() -> str:
    return _model_or_skip(DEFAULT_MODEL)


@pytest.fixture(scope="session")
def smol_embedded(smol_path):
    pytest.importorskip("xllamacpp")
    from ragix_core.llm.embedded import EmbeddedClient

    client = EmbeddedClient(TEST_MODEL, n_ctx=2048)
    client.load()  # once per session: later clients with the same key reuse it
    return client


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="session")
def dead_url() -> str:
    """A loopback URL where nothing listens (the port was free a moment ago)."""
    return f"http://127.0.0.1:{free_port()}/v1"


@pytest.fixture(scope="session")
def loopback_server(smol_path) -> Iterator[str]:
    """llama.cpp's OpenAI-compatible server on loopback, serving SmolLM2 as model 'smollm2'."""
    pytest.importorskip("xllamacpp")
    proc = subprocess.Popen(
        [sys.executable, str(HERE / "loopback_server.py"), smol_path, "smollm2"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        line = proc.stdout.readline() if proc.stdout else ""
        if not line.startswith("READY "):
            pytest.fail(f"loopback server did not start (exit {proc.poll()}, said {line!r})")
        yield line.split()[1] + "/v1"
    finally:
        if proc.stdin:
            proc.stdin.close()
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
