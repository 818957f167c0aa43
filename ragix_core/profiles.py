"""Agent profiles (spec 000 §7), defined and enforced in one place.

| Profile   | Tools Allowed | Models Allowed | Reflection | Memory |
| safe      | none          | cloud only     | simple     | off    |
| dev       | read + write  | cloud/local    | full       | on     |
| sovereign | full          | local only     | full       | on     |

Tools are enforced by the executor (``ragix_core.tools`` profiles of the same
names); models by ``check_models`` before any client is built; reflection and
memory by the runner when it wires the graph.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Dict, List, Literal

__all__ = ["AgentProfile", "PROFILES", "ProfileError", "get_profile", "check_models"]


class ProfileError(ValueError):
    """The configuration asks for something the active profile forbids."""


@dataclass(frozen=True)
class AgentProfile:
    name: str
    tool_profile: str  # the executor profile for plan steps
    models: Literal["remote", "any", "local"]
    reflection: Literal["simple", "full"]  # simple = no shell context, no experience search
    memory: bool

    @property
    def reflect_tool_profile(self) -> str:
        # REFLECT only ever reads; under `safe` it gets no process at all.
        return "safe" if self.tool_profile == "safe" else "reflect"


PROFILES: Dict[str, AgentProfile] = {
    "safe": AgentProfile("safe", "safe", "remote", "simple", False),
    "dev": AgentProfile("dev", "dev", "any", "full", True),
    "sovereign": AgentProfile("sovereign", "sovereign", "local", "full", True),
}


def get_profile(name: str) -> AgentProfile:
    try:
        return PROFILES[name]
    except KeyError:
        raise ProfileError(f"unknown profile {name!r}; allowed: {', '.join(PROFILES)}") from None


def check_models(profile: AgentProfile, llm_config: Any, roles: List[str]) -> None:
    """Fail fast, naming the role and endpoint, when a role's model breaks the profile's model rule."""
    if profile.models == "any":
        return
    from ragix_core.llm.factory import backend_is_local

    for role in roles:
        s = llm_config.for_role(role)
        if s.backend == "replay":  # recorded responses: no model is contacted
            continue
        local = backend_is_local(s.backend, s.base_url)
        where = f"{s.backend}" + (f" at {s.base_url}" if s.base_url else "") + f" (model {s.model})"
        if profile.models == "local" and not local:
            raise ProfileError(
                f"profile {profile.name!r} allows local models only, but role {role!r} uses the remote backend {where}; "
                f"use an embedded model, a server on loopback, or another profile")
        if profile.models == "remote" and local:
            raise ProfileError(
                f"profile {profile.name!r} allows cloud models only, but role {role!r} uses the local backend {where}; "
                f"configure a remote llm backend or use the 'dev' profile")
