"""Cancelling a request stops its run: the engine asks its model no more, and the server goes on
serving. Every engine, over stdio and over Streamable HTTP, each server in a subprocess, with a
scripted model that holds every reply until the test lets it go."""

from __future__ import annotations

import threading
from typing import Any, Dict, List

import anyio
import pytest
import yaml
from mcp import Client

from tests.mcp.schema_model import schema_reply
from tests.mcp.test_serve_engines import ENGINE_CALLS, stdio
from tests.mcp.test_serve_http import TOKEN, http_server, with_token
from tests.scripted_openai import scripted_openai_server

# `reason` twice in ENGINE_CALLS (two strategies): once is enough to cancel
CANCELLED = [call for i, call in enumerate(ENGINE_CALLS) if call[0] != "reason" or i == 1]


class HeldModel:
    """Answers each request only once ``release`` is set; ``entered`` says one is waiting."""

    def __init__(self) -> None:
        self.entered, self.release = threading.Event(), threading.Event()

    def __call__(self, request: Dict[str, Any]) -> str:
        self.entered.set()
        self.release.wait(30)
        return schema_reply(request)


def _point_home_at(tmp_path, url: str) -> None:
    home = tmp_path / "home" / "ragix.yaml"
    config = yaml.safe_load(home.read_text())
    config["llm"]["default"]["base_url"] = url
    home.write_text(yaml.safe_dump(config))


async def _settled(requests: List[Any]) -> int:
    """The number of requests once it has not changed for a second (ten seconds at most)."""
    count, still = len(requests), 0.0
    for _ in range(100):
        await anyio.sleep(0.1)
        count, still = len(requests), (still + 0.1 if len(requests) == count else 0.0)
        if still >= 1.0:
            break
    return count


async def cancel_each(server: Any, held: HeldModel, requests: List[Any]) -> List[Dict[str, Any]]:
    """Start each engine, cancel it while its first model call is held, let the model answer, and
    count the model requests begun after the cancel; then check the server still serves."""
    out = []
    async with Client(server, read_timeout_seconds=60) as client:
        for name, args in CANCELLED:
            held.entered.clear()
            held.release.clear()
            async with anyio.create_task_group() as tg:
                async def engine_call() -> None:
                    await client.call_tool(name, args)
                tg.start_soon(engine_call)
                await anyio.to_thread.run_sync(held.entered.wait, 30)
                tg.cancel_scope.cancel()
            # An engine may ask its model several things at once (contractive's peers): calls begun
            # before the cancel reach the held model now; only the calls after it are counted.
            at_cancel = await _settled(requests)
            held.release.set()
            await anyio.sleep(2)  # time for the run's next model call, if it were still going
            out.append({"engine": name, "entered": held.entered.is_set(), "after": len(requests) - at_cancel})
        after = await client.call_tool("defs", {"paths": ["app.py"]})
        out.append({"serving": not after.is_error and "def main()" in after.structured_content["result"]["stdout"]})
    return out


def _check(results: List[Dict[str, Any]]) -> None:
    *engines, serving = results
    assert [r["engine"] for r in engines] == [c[0] for c in CANCELLED]
    for r in engines:
        assert r["entered"], f"{r['engine']}: never asked its model"
        assert r["after"] == 0, f"{r['engine']}: the cancelled run went on asking its model ({r['after']} more)"
    assert serving["serving"], "the server stopped serving after the cancels"


@pytest.mark.parametrize("transport", ["stdio", "http"])
def test_every_cancelled_engine_asks_its_model_nothing_more_and_the_server_serves_on(project, tmp_path, transport):
    held = HeldModel()
    with scripted_openai_server(held) as model:
        _point_home_at(tmp_path, model.url)
        try:
            if transport == "stdio":
                results = anyio.run(cancel_each, stdio(project, tmp_path), held, model.requests)
            else:
                with http_server(project, tmp_path) as url:
                    results = anyio.run(cancel_each, with_token(url, TOKEN), held, model.requests)
        finally:
            held.release.set()  # a failing run must not leave the model's threads waiting
    _check(results)
