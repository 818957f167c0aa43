"""The ``tools:`` section of ragix.yaml: how the confined shell reads a command.

    tools:
      home: refused     # `~` and `$HOME` in a command are refused (default): a home lies outside the project
      # home: project   # they stand for the project root, for a project that is itself a home directory

``project`` only rewrites them to ``.`` before the command is validated (tools/home.py): what runs is
confined to the project like any command. Like any widening, an untrusted project's ragix.yaml cannot set
it (trust.py); `ragix eval` sets it for AgentBench OS, whose tasks' home is the working copy.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict

__all__ = ["ToolsSection"]


class ToolsSection(BaseModel):
    model_config = ConfigDict(extra="forbid", validate_assignment=True)

    home: Literal["refused", "project"] = "refused"
