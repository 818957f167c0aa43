"""A real `ragix serve` on loopback for the API and browser tests: uvicorn in a thread on a free
port, the app `ragix serve` builds, real tools on a copy of the mock repository, and a scripted
model (the only stand-in) that answers each goal from its own script."""

from __future__ import annotations

import os
import shutil
import socket
import tempfile
import threading
import time
from pathlib import Path
from typing import Any, Dict, List, Optional

import httpx
import pytest
import uvicorn

from ragix_core.config import parse_config
from ragix_core.llm.base import Completion, Usage
from ragix_core.serve.app import create_app
from ragix_core.serve.settings import ServeSettings

MOCK_REPO = Path(__file__).resolve().parents[1] / "reasoning_v30" / "fixtures" / "mock_repo"


def fenced(command: str) -> str:
    return f"This prints it:\n```sh\n{command}\n```"


class ScriptsByGoal:
    """The model behind every role of every run: the replies scripted for the goal the prompt
    mentions, in order; ``delay`` seconds before each, so a page can watch a run happen."""

    backend = model = "scripted"

    def __init__(self, scripts: Dict[str, List[Any]], delay: float = 0.0) -> None:
        self.scripts = {goal: list(replies) for goal, replies in scripts.items()}
        self.delay = delay
        self.calls: List[str] = []
        self._lock = threading.Lock()

    def __call__(self, settings: Any) -> "ScriptsByGoal":  # the client_factory
        return self

    def complete(self, messages, *, schema=None, max_tokens=512, temperature=0.0, timeout=None, seed=None):
        import json

        text = "\n".join(str(m.get("content")) for m in messages)
        with self._lock:
            goal = next((g for g in self.scripts if g in text), None)
            if goal is None or not self.scripts[goal]:
                raise AssertionError(f"no scripted reply left for this prompt: {text[-200:]}")
            reply = self.scripts[goal].pop(0)
            self.calls.append(goal)
        time.sleep(self.delay)
        reply = reply if isinstance(reply, str) else json.dumps(reply)
        data = json.loads(reply) if schema is not None else None
        return Completion(text=reply, data=data, usage=Usage(10, 5), model="scripted", backend="scripted")


class Slowed:
    """Any scripted client, ``delay`` seconds slower per call: a page has time to show each step."""

    def __init__(self, inner: Any, delay: float) -> None:
        self.inner, self.delay = inner, delay
        self.backend = self.model = "scripted"

    def __call__(self, settings: Any) -> "Slowed":  # the client_factory
        return self

    def complete(self, *args: Any, **kwargs: Any) -> Any:
        time.sleep(self.delay)
        return self.inner.complete(*args, **kwargs)


class LiveServer:
    def __init__(self, settings: ServeSettings) -> None:
        self.settings = settings
        self.app = create_app(settings)
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(("127.0.0.1", 0))
        self.port = sock.getsockname()[1]
        self.url = f"http://127.0.0.1:{self.port}"
        self.server = uvicorn.Server(uvicorn.Config(self.app, log_level="warning", lifespan="on"))
        self.thread = threading.Thread(target=self.server.run, kwargs={"sockets": [sock]}, daemon=True)
        self.thread.start()
        deadline = time.time() + 20
        while not self.server.started:
            if time.time() > deadline:
                raise RuntimeError("uvicorn did not start")
            time.sleep(0.02)

    def client(self, **kw: Any) -> httpx.Client:
        return httpx.Client(base_url=self.url, timeout=30, **kw)

    def wait_for(self, run_id: str, timeout: float = 60) -> Dict[str, Any]:
        deadline = time.time() + timeout
        with self.client() as c:
            while time.time() < deadline:
                run = c.get(f"/api/runs/{run_id}").json()
                if run["status"] not in ("queued", "running"):
                    return run
                time.sleep(0.05)
        raise AssertionError(f"run {run_id} did not end within {timeout}s")

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=20)


CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"


@pytest.fixture(scope="session")
def shots() -> Path:
    """Where the browser tests save a screenshot of each view: $RAGIX_SCREENSHOTS, else a new
    temporary directory; printed, so a person can look at them after the run."""
    directory = Path(os.environ.get("RAGIX_SCREENSHOTS") or tempfile.mkdtemp(prefix="ragix-serve-shots-"))
    directory.mkdir(parents=True, exist_ok=True)
    print(f"\nscreenshots of the served page: {directory}")
    return directory


@pytest.fixture()
def browser():
    """Debian's chromium, driven by playwright through its path (playwright never downloads a browser here)."""
    from playwright.sync_api import expect, sync_playwright

    assert Path(CHROMIUM).exists(), "chromium is missing: scripts/test.sh installs it (apt)"
    # How long an expectation waits for the page before it fails (playwright's default is 5 s): on a
    # loaded 2-core machine a click's fetch and render took longer. A bound on waiting, not on speed.
    expect.set_options(timeout=20_000)
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        yield b
        b.close()


@pytest.fixture()
def project(tmp_path, monkeypatch) -> Path:
    monkeypatch.setenv("RAGIX_HOME", str(tmp_path / "home"))
    root = tmp_path / "project"
    shutil.copytree(MOCK_REPO, root)
    return root


@pytest.fixture()
def serve(project, tmp_path):
    """``serve(scripts, **settings)`` starts a server on ``project`` (root name ``project``);
    ``model=`` gives another scripted client instead of one scripted by goal."""
    servers: List[LiveServer] = []

    def start(scripts: Optional[Dict[str, List[Any]]] = None, delay: float = 0.0, model: Any = None,
              **overrides: Any) -> LiveServer:
        model = ScriptsByGoal(scripts or {}, delay) if model is None else Slowed(model, delay)
        settings = ServeSettings(roots=overrides.pop("roots", {"project": project}), client_factory=model,
                                 config=overrides.pop("config", parse_config({})), **overrides)
        server = LiveServer(settings)
        server.model = model  # type: ignore[attr-defined]
        servers.append(server)
        return server

    yield start
    for server in servers:
        server.stop()
