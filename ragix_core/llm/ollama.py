"""An Ollama server through the official ``ollama`` client.

``format=<json schema>`` asks Ollama for constrained decoding; the reply is
still parsed and checked locally. The client has no per-call timeout, so one
client is kept per timeout value (httpx clients are cheap and thread-safe).
"""

from __future__ import annotations

import os
import threading
import time
from typing import Any, Dict, List, Optional, Sequence

from .base import (Completion, LLMError, LLMTimeout, LLMUnavailable, LLMUnknownModel, Message, Until, Usage, cut_at_stop,
                   cut_until)
from .jsonout import check_schema
from .request import check_request

__all__ = ["OllamaClient", "DEFAULT_OLLAMA_HOST"]

DEFAULT_OLLAMA_HOST = "http://127.0.0.1:11434"


class OllamaClient:
    backend = "ollama"

    def __init__(self, model: str, *, base_url: Optional[str] = None, timeout: Optional[float] = 120.0) -> None:
        try:
            import ollama  # the official client (absolute import: this module is ragix_core.llm.ollama)
        except ImportError:
            raise LLMUnavailable("ollama backend: the 'ollama' package is not installed; "
                                 "install with: pip install 'ragix[servers]'") from None
        self._ollama = ollama
        self.model = model
        self.host = (base_url or os.environ.get("OLLAMA_HOST") or DEFAULT_OLLAMA_HOST).rstrip("/")
        self.default_timeout = timeout
        self._clients: Dict[Optional[float], Any] = {}
        self._lock = threading.Lock()

    @property
    def where(self) -> str:
        return f"ollama backend at {self.host} (model {self.model})"

    def _client(self, timeout: Optional[float]) -> Any:
        with self._lock:
            client = self._clients.get(timeout)
            if client is None:
                client = self._ollama.Client(host=self.host, timeout=timeout)
                self._clients[timeout] = client
            return client

    def complete(
        self,
        messages: List[Message],
        *,
        schema: Optional[Dict[str, Any]] = None,
        max_tokens: int = 512,
        temperature: float = 0.0,
        timeout: Optional[float] = None,
        seed: Optional[int] = None,
        stop: Optional[Sequence[str]] = None,
        until: Optional[Until] = None,
    ) -> Completion:
        import httpx  # a dependency of the ollama client; its timeouts surface unwrapped

        check_request(messages, max_tokens, temperature, self.where)
        client = self._client(timeout if timeout is not None else self.default_timeout)
        start = time.monotonic()
        try:
            resp = client.chat(
                model=self.model,
                messages=[{"role": m["role"], "content": m["content"]} for m in messages],
                format=schema or None,
                options={"temperature": float(temperature), "num_predict": int(max_tokens),
                         **({"seed": int(seed)} if seed is not None else {}),
                         **({"stop": [s for s in stop if s]} if stop else {})},
            )
        except ConnectionError:  # the client's own translation of httpx.ConnectError
            raise LLMUnavailable(f"{self.where}: cannot connect to the Ollama server at {self.host} "
                                 f"(is `ollama serve` running? set llm.*.base_url or OLLAMA_HOST)") from None
        except httpx.TimeoutException:
            raise LLMTimeout(f"{self.where}: no reply within {timeout}s") from None
        except httpx.HTTPError as exc:
            raise LLMUnavailable(f"{self.where}: transport error talking to {self.host}: {exc}") from None
        except self._ollama.ResponseError as exc:
            if exc.status_code == 404:
                raise LLMUnknownModel(f"{self.where}: unknown model (try `ollama pull {self.model}`): {exc.error}") from None
            raise LLMError(f"{self.where}: HTTP {exc.status_code}: {exc.error}") from None
        latency = time.monotonic() - start
        text = cut_until(cut_at_stop((resp.message.content if resp.message else "") or "", stop), until)
        usage = Usage(int(resp.prompt_eval_count or 0), int(resp.eval_count or 0))
        data = check_schema(text, schema, self.where, usage) if schema else None
        return Completion(text=text, data=data, usage=usage, latency=latency, model=self.model, backend=self.backend,
                          meta={"done_reason": getattr(resp, "done_reason", None), "host": self.host})
