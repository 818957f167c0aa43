"""The server in process (the SDK's in-memory transport): tool schemas, structured results,
the launch's profile and root that no argument can change, clear errors for bad input."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Dict

import anyio
import pytest
from mcp import Client

from ragix_core.mcp_server.app import build_server
from ragix_core.mcp_server.launch import Launch

ENGINES = {"run", "reason", "tutor", "research", "chat"}
QUICK = {"exec", "defs", "importers", "callers", "calls", "lines", "tree", "corpus_search"}


def call(project: Path, profile: str, name: str, args: Dict[str, Any]):
    async def go():
        async with Client(build_server(Launch.open(project, profile))) as client:
            return await client.call_tool(name, args)
    return anyio.run(go)


def test_every_engine_and_tool_is_listed_with_an_input_schema(project):
    async def go():
        async with Client(build_server(Launch.open(project, "dev"))) as client:
            return (await client.list_tools()).tools
    listed = {t.name: t for t in anyio.run(go)}
    assert set(listed) == ENGINES | QUICK
    for tool in listed.values():
        assert tool.input_schema["type"] == "object" and tool.description and tool.output_schema
        # The launch fixes these; a client may not name them.
        assert not {"root", "cwd", "profile", "config"} & set(tool.input_schema.get("properties", {})), tool.name
    assert listed["chat"].input_schema["required"] == ["message", "session_id"]


def test_model_commands_answer_with_structured_content(project):
    defs = call(project, "dev", "defs", {"paths": ["app.py"]}).structured_content
    assert defs["ok"] and "def helper()" in defs["result"]["stdout"]
    callers = call(project, "dev", "callers", {"name": "helper"}).structured_content
    assert "app.py" in callers["result"]["stdout"] and "main" in callers["result"]["stdout"]
    lines = call(project, "dev", "lines", {"glob": "*.py"}).structured_content
    assert "app.py" in lines["result"]["stdout"] and "README.md" not in lines["result"]["stdout"]
    tree = call(project, "dev", "tree", {"depth": 1}).structured_content
    assert "README.md" in tree["result"]["stdout"]
    calls = call(project, "dev", "calls", {"name": "main"}).structured_content
    assert "helper" in calls["result"]["stdout"]
    (project / "user.py").write_text("import app\n\napp.main()\n")
    importers = call(project, "dev", "importers", {"module": "app"}).structured_content
    assert "user.py" in importers["result"]["stdout"] and "import app" in importers["result"]["stdout"]


def test_a_client_cannot_move_the_root_or_change_the_profile(project, tmp_path):
    """Arguments the schemas do not declare are ignored: the launch's root and profile stand."""
    (tmp_path / "elsewhere").mkdir()
    (tmp_path / "elsewhere" / "secret.py").write_text("def secret():\n    pass\n")
    for extra in ({"root": str(tmp_path / "elsewhere")}, {"cwd": str(tmp_path / "elsewhere")}):
        result = call(project, "dev", "tree", {"depth": 1, **extra})
        listed = result.structured_content["result"]["stdout"]
        assert not result.is_error and "app.py" in listed and "secret.py" not in listed, extra
    safe = call(project, "safe", "exec", {"command": "wc -l app.py", "profile": "sovereign"}).structured_content
    assert safe["result"]["refused"] and "profile 'safe' runs no tools" in safe["result"]["error"]


def test_exec_runs_through_the_confined_tool_box(project):
    ok = call(project, "dev", "exec", {"command": "wc -l app.py | sort"}).structured_content
    assert ok["ok"] and ok["result"]["stdout"].strip() == "6 app.py"
    for escape in ("cat /etc/passwd", "cat ../outside.txt", "wc -l app.py; rm -rf .", "curl http://example.com"):
        refused = call(project, "dev", "exec", {"command": escape}).structured_content
        assert not refused["ok"] and refused["result"]["refused"], escape
        assert refused["result"]["error"].startswith("refused: "), escape


def test_the_safe_profile_runs_no_command_at_all(project):
    for name, args in (("exec", {"command": "wc -l app.py"}), ("defs", {"paths": ["app.py"]})):
        result = call(project, "safe", name, args).structured_content
        assert not result["ok"] and result["result"]["refused"], name
        assert "runs no tools" in result["result"]["error"]
    off = call(project, "safe", "corpus_search", {"query": "lines"})
    assert off.is_error and "experience corpus is off" in off.content[0].text


@pytest.mark.parametrize("name, args, words", [
    ("run", {"goal": ""}, ["goal", "at least 1 character"]),
    ("run", {}, ["goal", "required"]),
    ("reason", {"question": "q", "strategy": "rm -rf"}, ["strategy"]),
    ("tutor", {"goal": "g", "accept": ["((("]}, ["acceptance criterion", "((("]),
    ("tutor", {"goal": "g", "max_turns": 1000}, ["max_turns"]),
    ("chat", {"message": "hi", "session_id": "../../etc"}, ["session_id"]),
    ("callers", {"name": "-rf"}, ["'-rf' is not a name"]),
    ("defs", {"paths": ["--help"]}, ["'--help' is not a path"]),
    ("tree", {"depth": "deep"}, ["depth"]),
    ("nosuch", {}, ["Unknown tool: nosuch"]),
])
def test_bad_input_is_a_tool_error_naming_what_was_wrong(project, name, args, words):
    result = call(project, "dev", name, args)
    text = result.content[0].text
    assert result.is_error and "Traceback" not in text
    for word in words:
        assert word in text, (word, text)


def test_corpus_search_reads_the_experience_of_earlier_runs(project, tmp_path):
    run = call(project, "dev", "run", {"goal": "How many lines does app.py have?"}).structured_content
    assert run["stop_reason"] == "unconfirmed"  # one command's short output
    hits = call(project, "dev", "corpus_search", {"query": "lines app.py"}).structured_content
    assert hits["query"] == "lines app.py" and isinstance(hits["hits"], list)
    assert any("app.py" in json.dumps(h["event"]) for h in hits["hits"])
