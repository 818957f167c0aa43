"""The ``mcp:`` section of ragix.yaml: MCP servers whose tools a run may call (spec 002 §8).

    mcp:
      servers:
        git:
          command: [mcp-server-git, --repository, .]   # a stdio server ragix starts, under bubblewrap
          tools: [git_log, git_status, git_diff]        # the only tools offered (default: all it lists)
          timeout: 30                                   # seconds per call; a server that takes longer is dropped
          network: false                                # the sandbox's network (default: none)
          env: {}                                       # the server's whole environment (it starts empty)
          mounts: []                                    # more read-only paths it needs (its program's are added)
          profiles: [dev, sovereign]                    # the agent profiles whose runs may use it
        docs:
          url: http://127.0.0.1:9000/mcp                # a Streamable HTTP server someone else runs

Under the ``safe`` profile no server is used, whatever the file says. A project's ragix.yaml
sets no server unless the user trusts it (trust.py): a server is a program ragix would start.
"""

from __future__ import annotations

import re
from typing import Dict, List, Literal, Optional

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

__all__ = ["McpSection", "McpServerConfig", "TOOL_NAME"]

TOOL_NAME = re.compile(r"^[A-Za-z0-9_-]{1,64}$")  # what a server's tool may be called to be offered at all


class McpServerConfig(BaseModel):
    model_config = ConfigDict(extra="forbid")

    command: Optional[List[str]] = Field(None, min_length=1, description="argv of a stdio server ragix starts")
    url: Optional[str] = Field(None, description="Streamable HTTP endpoint of a running server")
    tools: Optional[List[str]] = Field(None, description="tools offered to the model; null = every listed tool")
    timeout: float = Field(30.0, gt=0, le=600)
    network: bool = False
    env: Dict[str, str] = Field(default_factory=dict)
    mounts: List[str] = Field(default_factory=list)
    profiles: List[Literal["dev", "sovereign"]] = Field(default_factory=lambda: ["dev", "sovereign"])

    @model_validator(mode="after")
    def _one_transport(self) -> "McpServerConfig":
        if (self.command is None) == (self.url is None):
            raise ValueError("give exactly one of command (a stdio server) or url (Streamable HTTP)")
        if self.url is not None and not self.url.startswith(("http://", "https://")):
            raise ValueError("url must start with http:// or https://")
        return self

    @field_validator("tools")
    @classmethod
    def _names(cls, tools: Optional[List[str]]) -> Optional[List[str]]:
        for name in tools or []:
            if not TOOL_NAME.match(name):
                raise ValueError(f"tool name {name!r}: letters, digits, '_' and '-' only")
        return tools


class McpSection(BaseModel):
    model_config = ConfigDict(extra="forbid")

    servers: Dict[str, McpServerConfig] = Field(default_factory=dict)

    @field_validator("servers")
    @classmethod
    def _server_names(cls, servers: Dict[str, McpServerConfig]) -> Dict[str, McpServerConfig]:
        for name in servers:
            if not TOOL_NAME.match(name):
                raise ValueError(f"server name {name!r}: letters, digits, '_' and '-' only")
        return servers

    def for_profile(self, profile: str) -> Dict[str, McpServerConfig]:
        """The servers a run under ``profile`` may use (none under safe)."""
        return {name: s for name, s in self.servers.items() if profile in s.profiles}
