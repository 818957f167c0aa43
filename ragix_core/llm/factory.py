"""Building a client from settings, and telling local backends from remote ones."""

from __future__ import annotations

import ipaddress
import os
from pathlib import Path
from typing import Any, Dict, Optional, Union
from urllib.parse import urlparse

from .base import LLMClient, LLMError
from .config import BackendSettings

__all__ = ["build_client", "make_client", "backend_is_local", "DEFAULT_CASSETTE_DIR"]

DEFAULT_CASSETTE_DIR = ".ragix/cassettes"


def backend_is_local(kind: str, base_url: Optional[str] = None) -> bool:
    """True when the model runs on this machine: embedded, or a server on a loopback address.

    The profile rules use this (sovereign = local only, safe = remote only). A
    server with no base_url uses its client's default: Ollama's is loopback,
    OpenAI's is the remote API. Names are not resolved (DNS could lie): only
    ``localhost`` and literal loopback addresses count as local.
    """
    if kind == "embedded":
        return True
    if kind == "replay":
        return True  # replays recorded text; nothing leaves the machine
    if not base_url:
        return kind == "ollama"
    host = (urlparse(base_url).hostname or "").lower().rstrip(".")
    if host == "localhost" or host.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def build_client(settings: BackendSettings) -> LLMClient:
    """A client for fully resolved settings (see ``LLMConfig.for_role``). Nothing is loaded yet."""
    kind = settings.backend
    if kind == "embedded":
        from .embedded import EmbeddedClient

        return EmbeddedClient(settings.model, n_ctx=settings.n_ctx, threads=settings.threads)
    if kind == "ollama":
        from .ollama import OllamaClient

        return OllamaClient(settings.model, base_url=settings.base_url, timeout=settings.timeout)
    if kind == "openai":
        from .openai_compat import OpenAICompatClient

        return OpenAICompatClient(settings.model, base_url=settings.base_url, api_key_env=settings.api_key_env,
                                  timeout=settings.timeout)
    if kind == "replay":
        from .replay import RECORD_ENV, ReplayClient

        inner = None
        cassettes = Path(settings.cassette_dir or DEFAULT_CASSETTE_DIR)
        if os.environ.get(RECORD_ENV) == "1":  # only then is a real backend needed (and loaded)
            inner = build_client(settings.model_copy(update={"backend": settings.record_backend}))
        return ReplayClient(cassettes, inner, backend=settings.record_backend, model=settings.model)
    raise LLMError(f"unknown LLM backend {kind!r}")


def make_client(spec: Union[str, Dict[str, Any], BackendSettings, None] = None, *,
                threads: Optional[int] = None) -> LLMClient:
    """Convenience: ``make_client("ollama:qwen2.5:7b")``, ``make_client({"backend": "openai", ...})``,
    ``make_client("/models/x.gguf")`` or ``make_client()`` for the embedded default. ``threads``: the
    embedded model's threads for a model given by name or path (None: every core)."""
    settings = _settings(spec)
    if threads and settings.backend == "embedded":  # a server's threads are its own
        settings = settings.model_copy(update={"threads": threads})
    return build_client(settings)


def _settings(spec: Union[str, Dict[str, Any], BackendSettings, None]) -> BackendSettings:
    if spec is None:
        return BackendSettings()
    if isinstance(spec, BackendSettings):
        return spec
    if isinstance(spec, dict):
        return BackendSettings.model_validate(spec)
    if isinstance(spec, str):
        kind, sep, model = spec.partition(":")
        if sep and kind in ("embedded", "ollama", "openai", "replay"):
            return BackendSettings(backend=kind, model=model)  # type: ignore[arg-type]
        return BackendSettings(backend="embedded", model=spec)
    raise TypeError(f"make_client: expected a str, dict or BackendSettings, not {type(spec).__name__}")
