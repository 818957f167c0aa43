"""The global trace store of spec 000 §5.1 (issue 40, item 3): a run in one project is found from another.

The runs are real `ragix run` processes whose model is a scripted OpenAI-compatible server on
loopback (tests/scripted_openai.py, tests/mcp/schema_model.py), reached through the user's
ordinary ragix.yaml; the commands run for real, confined, in a small project.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any, Dict, Iterator

import pytest
import yaml

from ragix_core.config import load_config, parse_config, ConfigError
from ragix_core.memory.global_traces import prune_sessions
from tests.mcp.schema_model import schema_reply
from tests.scripted_openai import ScriptedServer, scripted_openai_server

ROOT = Path(__file__).resolve().parents[2]
GOAL = "How many lines does app.py have?"


@pytest.fixture()
def server() -> Iterator[ScriptedServer]:
    with scripted_openai_server(schema_reply) as s:
        yield s


def _project(root: Path) -> Path:
    root.mkdir()
    (root / "app.py").write_text("def main():\n    helper()\n\n\ndef helper():\n    return 0\n")
    return root


def _home(tmp_path: Path, server: ScriptedServer, **memory: Any) -> Path:
    home = tmp_path / "home"
    home.mkdir(exist_ok=True)
    config: Dict[str, Any] = {"llm": {"default": {"backend": "openai", "model": "scripted", "base_url": server.url,
                                                  "timeout": 150}}}
    if memory:
        config["memory"] = memory
    (home / "ragix.yaml").write_text(yaml.safe_dump(config))
    return home


def _ragix(home: Path, *args: str) -> subprocess.CompletedProcess:
    env = dict(os.environ, RAGIX_HOME=str(home), PYTHONPATH=str(ROOT), COLUMNS="200")
    return subprocess.run([sys.executable, "-m", "ragix_core.cli", *args], env=env, capture_output=True, text=True,
                          timeout=900)  # generous: the test machine may be shared and starved


def _run(home: Path, project: Path) -> str:
    done = _ragix(home, "run", "--cwd", str(project), "--json", GOAL)
    # exit 1: not `success`, the answer (a short output) rests on one command
    assert done.returncode == 1 and json.loads(done.stdout)["stop_reason"] == "unconfirmed", done.stderr[-3000:]
    return json.loads(done.stdout)["session_id"]


def test_a_run_in_one_project_is_found_from_another(tmp_path, server):
    home = _home(tmp_path, server)
    first, second = _project(tmp_path / "first"), _project(tmp_path / "second")
    sid = _run(home, first)

    stored = home / "experience" / "traces" / f"{sid}.jsonl"
    assert stored.is_file()
    local = first / ".ragix" / "reasoning_traces" / f"{sid}.jsonl"
    assert stored.read_bytes() == local.read_bytes()  # the same events, whole lines, in the same order

    # From the other project: its own trace directory has no such session, the global store does.
    assert not (second / ".ragix" / "reasoning_traces").exists()
    shown = _ragix(home, "trace", "show", sid, "--cwd", str(second), "--json")
    assert shown.returncode == 0, shown.stderr[-2000:]
    records = json.loads(shown.stdout)
    assert records[0]["kind"] == "run_start" and records[0]["data"]["goal"] == GOAL
    assert records[-1]["kind"] == "run_end"
    assert any(r["kind"] == "tool_call" and "app.py" in json.dumps(r["data"]) for r in records)

    # Its experience (the global corpus) is found by a search from the other project too.
    found = _ragix(home, "corpus", "search", "app.py lines", "--project", str(second), "--json")
    assert found.returncode == 0, found.stderr[-2000:]
    hits = json.loads(found.stdout)["hits"]
    assert {h["source"] for h in hits if h["session_id"] == sid} == {"global"}


@pytest.mark.parametrize("enabled, profile, written", [(True, "dev", True), (False, "dev", False),
                                                      (True, "safe", False)])
def test_written_only_when_the_users_config_and_the_profile_allow_it(tmp_path, monkeypatch, enabled, profile,
                                                                     written):
    """The run's own wiring (RunContext), in process: the user's switch, and `safe` (memory off)."""
    from ragix_core.core.events import EventKind
    from ragix_core.core.registry import get_engine
    from ragix_core.profiles import get_profile
    from ragix_core.runtime.context import RunContext

    home = tmp_path / "home"
    monkeypatch.setenv("RAGIX_HOME", str(home))
    home.mkdir()
    # A remote endpoint (never called: no model is asked here), which `safe` requires.
    remote = {"default": {"backend": "openai", "model": "m", "base_url": "https://llm.example.com/v1"}}
    (home / "ragix.yaml").write_text(yaml.safe_dump({"llm": remote, "memory": {"global_traces": {"enabled": enabled}}}))
    project = _project(tmp_path / "first")
    config = load_config(cwd=project)
    ctx = RunContext.open(cwd=project, config=config, profile=get_profile(profile), engine=get_engine("graph_v30"))
    ctx.bus.publish(EventKind.RUN_START, ctx.session_id, goal=GOAL, start="CLASSIFY")
    ctx.close()
    local = project / ".ragix" / "reasoning_traces" / f"{ctx.session_id}.jsonl"
    assert local.is_file()  # the project's trace is written either way
    stored = home / "experience" / "traces" / f"{ctx.session_id}.jsonl"
    assert stored.is_file() == written
    if written:
        assert stored.read_bytes() == local.read_bytes()
    else:
        assert not (home / "experience" / "traces").exists()


@pytest.mark.parametrize("trusted", [False, True])
def test_a_project_config_cannot_set_it(tmp_path, monkeypatch, capsys, trusted):
    home = tmp_path / "home"
    monkeypatch.setenv("RAGIX_HOME", str(home))
    home.mkdir()
    (home / "ragix.yaml").write_text("memory:\n  global_traces: {enabled: false}\n")
    project = tmp_path / "proj"
    project.mkdir()
    (project / "ragix.yaml").write_text("memory:\n  global_traces: {enabled: true, max_sessions: 99}\n"
                                        "reasoning: {graph: {max_iterations: 9}}\n")
    if trusted:
        from ragix_core.trust import trust

        trust(project)
    cfg = load_config(cwd=project)
    assert cfg.memory.global_traces.enabled is False  # the user's
    assert cfg.memory.global_traces.max_sessions == 2000  # the default, not the project's 99
    err = capsys.readouterr().err
    assert f"{project / 'ragix.yaml'} sets memory.global_traces" in err
    assert "your own config only" in err and "refused, using yours" in err
    assert "DSN" not in err  # the message names what the project tried, not another key


def test_the_section_is_validated():
    with pytest.raises(ConfigError, match="memory.global_traces.max_sessions"):
        parse_config({"memory": {"global_traces": {"max_sessions": 0}}})
    with pytest.raises(ConfigError, match="memory.global_traces.path: unknown key"):
        parse_config({"memory": {"global_traces": {"path": "/tmp/elsewhere"}}})


def test_retention_removes_the_oldest_sessions_but_never_the_one_being_written(tmp_path):
    store = tmp_path / "traces"
    store.mkdir()
    for i in range(6):
        path = store / f"s{i}.jsonl"
        path.write_text("{}\n")
        os.utime(path, ns=(10**18 + i * 10**9, 10**18 + i * 10**9))
    os.utime(store / "s0.jsonl", ns=(10**18, 10**18))  # the oldest file is the current session's
    (store / "notes.txt").write_text("not a trace")
    removed = prune_sessions(store, keep=3, protect="s0")
    assert sorted(p.name for p in removed) == ["s1.jsonl", "s2.jsonl", "s3.jsonl"]
    assert sorted(p.name for p in store.iterdir()) == ["notes.txt", "s0.jsonl", "s4.jsonl", "s5.jsonl"]
    assert prune_sessions(store, keep=3, protect="s0") == []
    assert prune_sessions(tmp_path / "missing", keep=1) == []
