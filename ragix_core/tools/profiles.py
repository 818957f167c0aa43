"""Agent profiles (spec 000 §7) as the tool layer enforces them.

safe       no process is ever started; cloud models only
reflect    read-only allowlist inside the project (the REFLECT node's tools)
dev        read + write inside the project; writes need approval or --yes
sovereign  any command, confined by the OS layer to the project; local models only
repl       python and operator only: read-only project, no network, no approval (the chat agent's REPL)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Dict, Tuple

from ragix_core.tools.policy import READ_TOOLS, WRITE_TOOLS

__all__ = ["Profile", "PROFILES", "get_profile"]


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
    # Not an agent profile: the chat engine's REPL (spec 003) runs model-written Python under the same
    # OS sandbox as `python` in dev, but may neither write the project nor reach the network.
    "repl": Profile("repl", (), ("python", "operator"), writes=False, any_command=False, network=False,
                    approval=False),
}

def get_profile(name: str) -> Profile:
    try:
        return PROFILES[name]
    except (KeyError, TypeError):
        raise ValueError(f"unknown profile {name!r}; allowed: {', '.join(PROFILES)}") from None
