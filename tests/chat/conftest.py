"""Fixtures for the chat tests: scripted models, real confined tools, an isolated RAGIX_HOME."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Dict, List

import pytest

from ragix_core.chat.nodes import DEPS_KEY, ChatDeps
from ragix_core.chat.tools import ChatTools, OperatorTool, ReplTool
from ragix_core.tools import Limits, ToolBox
from tests.scripted_llm import ScriptedLLM


def decision(action: str, thinking: str = "step", **tool_input: str) -> Dict[str, Any]:
    """One orchestrator reply as the schema asks for it."""
    is_tool = action not in ("think", "answer")
    return {"thinking": thinking, "action": action, "tool_name": action if is_tool else "none",
            "tool_input": tool_input if is_tool else {}, "confidence": 80, "missing_info": []}


def config_for(deps: ChatDeps, **extra: Any) -> Dict[str, Any]:
    return {"configurable": {DEPS_KEY: deps, **extra}}


class FakeTools:
    """Tool set double: records calls, answers from a table (tool -> output, a ToolOutcome, or an Exception)."""

    def __init__(self, names=("repl", "operator", "search"), outputs=None, searches_documents=False):
        self._names = list(names)
        self.outputs = outputs or {}
        self.searches_documents = searches_documents
        self.calls: List[Dict[str, Any]] = []

    @property
    def names(self):
        return list(self._names)

    def run(self, name, tool_input, earlier):
        from ragix_core.chat.tools import ToolOutcome

        self.calls.append({"tool": name, "input": dict(tool_input), "earlier": len(earlier)})
        out = self.outputs.get(name, f"output of {name}")
        if isinstance(out, ToolOutcome):
            return out
        if isinstance(out, Exception):
            return ToolOutcome("", str(out))
        return ToolOutcome(out, None, 0.01)


Scripted = ScriptedLLM  # raises a KeyboardInterrupt reply too: Ctrl-C during a model call


def scripted(replies) -> ScriptedLLM:
    return ScriptedLLM(list(replies))


def deps_with(orchestrator_replies, writer_replies=("The answer.",), tools=None, **kw) -> ChatDeps:
    return ChatDeps(orchestrator=scripted(orchestrator_replies), writer=scripted(writer_replies),
                    tools=tools or FakeTools(), **kw)


@pytest.fixture()
def repl_box(tmp_path: Path) -> ToolBox:
    box = ToolBox(tmp_path, profile="repl", limits=Limits(timeout=10, cpu_seconds=10))
    if not box.sandbox.confining:
        pytest.skip("no OS sandbox (bubblewrap or Landlock): the repl refuses to run")
    return box


@pytest.fixture()
def real_tools(repl_box: ToolBox) -> ChatTools:
    return ChatTools([ReplTool(repl_box), OperatorTool(repl_box)])


@pytest.fixture()
def home(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Path:
    # Beside tmp_path, not in it: tests use tmp_path as the project root, which may not hold ragix's home.
    h = tmp_path_factory.mktemp("ragix_home")
    monkeypatch.setenv("RAGIX_HOME", str(h))
    return h


def dumps(obj: Any) -> str:
    return json.dumps(obj)
