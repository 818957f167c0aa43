"""The LLM layer: one protocol (``base``), backends, roles, tracing.

Build a client for a role from the config::

    from ragix_core.llm import Roles
    roles = Roles(cfg.llm, bus=bus, session_id=sid)
    reply = roles.get("planner").complete(messages, schema=schema)

or one client directly: ``make_client("ollama:qwen2.5:7b")``.
Backends import their runtime/client lazily, so importing this package is cheap.
"""

from .base import (
    Completion,
    LLMBadOutput,
    LLMClient,
    LLMContextOverflow,
    LLMError,
    LLMTimeout,
    LLMUnavailable,
    LLMUnknownModel,
    Message,
    Usage,
)
from .config import BACKENDS, ROLES, BackendSettings, LLMConfig, RoleOverride
from .embedded import EmbeddedClient
from .factory import backend_is_local, build_client, make_client
from .ollama import OllamaClient
from .openai_compat import OpenAICompatClient
from .replay import CassetteMissing, ReplayClient
from .roles import Roles, TracedClient

__all__ = [
    "Completion",
    "LLMBadOutput",
    "LLMClient",
    "LLMContextOverflow",
    "LLMError",
    "LLMTimeout",
    "LLMUnavailable",
    "LLMUnknownModel",
    "Message",
    "Usage",
    "BACKENDS",
    "ROLES",
    "BackendSettings",
    "LLMConfig",
    "RoleOverride",
    "EmbeddedClient",
    "OllamaClient",
    "OpenAICompatClient",
    "backend_is_local",
    "build_client",
    "make_client",
    "CassetteMissing",
    "ReplayClient",
    "Roles",
    "TracedClient",
]
