"""McpToolSet's own rules, with a stand-in session (unit tests; the real servers are in
test_git_server.py and test_hostile_server.py)."""

from __future__ import annotations

import pytest

from ragix_core.core.types import ToolCall
from ragix_core.tools.mcp_session import McpFailure, RemoteTool
from ragix_core.tools.mcp_tools import DESCRIPTION_CHARS, McpToolSet, failure_kind, schema_problem
from ragix_core.tools.refusal import Refusal

SCHEMA = {"type": "object", "properties": {"path": {"type": "string"}, "n": {"type": "integer", "minimum": 1}},
          "required": ["path"], "additionalProperties": False}


class Session:
    def __init__(self, reply=None, failure=None):
        self.reply, self.failure, self.calls = reply, failure, []

    def call(self, name, args):
        self.calls.append((name, args))
        if self.failure:
            raise self.failure
        return self.reply


class Reply:
    def __init__(self, text, is_error=False, structured=None):
        self.content = [type("T", (), {"text": text, "type": "text"})()] if text is not None else []
        self.is_error, self.structured_content = is_error, structured


def toolset(session, listed=None, allowed=None, events=None):
    listed = listed or [RemoteTool("read", "Read a file. " + "x" * 1000, SCHEMA)]
    return McpToolSet("srv", session, listed, allowed, 100, lambda **d: (events if events is not None else []).append(d))


@pytest.mark.parametrize("args, problem", [
    ({}, "(the arguments): 'path' is a required property"),
    ({"path": 3}, "path: 3 is not of type 'string'"),
    ({"path": "a", "n": 0}, "n: 0 is less than the minimum of 1"),
    ({"path": "a", "extra": 1}, "Additional properties are not allowed"),
])
def test_arguments_are_checked_against_the_schema_before_any_call(args, problem):
    session = Session(Reply("ok"))
    with pytest.raises(Refusal) as caught:
        toolset(session).run("read", ToolCall("mcp.srv.read", args))
    assert problem in caught.value.reason and not session.calls


def test_an_invalid_server_schema_is_named():
    assert "schema itself is invalid" in schema_problem({"type": "object", "properties": {"a": {"type": 5}}}, {})


def test_results_are_bounded_errors_are_stderr_and_failures_are_named():
    events = []
    big = toolset(Session(Reply("y" * 500)), events=events).run("read", ToolCall("mcp.srv.read", {"path": "a"}))
    assert big.ok and big.truncated and len(big.stdout) == 100 and events[0]["truncated"]
    err = toolset(Session(Reply("no such file", is_error=True))).run("read", ToolCall("mcp.srv.read", {"path": "a"}))
    assert not err.ok and err.returncode == 1 and err.stderr == "no such file" and failure_kind(err) is None
    data = toolset(Session(Reply(None, structured={"n": 2}))).run("read", ToolCall("mcp.srv.read", {"path": "a"}))
    assert data.stdout == '{"n": 2}'
    died = toolset(Session(failure=McpFailure("mcp_server_died", "gone"))).run("read", ToolCall("mcp.srv.read",
                                                                                                {"path": "a"}))
    assert failure_kind(died) == "mcp_server_died" and not died.ok


def test_only_plain_allowed_tools_are_offered_with_short_descriptions():
    listed = [RemoteTool("read", "d" * 1000, SCHEMA), RemoteTool("a b", "", SCHEMA), RemoteTool("write", "", SCHEMA),
              RemoteTool("list", "", {"type": "array"})]
    ts = toolset(Session(), listed, allowed=["read", "a b", "list"])
    assert list(ts.executors()) == ["mcp.srv.read"]
    assert len(ts.offers()[0].description) == DESCRIPTION_CHARS
    assert len(ts.skipped) == 3


def test_a_server_that_died_is_refused_at_once_with_its_failure_and_not_called():
    session, events = Session(reply=Reply("never")), []
    session.broken = McpFailure("mcp_server_died", "server 'srv' calling read: connection closed")
    result = toolset(session, events=events).run("read", ToolCall("mcp.srv.read", {"path": "a"}))
    assert result.refused and not result.ok and not session.calls
    assert failure_kind(result) == "mcp_server_died"
    assert "is unavailable for the rest of this run" in result.error and "connection closed" in result.error
    assert events[-1]["refused"] is True and events[-1]["reason"] == result.error


def test_without_bubblewrap_a_stdio_server_is_not_started(monkeypatch, tmp_path):
    from ragix_core.config import parse_config
    from ragix_core.runtime.mcp_servers import open_servers
    from ragix_core.tools import ToolBox
    from ragix_core.tools import mcp_launch

    monkeypatch.setattr(mcp_launch, "find_bwrap", lambda: None)
    cfg = parse_config({"mcp": {"servers": {"s": {"command": ["/bin/cat"]}}}})
    servers = open_servers(cfg, "dev", tmp_path, ToolBox(tmp_path, profile="dev"))
    assert servers.failure is not None and servers.failure.kind == "mcp_unavailable"
    assert "bubblewrap" in servers.failure.message and not servers.toolsets
