"""Checks on a call's arguments, shared by every backend.

Callers build messages from model output and user text, so a malformed list
must fail here with a sentence — not as a KeyError deep inside a client, and
not as llama.cpp's ``max_tokens=-1`` meaning "generate forever".
"""

from __future__ import annotations

from typing import Any

from .base import LLMError

__all__ = ["check_request"]

_ROLES = {"system", "user", "assistant", "tool"}


def check_request(messages: Any, max_tokens: Any, temperature: Any, where: str) -> None:
    if not isinstance(messages, list) or not messages:
        raise LLMError(f"{where}: messages must be a non-empty list of {{'role', 'content'}} dicts")
    for i, m in enumerate(messages):
        if not isinstance(m, dict) or not isinstance(m.get("content"), str) or m.get("role") not in _ROLES:
            raise LLMError(f"{where}: message {i} must be a dict with 'role' in {sorted(_ROLES)} and string 'content'")
    if isinstance(max_tokens, bool) or not isinstance(max_tokens, int) or max_tokens < 1:
        raise LLMError(f"{where}: max_tokens must be a positive integer, got {max_tokens!r}")
    if isinstance(temperature, bool) or not isinstance(temperature, (int, float)) or not 0 <= temperature <= 2:
        raise LLMError(f"{where}: temperature must be a number in [0, 2], got {temperature!r}")
