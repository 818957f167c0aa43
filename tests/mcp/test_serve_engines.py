"""The SDK's own client drives `ragix mcp serve` in a subprocess over stdio, and every engine
runs to its end on a scripted model, sending progress notifications as it goes."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Dict, List, Tuple

import anyio
import pytest
from mcp import Client, StdioServerParameters

from tests.mcp.conftest import RAGIX, server_env

ENGINE_CALLS = [
    ("run", {"goal": "How many lines does app.py have?"}),
    ("reason", {"question": "How many lines does app.py have?"}),
    ("reason", {"question": "How many lines does app.py have?", "strategy": "loop_v1"}),
    ("tutor", {"goal": "How many lines does app.py have?", "max_turns": 2}),
    ("research", {"question": "What does the demo project contain?"}),
    ("chat", {"message": "How many lines does app.py have?", "session_id": "s1"}),
]


def stdio(project: Path, tmp_path: Path, *extra: str) -> StdioServerParameters:
    return StdioServerParameters(command=RAGIX[0], args=RAGIX[1:] + ["mcp", "serve", "--root", str(project), *extra],
                                 env=server_env(tmp_path), cwd=str(project))


async def call_all(server: Any, calls) -> List[Tuple[str, Any, List[Tuple[float, str]]]]:
    out = []
    async with Client(server, read_timeout_seconds=120) as client:
        for name, args in calls:
            progress: List[Tuple[float, str]] = []

            async def on_progress(value: float, total: Any, message: Any) -> None:
                progress.append((value, message))

            result = await client.call_tool(name, args, progress_callback=on_progress)
            out.append((name, result, progress))
    return out


def test_every_engine_runs_to_its_end_over_stdio_with_progress(project, tmp_path, scripted_model):
    results = anyio.run(call_all, stdio(project, tmp_path), ENGINE_CALLS)
    for name, result, progress in results:
        assert not result.is_error, (name, result.content)
        report: Dict[str, Any] = result.structured_content
        assert report["stop_reason"] and isinstance(report["answer"], str), (name, report)
        assert progress, f"{name}: no progress notification"
        assert [p[0] for p in progress] == sorted(p[0] for p in progress), "progress only grows"
    by_name = {r[0]: r[1].structured_content for r in results}
    # a short output from one command, with no cross-check draw by default
    assert by_name["run"]["strategy"] == "graph_v30" and by_name["run"]["stop_reason"] == "unconfirmed"
    assert any("wc -l app.py" in c["command"] and "6" in c["stdout"] for c in by_name["run"]["commands"])
    assert by_name["run"]["trace_path"] and Path(by_name["run"]["trace_path"]).is_file()
    assert by_name["chat"]["session_id"] == "s1"
    assert len(scripted_model.requests) > 6  # every engine asked the scripted model, not a real one
