"""OpenAI-compatible servers (llama.cpp server, vLLM, LM Studio, OpenAI…) via the official client.

Structured output: ``response_format={"type": "json_schema", ...}`` first. A
server that rejects it (HTTP 400 about the response format) is asked again with
``json_object`` plus the schema in a system message, and remembered as such;
either way the reply is parsed and checked against the schema locally, because
a server is free to ignore the format it was given.

Unknown models: OpenAI answers 404; llama.cpp's server answers with whatever it
has loaded. So before the first call we list the server's models once and
refuse a name it does not serve (when the listing is available).
"""

from __future__ import annotations

import json
import os
import threading
import time
from pathlib import Path
from typing import Any, Dict, List, Optional, Sequence

from .base import (Completion, LLMBadOutput, LLMError, LLMTimeout, LLMUnavailable, LLMUnknownModel, Message, Usage,
                   Until, backend_error, cut_at_stop, cut_until)
from .jsonout import check_schema
from .request import check_request

__all__ = ["OpenAICompatClient", "json_fallback_prompt"]

_PROMPT = Path(__file__).resolve().parent.parent / "prompts" / "llm_json_fallback.md"


def json_fallback_prompt(schema: Dict[str, Any]) -> str:
    return _PROMPT.read_text(encoding="utf-8").replace("{schema}", json.dumps(schema, indent=1))


class OpenAICompatClient:
    backend = "openai"

    def __init__(
        self,
        model: str,
        *,
        base_url: Optional[str] = None,
        api_key_env: Optional[str] = None,
        timeout: Optional[float] = 120.0,
        check_model: bool = True,
    ) -> None:
        try:
            import openai
        except ImportError:
            raise LLMUnavailable("openai backend: the 'openai' package is not installed; "
                                 "install with: pip install 'ragix[servers]'") from None
        self._openai = openai
        self.model = model
        self.base_url = (base_url or os.environ.get("OPENAI_BASE_URL") or "https://api.openai.com/v1").rstrip("/")
        key = os.environ.get(api_key_env) if api_key_env else None
        if api_key_env and not key:
            raise LLMUnavailable(f"openai backend at {self.base_url}: environment variable {api_key_env} is not set")
        # Local servers usually take any key; the client refuses to start without one.
        self._client = openai.OpenAI(base_url=self.base_url, api_key=key or "not-needed", max_retries=0,
                                     timeout=timeout)
        self._check_model = check_model
        self._model_checked = False
        self._json_schema_ok = True  # flipped when the server rejects response_format=json_schema
        self._lock = threading.Lock()

    @property
    def where(self) -> str:
        return f"openai backend at {self.base_url} (model {self.model})"

    def _ensure_model(self, timeout: Optional[float]) -> None:
        if self._model_checked or not self._check_model:
            return
        try:
            served = [m.id for m in self._call(lambda c: c.models.list(), timeout)]
        except (LLMUnknownModel, LLMError) as exc:
            if isinstance(exc, (LLMUnavailable, LLMTimeout)):
                raise
            served = []  # no listing endpoint: let the call itself tell
        if served and self.model not in served and self.model not in {Path(s).name for s in served}:
            raise LLMUnknownModel(f"{self.where}: the server does not serve {self.model!r}; it serves: "
                                  f"{', '.join(served[:10])}")
        self._model_checked = True

    def _call(self, fn: Any, timeout: Optional[float]) -> Any:
        """Run ``fn(client)`` and translate the client's errors into ours."""
        oa = self._openai
        client = self._client.with_options(timeout=timeout) if timeout is not None else self._client
        try:
            return fn(client)
        except oa.APITimeoutError:
            raise LLMTimeout(f"{self.where}: no reply within {timeout if timeout is not None else 'the default'}s") from None
        except oa.APIConnectionError as exc:
            raise LLMUnavailable(f"{self.where}: cannot connect to {self.base_url}: {exc}") from None
        except oa.NotFoundError as exc:
            raise LLMUnknownModel(f"{self.where}: not found (HTTP 404): {_short(exc)}") from None
        except oa.AuthenticationError as exc:
            raise LLMUnavailable(f"{self.where}: authentication refused (HTTP 401): {_short(exc)}") from None
        except oa.BadRequestError as exc:
            raise _BadRequest(f"{self.where}: request rejected (HTTP 400): {_short(exc)}") from None
        except oa.APIStatusError as exc:
            raise LLMError(f"{self.where}: HTTP {exc.status_code}: {_short(exc)}") from None
        except oa.OpenAIError as exc:
            raise LLMError(f"{self.where}: {exc}") from None

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
        check_request(messages, max_tokens, temperature, self.where)
        start = time.monotonic()
        self._ensure_model(timeout)
        msgs = [{"role": m["role"], "content": m["content"]} for m in messages]
        kwargs: Dict[str, Any] = {"model": self.model, "messages": msgs, "max_tokens": int(max_tokens),
                                  "temperature": float(temperature)}
        if seed is not None:
            kwargs["seed"] = int(seed)
        if stop:
            kwargs["stop"] = [s for s in stop if s][:4]  # the API takes at most four
        mode = None
        if schema:
            mode = "json_schema" if self._json_schema_ok else "json_object"
        try:
            resp = self._create(kwargs, schema, mode, timeout)
        except _BadRequest as exc:
            if mode != "json_schema" or "response_format" not in str(exc) and "schema" not in str(exc):
                raise backend_error(str(exc)) from None
            with self._lock:
                self._json_schema_ok = False
            mode = "json_object"
            try:
                resp = self._create(kwargs, schema, mode, timeout)
            except _BadRequest as exc2:
                raise backend_error(str(exc2)) from None
        latency = time.monotonic() - start
        if not resp.choices:
            raise LLMBadOutput(f"{self.where}: reply has no choices")
        choice = resp.choices[0]
        text = cut_until(cut_at_stop(choice.message.content or "", stop), until)  # the server generated it whole
        usage = Usage(resp.usage.prompt_tokens, resp.usage.completion_tokens, _cached(resp.usage)) if resp.usage else Usage()
        data = check_schema(text, schema, self.where, usage) if schema else None
        return Completion(text=text, data=data, usage=usage, latency=latency, model=self.model, backend=self.backend,
                          meta={"finish_reason": choice.finish_reason, "base_url": self.base_url, "json_mode": mode})

    def _create(self, kwargs: Dict[str, Any], schema: Optional[Dict[str, Any]], mode: Optional[str],
                timeout: Optional[float]) -> Any:
        call = dict(kwargs)
        if mode == "json_schema":
            call["response_format"] = {"type": "json_schema",
                                       "json_schema": {"name": "reply", "schema": schema, "strict": False}}
        elif mode == "json_object":
            call["response_format"] = {"type": "json_object"}
            call["messages"] = [{"role": "system", "content": json_fallback_prompt(schema or {})}] + call["messages"]
        return self._call(lambda c: c.chat.completions.create(**call), timeout)


class _BadRequest(LLMError):
    """HTTP 400: internal, so the json_schema → json_object fallback can catch it."""


def _short(exc: Exception) -> str:
    msg = getattr(exc, "message", None) or str(exc)
    return msg[:300]


def _cached(usage: Any) -> int:
    """Prompt tokens the server says it served from its cache (``prompt_tokens_details.cached_tokens``
    in the OpenAI API; servers that do not report it give 0)."""
    details = getattr(usage, "prompt_tokens_details", None)
    return int(getattr(details, "cached_tokens", 0) or 0)
