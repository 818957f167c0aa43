"""Record real LLM replies once, replay them in tests: fast, deterministic, offline.

One JSON file per call in a cassette directory, named by a sha256 of what
determines the reply: backend, model, messages, schema, max_tokens and
temperature (not the timeout). A missing cassette in replay mode is an error
that says how to record it — never a silent live call, which would make a test
depend on a model being installed.

Mode: ``record`` (call the real client, write the cassette), ``replay`` (read
only), or ``auto`` (replay; record only when ``RAGIX_RECORD=1``).
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
from pathlib import Path
from typing import Any, Dict, List, Optional, Sequence

from .base import Completion, LLMBadOutput, LLMClient, LLMError, Message, Until, Usage, cut_at_stop, cut_until
from .request import check_request

__all__ = ["ReplayClient", "CassetteMissing", "cassette_key", "RECORD_ENV"]

RECORD_ENV = "RAGIX_RECORD"


class CassetteMissing(LLMError):
    """Replay mode found no recording for this call."""


def cassette_key(backend: str, model: str, messages: List[Message], schema: Optional[Dict[str, Any]],
                 max_tokens: int, temperature: float, seed: Optional[int] = None) -> str:
    payload: Dict[str, Any] = {
        "backend": backend,
        "model": model,
        "messages": [{"role": m["role"], "content": m["content"]} for m in messages],
        "schema": schema,
        "max_tokens": int(max_tokens),
        "temperature": float(temperature),
    }
    if seed is not None:  # only then: keys of calls without a seed stay those recorded before seeds existed
        payload["seed"] = int(seed)
    blob = json.dumps(payload, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(blob.encode("utf-8")).hexdigest()


class ReplayClient:
    """Wraps ``inner`` (needed to record) or stands alone (replay of ``backend``/``model``)."""

    def __init__(
        self,
        cassette_dir: os.PathLike | str,
        inner: Optional[LLMClient] = None,
        *,
        mode: str = "auto",
        backend: Optional[str] = None,
        model: Optional[str] = None,
    ) -> None:
        if mode not in ("auto", "record", "replay"):
            raise ValueError(f"replay mode must be auto, record or replay, not {mode!r}")
        if mode == "auto":
            mode = "record" if os.environ.get(RECORD_ENV) == "1" else "replay"
        if mode == "record" and inner is None:
            raise LLMError("replay backend: record mode needs a real client to record from")
        self.dir = Path(cassette_dir)
        self.inner = inner
        self.mode = mode
        # Keys use the *recorded* backend/model so a replay matches what was recorded.
        self.recorded_backend = backend or (inner.backend if inner else "embedded")
        self.model = model or (inner.model if inner else "")
        self.backend = "replay"

    def _path(self, key: str) -> Path:
        return self.dir / f"{key}.json"

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
        check_request(messages, max_tokens, temperature, f"replay of {self.recorded_backend}/{self.model}")
        key = cassette_key(self.recorded_backend, self.model, messages, schema, max_tokens, temperature, seed)
        path = self._path(key)
        if self.mode == "record":
            assert self.inner is not None
            try:
                # Recorded without ``stop`` or ``until``, and keyed without them: one recording serves a call
                # with or without them, the text cut on the way out as a backend honouring them would cut it.
                result = self.inner.complete(messages, schema=schema, max_tokens=max_tokens, temperature=temperature,
                                             timeout=timeout, **({"seed": seed} if seed is not None else {}))
            except LLMBadOutput as exc:  # the model did reply: a replay must fail the same way, at the same cost
                failed = Completion(text=exc.text, usage=exc.usage, model=self.model, backend=self.recorded_backend)
                self._write(path, key, messages, schema, max_tokens, temperature, failed, error=str(exc))
                raise
            self._write(path, key, messages, schema, max_tokens, temperature, result)
            # same identity as in replay mode, so callers see one backend either way
            return dataclasses.replace(result, text=cut_until(cut_at_stop(result.text, stop), until),
                                       backend=self.backend,
                                       meta=dict(result.meta, recorded_to=str(path)))
        if not path.is_file():
            raise CassetteMissing(
                f"replay: no cassette {key[:16]}… for {self.recorded_backend}/{self.model} in {self.dir} "
                f"(full key {key}); record it by running the same call with {RECORD_ENV}=1 and a real backend"
            )
        try:
            rec = json.loads(path.read_text(encoding="utf-8"))
            reply = rec["reply"]
            usage = Usage(int(reply["usage"]["prompt_tokens"]), int(reply["usage"]["completion_tokens"]),
                          int(reply["usage"].get("cached_tokens") or 0))
            error = reply.get("error")
            completion = None if error else Completion(
                text=cut_until(cut_at_stop(reply["text"], stop), until),
                data=reply.get("data"),
                usage=usage,
                latency=float(reply.get("latency", 0.0)),
                model=reply.get("model", self.model),
                backend=self.backend,
                meta=dict(reply.get("meta") or {}, replayed_from=rec.get("backend"), cassette=str(path)),
            )
        except (OSError, ValueError, KeyError, TypeError) as exc:
            raise LLMError(f"replay: cassette {path} is unreadable or malformed: {exc!r}; delete and re-record it") from None
        if completion is None:
            raise LLMBadOutput(str(error), text=str(reply.get("text") or ""), usage=usage)
        return completion

    def _write(self, path: Path, key: str, messages: List[Message], schema: Optional[Dict[str, Any]],
               max_tokens: int, temperature: float, result: Completion, error: Optional[str] = None) -> None:
        self.dir.mkdir(parents=True, exist_ok=True)
        record = {
            "key": key,
            "backend": self.recorded_backend,
            "model": self.model,
            "request": {"messages": messages, "schema": schema, "max_tokens": max_tokens, "temperature": temperature},
            "reply": {
                "text": result.text,
                "data": result.data,
                "usage": {"prompt_tokens": result.usage.prompt_tokens, "completion_tokens": result.usage.completion_tokens,
                          "cached_tokens": result.usage.cached_tokens},
                "latency": result.latency,
                "model": result.model,
                "meta": {k: v for k, v in result.meta.items() if k != "path"},  # no local paths in fixtures
            },
        }
        if error is not None:  # the reply the model wrote did not fit what was asked for
            record["reply"]["error"] = error
        tmp = path.with_suffix(".tmp")
        tmp.write_text(json.dumps(record, indent=1, ensure_ascii=False, sort_keys=True), encoding="utf-8")
        os.replace(tmp, path)
