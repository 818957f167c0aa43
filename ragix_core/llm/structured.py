"""The one way an engine asks a model for JSON or for text.

Every call that expects JSON passes a JSON Schema (constrained decoding where
the backend supports it), then validates the reply with a pydantic model.
A reply cut at max_tokens keeps what it had finished when that validates
(``jsonout.salvage_json``; the completion's meta says ``salvaged``). Any other
invalid reply gets exactly one repair attempt that quotes the validation
error back to the model; a second failure ends the run with a named stop
reason (``StopRun``) instead of an exception. Backend failures end it too:
``llm_unavailable`` (server down), ``llm_timeout``, or ``context_too_long`` (the prompt
does not fit the model's context window).

Usage is not counted here: the role's ``TracedClient`` counts every call,
including the repair, so an engine's totals cannot drift from its events.
"""

from __future__ import annotations

from typing import Any, Dict, List, Optional, Sequence, Tuple, Type, TypeVar

from pydantic import BaseModel, ValidationError

from ragix_core.core.stop import StopRun
from ragix_core.core.text import bounded

from .base import (Completion, LLMBadOutput, LLMClient, LLMContextOverflow, LLMError, LLMTimeout, Message,
                   Until, complete_cut)
from .jsonout import parse_json, salvage_json, schema_errors

__all__ = ["ask_json", "ask_text", "backend_stop", "REPAIR_REPLY_CHARS"]

M = TypeVar("M", bound=BaseModel)
REPAIR_REPLY_CHARS = 2000  # of the invalid reply quoted back in the repair turn


def _describe(exc: Exception) -> str:
    if isinstance(exc, ValidationError):
        parts = []
        for err in exc.errors()[:5]:
            loc = ".".join(str(p) for p in err["loc"]) or "(root)"
            parts.append(f"{loc}: {err['msg']}")
        return "; ".join(parts)
    return bounded(exc, 500, marker=False)


def _sampling(temperature: Optional[float], seed: Optional[int], timeout: Optional[float] = None) -> Dict[str, Any]:
    """Only what the caller fixed: the role's client fills in its configured temperature (and the
    run's seed, and its timeout), so ``llm.<role>.temperature`` in ragix.yaml takes effect."""
    out: Dict[str, Any] = {}
    if temperature is not None:
        out["temperature"] = temperature
    if seed is not None:
        out["seed"] = seed
    if timeout is not None:
        out["timeout"] = timeout
    return out


def backend_stop(exc: LLMError) -> StopRun:
    """The named stop for a backend failure: ``llm_timeout``, ``context_too_long`` or ``llm_unavailable``."""
    reason = ("llm_timeout" if isinstance(exc, LLMTimeout) else
              "context_too_long" if isinstance(exc, LLMContextOverflow) else "llm_unavailable")
    return StopRun(reason, f"{type(exc).__name__}: {exc}")


def ask_json(client: LLMClient, messages: List[Message], model: Type[M], *, stop_reason: str,
             schema: Optional[Dict[str, Any]] = None, max_tokens: int = 512,
             temperature: Optional[float] = None, seed: Optional[int] = None,
             timeout: Optional[float] = None) -> Tuple[M, Completion]:
    """Return the reply validated as ``model``; ``StopRun(stop_reason)`` after one failed repair.
    ``temperature``/``seed``/``timeout`` None: the role's configured values and the run's seed sequence
    (``timeout`` applies to each call, the repair included)."""
    schema = schema or model.model_json_schema()
    convo = list(messages)
    last_error = ""
    for _attempt in range(2):
        completion: Optional[Completion] = None
        try:
            completion = client.complete(convo, schema=schema, max_tokens=max_tokens,
                                         **_sampling(temperature, seed, timeout))
            data = completion.data
            if data is None:  # a backend that returned text only: the same parser the backends use
                data = parse_json(completion.text, f"{getattr(client, 'backend', 'llm')} reply")
            return model.model_validate(data), completion
        except (LLMBadOutput, ValidationError, ValueError) as exc:
            last_error = _describe(exc)
            reply = completion.text if completion is not None else getattr(exc, "text", "")
            salvaged = _salvaged(reply, schema, model, client)
            if salvaged is not None:
                return salvaged
            convo = list(messages) + [
                {"role": "assistant", "content": bounded(reply, REPAIR_REPLY_CHARS) or "(no usable reply)"},
                {"role": "user", "content": f"That reply was invalid: {last_error}. "
                                            "Reply again with one JSON object that matches the schema exactly."},
            ]
        except LLMError as exc:
            raise backend_stop(exc) from None
    raise StopRun(stop_reason, f"model output invalid after one repair: {last_error}")


def _salvaged(reply: str, schema: Dict[str, Any], model: Type[M], client: LLMClient) -> Optional[Tuple[M, Completion]]:
    """The longest part of a cut reply that fits the schema but for top-level keys it never reached
    (their defaults then come from ``model``) and validates as ``model``; None when no part does."""
    for data in salvage_json(reply) if reply else ():
        if [e for e in schema_errors(data, schema) if not e.startswith("$: missing required key")]:
            continue
        try:
            value = model.model_validate(data)
        except ValidationError:
            continue
        return value, Completion(text=reply, data=data, backend=getattr(client, "backend", ""),
                                 meta={"salvaged": True})
    return None


def ask_text(client: LLMClient, messages: List[Message], *, max_tokens: int = 400,
             temperature: Optional[float] = None, seed: Optional[int] = None,
             timeout: Optional[float] = None, stop: Optional[Sequence[str]] = None,
             until: Optional[Until] = None) -> Completion:
    """A free-text reply, ended before the first ``stop`` string and where ``until`` says it is complete,
    when given; a backend failure becomes the named stop."""
    try:
        return complete_cut(client, messages, dict(max_tokens=max_tokens, **_sampling(temperature, seed, timeout)),
                            stop, until)
    except LLMError as exc:
        raise backend_stop(exc) from None
