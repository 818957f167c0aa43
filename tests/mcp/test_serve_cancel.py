"""Cancelling a request stops its run: the server's engine asks its model no more, and the server
goes on serving. Over stdio, in a subprocess, with a scripted model that holds its first reply."""

from __future__ import annotations

import threading
import time

import anyio
import pytest
import yaml
from mcp import Client

from tests.mcp.schema_model import schema_reply
from tests.mcp.test_serve_engines import stdio
from tests.scripted_openai import scripted_openai_server


def test_a_cancelled_run_asks_its_model_nothing_more_and_the_server_serves_on(project, tmp_path):
    entered, release = threading.Event(), threading.Event()

    def held(request):
        entered.set()
        release.wait(30)
        return schema_reply(request)

    with scripted_openai_server(held) as model:
        home = tmp_path / "home" / "ragix.yaml"
        config = yaml.safe_load(home.read_text())
        config["llm"]["default"]["base_url"] = model.url
        home.write_text(yaml.safe_dump(config))

        async def go():
            async with Client(stdio(project, tmp_path), read_timeout_seconds=60) as client:
                async with anyio.create_task_group() as tg:
                    async def long_run():
                        await client.call_tool("run", {"goal": "How many lines does app.py have?"})
                    tg.start_soon(long_run)
                    await anyio.to_thread.run_sync(entered.wait, 30)
                    tg.cancel_scope.cancel()
                release.set()
                await anyio.sleep(1.5)  # time for the run's next model call, if it were still going
                after = await client.call_tool("defs", {"paths": ["app.py"]})
                return after

        after = anyio.run(go)
        assert entered.is_set()
        assert len(model.requests) == 1, "the cancelled run went on asking its model"
        assert not after.is_error and "def main()" in after.structured_content["result"]["stdout"]
