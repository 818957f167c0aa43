"""Fixtures of the MCP tests: a small project whose ragix.yaml points every role at a scripted
model on loopback, and the command that starts `ragix mcp serve` from this checkout."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Iterator

import pytest
import yaml

from ragix_core.tools.bwrap import find_bwrap
from tests.mcp.schema_model import schema_reply
from tests.scripted_openai import ScriptedServer, scripted_openai_server

RAGIX = [sys.executable, "-m", "ragix_core.cli"]
# A stdio MCP server ragix starts runs only under bubblewrap (scripts/setup_system.sh installs it).
needs_bwrap = pytest.mark.skipif(not find_bwrap(), reason="stdio MCP servers start only under bubblewrap")


@pytest.fixture()
def scripted_model() -> Iterator[ScriptedServer]:
    with scripted_openai_server(schema_reply) as server:
        yield server


@pytest.fixture()
def project(tmp_path: Path, scripted_model: ScriptedServer, home: Path) -> Path:
    root = tmp_path / "project"
    root.mkdir()
    (root / "app.py").write_text("def main():\n    helper()\n\n\ndef helper():\n    return 0\n")
    (root / "README.md").write_text("# Demo\nThe demo project has one module, app.py.\n")
    config = {"llm": {"default": {"backend": "openai", "model": "scripted", "base_url": scripted_model.url,
                                  "timeout": 30}},
              "chat": {"store": str(tmp_path / "chat.sqlite")}}
    # The user's own config ($RAGIX_HOME), not the project's: a project file may not name endpoints.
    home.mkdir()
    (home / "ragix.yaml").write_text(yaml.safe_dump(config))
    return root


def server_env(tmp_path: Path) -> dict:
    import os

    return {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "RAGIX_HOME": str(tmp_path / "home"),
            "HOME": str(tmp_path), "PYTHONPATH": str(Path(__file__).resolve().parents[2])}
