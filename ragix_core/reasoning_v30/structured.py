"""Asking a model for JSON that the engine can trust.

Every call that expects JSON passes a JSON Schema (constrained decoding where
the backend supports it), then validates the reply with a pydantic model.
An invalid reply gets exactly one repair attempt that quotes the validation
error back to the model; a second failure ends the run with a named stop
reason (``StopRun``) instead of an exception. Backend failures (server down,
timeout) end it too, with ``llm_unavailable`` / ``llm_timeout``.
"""

from __future__ import annotations

import json
from typing import Any, Dict, List, Optional, Tuple, Type, TypeVar

from pydantic import BaseModel, ValidationError

from ragix_core.llm.base import Completion, LLMBadOutput, LLMClient, LLMError, LLMTimeout, Message

from .graph import StopRun

__all__ = ["ask_json", "ask_text", "bounded"]

M = TypeVar("M", bound=BaseModel)


def bounded(text: Optional[str], limit: int) -> str:
    """Cut untrusted text to ``limit`` characters, saying so."""
    text = text or ""
    if len(text) <= limit:
        return text
    return text[:limit] + f"\n[... {len(text) - limit} more characters cut]"


def _describe(exc: Exception) -> str:
    if isinstance(exc, ValidationError):
        parts = []
        for err in exc.errors()[:5]:
            loc = ".".join(str(p) for p in err["loc"]) or "(root)"
            parts.append(f"{loc}: {err['msg']}")
        return "; ".join(parts)
    return str(exc)[:500]


def _backend_stop(exc: LLMError) -> StopRun:
    reason = "llm_timeout" if isinstance(exc, LLMTimeout) else "llm_unavailable"
    return StopRun(reason, f"{type(exc).__name__}: {exc}")


def ask_json(client: LLMClient, messages: List[Message], model: Type[M], *, stop_reason: str,
             schema: Optional[Dict[str, Any]] = None, max_tokens: int = 512) -> Tuple[M, Completion]:
    """Return the reply validated as ``model``; ``StopRun(stop_reason)`` after one failed repair."""
    schema = schema or model.model_json_schema()
    convo = list(messages)
    last_error = ""
    for _attempt in range(2):
        completion: Optional[Completion] = None
        try:
            completion = client.complete(convo, schema=schema, max_tokens=max_tokens, temperature=0.0)
            data = completion.data
            if data is None:
                data = json.loads(completion.text)
            return model.model_validate(data), completion
        except (LLMBadOutput, ValidationError, ValueError) as exc:
            last_error = _describe(exc)
            reply = completion.text if completion is not None else ""
            convo = list(messages) + [
                {"role": "assistant", "content": bounded(reply, 2000) or "(no usable reply)"},
                {"role": "user", "content": f"That reply was invalid: {last_error}. "
                                            "Reply again with one JSON object that matches the schema exactly."},
            ]
        except LLMError as exc:
            raise _backend_stop(exc) from None
    raise StopRun(stop_reason, f"model output invalid after one repair: {last_error}")


def ask_text(client: LLMClient, messages: List[Message], *, max_tokens: int = 400) -> Completion:
    try:
        return client.complete(messages, max_tokens=max_tokens, temperature=0.0)
    except LLMError as exc:
        raise _backend_stop(exc) from None
