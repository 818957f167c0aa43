"""`ragix mcp serve --http` in a subprocess: the SDK's client over Streamable HTTP, the token
gate, and the loopback rule."""

from __future__ import annotations

import socket
import subprocess
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

import anyio
import httpx2
import pytest
from mcp import Client
from mcp.client.streamable_http import streamable_http_client

from tests.mcp.conftest import RAGIX, server_env
from tests.mcp.test_serve_engines import ENGINE_CALLS, call_all

TOKEN = "s3cret-token-for-tests"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextmanager
def http_server(project: Path, tmp_path: Path, token: str = TOKEN) -> Iterator[str]:
    port = _free_port()
    env = {**server_env(tmp_path), **({"RAGIX_MCP_TOKEN": token} if token else {})}
    proc = subprocess.Popen(RAGIX + ["mcp", "serve", "--root", str(project), "--http", f"127.0.0.1:{port}"],
                            env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            with socket.socket() as s:
                if s.connect_ex(("127.0.0.1", port)) == 0:
                    break
            assert proc.poll() is None, proc.stderr.read().decode()
            time.sleep(0.1)
        yield f"http://127.0.0.1:{port}/mcp"
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def with_token(url: str, token: str):
    return streamable_http_client(url, http_client=httpx2.AsyncClient(headers={"Authorization": f"Bearer {token}"},
                                                                     timeout=60))


def test_every_engine_runs_over_http_with_the_token(project, tmp_path):
    with http_server(project, tmp_path) as url:
        results = anyio.run(call_all, with_token(url, TOKEN), ENGINE_CALLS)
    for name, result, progress in results:
        assert not result.is_error, (name, result.content)
        assert result.structured_content["stop_reason"] and progress, name
        assert [p[0] for p in progress] == sorted(p[0] for p in progress), "progress only grows"
    by_name = {r[0]: r[1].structured_content for r in results}
    assert by_name["run"]["stop_reason"] == "unconfirmed"  # one command's short output
    assert any("wc -l app.py" in c["command"] and "6" in c["stdout"] for c in by_name["run"]["commands"])
    assert by_name["chat"]["session_id"] == "s1"


def test_a_request_without_the_right_token_is_refused_with_401(project, tmp_path):
    with http_server(project, tmp_path) as url:
        body = {"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {}}
        for headers in ({}, {"Authorization": "Bearer wrong"}, {"Authorization": TOKEN}):
            reply = httpx2.post(url, json=body, headers={**headers, "Accept": "application/json, text/event-stream"})
            assert reply.status_code == 401, headers
            assert "token" in reply.text

        # on loopback the Host header is checked too: a page on another name cannot reach it by DNS rebinding
        rebound = httpx2.post(url, json=body, headers={"Authorization": f"Bearer {TOKEN}", "Host": "evil.example:80",
                                                       "Accept": "application/json, text/event-stream"})
        assert rebound.status_code in (400, 403, 421), rebound.status_code

        async def attempt() -> None:
            async with Client(with_token(url, "wrong")) as client:
                await client.list_tools()

        with pytest.raises(BaseException):
            anyio.run(attempt)


def test_without_a_token_only_loopback_may_be_bound(project, tmp_path):
    done = subprocess.run(RAGIX + ["mcp", "serve", "--root", str(project), "--http", "0.0.0.0:8765"],
                          env=server_env(tmp_path), capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and "non-loopback address needs a token" in done.stderr
    assert "Traceback" not in done.stderr


def test_a_bad_bind_or_root_is_a_usage_error(project, tmp_path):
    for args in (["--http", "localhost"], ["--http", "127.0.0.1:notaport"], ["--root", str(tmp_path / "nope")],
                 ["--profile", "root"]):
        done = subprocess.run(RAGIX + ["mcp", "serve", "--root", str(project), *args], env=server_env(tmp_path),
                              capture_output=True, text=True, timeout=60)
        assert done.returncode == 2 and done.stderr.startswith("error: ") and "Traceback" not in done.stderr, args


def test_the_bind_rule_loopback_without_a_token_any_address_with_one():
    from ragix_core.mcp_server.http import parse_bind

    assert parse_bind("127.0.0.1:8765", None) == ("127.0.0.1", 8765)
    assert parse_bind("[::1]:8765", None) == ("::1", 8765)
    assert parse_bind("localhost:1", None) == ("localhost", 1)
    for address in ("0.0.0.0:8765", "192.0.2.7:8765", "example.com:80"):
        with pytest.raises(ValueError, match="needs a token"):
            parse_bind(address, None)
        assert parse_bind(address, TOKEN)[1] in (8765, 80)  # with a token any address may be bound


def test_a_url_server_in_ragix_yaml_is_a_run_s_tool_here_ragix_s_own_server(project, tmp_path):
    """Both ways at once: a run whose `mcp:` names a Streamable HTTP server by URL, and that server is
    `ragix mcp serve --http` (loopback, no token) in a subprocess; the plan calls its `defs` tool."""
    from ragix_core.config import parse_config
    from ragix_core.runtime.run import run_goal
    from tests.mcp.routed_model import RoutedModel, plan_of

    with http_server(project, tmp_path, token="") as url:
        cfg = parse_config({"reasoning": {"traces": {"enabled": False}},
                            "mcp": {"servers": {"ragix": {"url": url, "tools": ["defs", "callers"]}}}})
        model = RoutedModel(plan_of({"description": "the definitions", "tool": "mcp.ragix.defs",
                                     "args": {"paths": ["app.py"]}}), answer="app.py defines main and helper.")
        res = run_goal("Which functions does app.py define, and where?", cwd=project, config=cfg,
                       client_factory=lambda s: model)
    step = res.state.executed_steps[0]
    assert step.tool_call.tool == "mcp.ragix.defs" and step.result.ok
    assert "def main()" in step.result.stdout and "def helper()" in step.result.stdout
    shown = model.planner_prompts()[0]
    assert "mcp.ragix.defs" in shown and "mcp.ragix.callers" in shown and "mcp.ragix.exec" not in shown
    assert res.state.stop_reason == "success", (res.state.stop_reason, res.state.last_error)
