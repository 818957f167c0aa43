"""Agent profiles (spec 000 §7) as the tool layer enforces them.

safe       no process is ever started; cloud models only
reflect    read-only allowlist inside the project (the REFLECT node's tools)
dev        read + write inside the project; writes need approval or --yes
sovereign  any command, confined by the OS layer to the project; local models only
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Dict, FrozenSet, Tuple

from ragix_core.tools.specs import READ_TOOLS, WRITE_TOOLS

__all__ = ["Profile", "PROFILES", "BACKEND_RULES", "LOCAL_BACKENDS", "CLOUD_BACKENDS", "profile_allows_backend", "get_profile"]


@dataclass(frozen=True)
class Profile:
    name: str
    tools: Tuple[str, ...]  # direct tool names usable as ToolCall.tool and in shell commands
    extra: Tuple[str, ...]  # non-shell executors: python, operator, write_file
    writes: bool  # may modify the project
    any_command: bool  # any program (sovereign); requires an OS sandbox
    network: bool  # may the OS layer leave the network on (only when Limits.network)
    approval: bool  # writes need approval (interactive) or assume_yes

    @property
    def starts_processes(self) -> bool:
        return bool(self.tools or self.extra)


PROFILES: Dict[str, Profile] = {
    "safe": Profile("safe", (), (), writes=False, any_command=False, network=False, approval=False),
    "reflect": Profile("reflect", READ_TOOLS, ("operator",), writes=False, any_command=False, network=False, approval=False),
    "dev": Profile("dev", READ_TOOLS + WRITE_TOOLS, ("operator", "python", "write_file"), writes=True, any_command=False,
                   network=False, approval=True),
    "sovereign": Profile("sovereign", READ_TOOLS + WRITE_TOOLS, ("operator", "python", "write_file"), writes=True,
                         any_command=True, network=True, approval=False),
}

LOCAL_BACKENDS: FrozenSet[str] = frozenset({"local", "embedded", "llamacpp", "llama.cpp", "xllamacpp", "ollama", "replay"})
CLOUD_BACKENDS: FrozenSet[str] = frozenset({"cloud", "openai", "anthropic", "replay"})

# Spec 000 §7 "Models Allowed": safe = cloud only, dev = cloud/local,
# sovereign = local only. "reflect" is the read-only tool profile; it follows dev.
BACKEND_RULES: Dict[str, FrozenSet[str]] = {
    "safe": CLOUD_BACKENDS,
    "reflect": LOCAL_BACKENDS | CLOUD_BACKENDS,
    "dev": LOCAL_BACKENDS | CLOUD_BACKENDS,
    "sovereign": LOCAL_BACKENDS,
}


def get_profile(name: str) -> Profile:
    try:
        return PROFILES[name]
    except (KeyError, TypeError):
        raise ValueError(f"unknown profile {name!r}; allowed: {', '.join(PROFILES)}") from None


def profile_allows_backend(profile: str, backend_kind: str) -> bool:
    """May ``profile`` use an LLM backend of this kind?

    ``backend_kind`` is "local" / "cloud" or a backend name (embedded, ollama,
    openai, ...). An OpenAI-compatible server on localhost is local: the LLM
    layer should pass "local" for it. "replay" (tests) is always allowed.
    """
    rules = BACKEND_RULES.get(profile)
    if rules is None:
        raise ValueError(f"unknown profile {profile!r}; allowed: {', '.join(PROFILES)}")
    return str(backend_kind).strip().lower() in rules
