"""The one protocol every LLM backend implements, and its errors.

A backend turns chat messages (and optionally a JSON Schema) into a
`Completion`. Callers never see a backend's own exception types: every
failure is one of the `LLMError` subclasses below, with a message that names
the backend, the model and, for servers, the endpoint.
"""

from __future__ import annotations

import re

from dataclasses import dataclass, field, replace
import inspect
from typing import Any, Callable, Dict, List, Optional, Protocol, Sequence, runtime_checkable

__all__ = [
    "Message",
    "Usage",
    "Completion",
    "LLMClient",
    "LLMError",
    "LLMTimeout",
    "LLMUnavailable",
    "LLMUnknownModel",
    "LLMBadOutput",
    "LLMContextOverflow",
    "backend_error",
    "cut_at_stop",
    "cut_until",
    "accepts_stop",
    "accepts_until",
    "complete_cut",
    "Until",
]

Message = Dict[str, str]  # {"role": "system"|"user"|"assistant", "content": "..."}
# Where a reply is complete, read from its text so far: the index to cut it at, or None to go on. It must be
# prefix-stable (once it gives i for a text, it gives i for every longer text), so that a backend that
# checks it as tokens stream in and one that checks the whole reply once cut at the same place.
Until = Callable[[str], Optional[int]]


@dataclass
class Usage:
    prompt_tokens: int = 0
    completion_tokens: int = 0
    # Of prompt_tokens, those the backend served from its prompt (prefix) cache instead of
    # computing them; 0 when the backend does not say (Ollama).
    cached_tokens: int = 0

    @property
    def total_tokens(self) -> int:
        return self.prompt_tokens + self.completion_tokens

    def __add__(self, other: "Usage") -> "Usage":
        return Usage(self.prompt_tokens + other.prompt_tokens, self.completion_tokens + other.completion_tokens,
                     self.cached_tokens + other.cached_tokens)


@dataclass
class Completion:
    text: str
    data: Any = None  # parsed JSON when a schema was given (not yet validated by a pydantic model)
    usage: Usage = field(default_factory=Usage)
    latency: float = 0.0  # seconds, wall clock for the whole call
    model: str = ""
    backend: str = ""
    meta: Dict[str, Any] = field(default_factory=dict)


@runtime_checkable
class LLMClient(Protocol):
    backend: str
    model: str

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
        """Return the model's reply. With ``schema``, decoding is constrained to it where the
        backend allows and ``Completion.data`` holds the parsed JSON; if the text is not
        JSON at all, raise ``LLMBadOutput``. ``seed`` makes sampling at temperature > 0
        repeatable where the backend supports it (None: the backend's own choice). With
        ``stop``, the reply ends before the first of these strings (excluded from the text);
        generation stops there where the backend can, which is the point: a command's reply
        needs nothing after its code block. A client without ``stop`` still works: the role
        wrapper cuts its text instead (``accepts_stop``). With ``until``, the reply ends at the index
        it gives (``Until``); a backend that streams stops generating there, the others cut the text
        (``cut_until``); a client without ``until`` gets its text cut by the role wrapper."""
        ...


class LLMError(RuntimeError):
    """Any failure of an LLM call."""


class LLMTimeout(LLMError):
    """The call did not finish within its timeout."""


class LLMUnavailable(LLMError):
    """The backend cannot be reached or loaded (server down, runtime missing, model file missing)."""


class LLMUnknownModel(LLMError):
    """The backend is up but does not know the requested model."""


class LLMContextOverflow(LLMError):
    """The prompt (with the reply's room) does not fit the model's context window."""


# llama.cpp, in process and as a server: "request (6030 tokens) exceeds the available context size (4096
# tokens)"; its server's error type "exceed_context_size_error"; OpenAI: "maximum context length".
_CONTEXT = re.compile(r"exceeds? the available context size|exceed_context_size|maximum context length",
                      re.IGNORECASE)


def backend_error(message: str) -> LLMError:
    """The error for a backend's failure ``message``: a context overflow is named as one."""
    return LLMContextOverflow(message) if _CONTEXT.search(message) else LLMError(message)


class LLMBadOutput(LLMError):
    """The model answered, but not in the form that was asked for (e.g. no JSON). ``text``: the
    reply as the model wrote it, when there was one (a reply cut at max_tokens can be salvaged);
    ``usage``: what the call cost, so a failed call is counted like any other."""

    def __init__(self, message: str, *, text: str = "", usage: Optional[Usage] = None) -> None:
        super().__init__(message)
        self.text = text
        self.usage = usage if usage is not None else Usage()


def cut_at_stop(text: str, stop: Optional[Sequence[str]]) -> str:
    """``text`` up to the first occurrence of any ``stop`` string (what a backend honouring ``stop``
    returns): for clients that cannot stop generation and for recorded replies."""
    if not stop:
        return text
    ends = [i for i in (text.find(s) for s in stop if s) if i >= 0]
    return text[:min(ends)] if ends else text


def cut_until(text: str, until: Optional[Until]) -> str:
    """``text`` cut where ``until`` says the reply is complete (what a backend honouring it returns)."""
    if until is None:
        return text
    end = until(text)
    return text if end is None else text[:max(0, end)]


def complete_cut(client: Any, messages: List[Message], kwargs: Dict[str, Any],
                 stop: Optional[Sequence[str]] = None, until: Optional[Until] = None) -> Completion:
    """``client.complete(messages, **kwargs)`` with ``stop`` and ``until`` passed where the client takes them, and
    its text cut here where it does not: the same reply either way, only generated longer."""
    passed_stop = bool(stop) and accepts_stop(client)
    passed_until = until is not None and accepts_until(client)
    extra: Dict[str, Any] = {"stop": list(stop)} if passed_stop else {}
    if passed_until:
        extra["until"] = until
    reply = client.complete(messages, **kwargs, **extra)
    text = reply.text if passed_stop else cut_at_stop(reply.text, stop)
    text = text if passed_until else cut_until(text, until)
    return reply if text == reply.text else replace(reply, text=text)


def accepts_stop(client: Any) -> bool:
    """Whether ``client.complete`` takes ``stop`` (ragix's backends do; an older or third-party client
    may not, and is then called without it)."""
    return _accepts(client, "stop")


def accepts_until(client: Any) -> bool:
    """Whether ``client.complete`` takes ``until`` (as ``accepts_stop``)."""
    return _accepts(client, "until")


def _accepts(client: Any, name: str) -> bool:
    try:
        params = inspect.signature(client.complete).parameters
    except (TypeError, ValueError):
        return False
    if name in params:
        return True
    if not any(p.kind == inspect.Parameter.VAR_KEYWORD for p in params.values()):
        return False
    # A wrapper forwarding **kwargs (cancellation, budgets) takes ``stop`` if what it wraps does.
    inner = getattr(client, "_inner", None) or getattr(client, "inner", None)
    return _accepts(inner, name) if inner is not None and inner is not client else True
