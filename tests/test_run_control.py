"""Run control for `ragix run` (issue 40, item 2): Ctrl-C, --resume, --dry-run.

Each test drives a real `ragix` process (``python -m ragix_core.cli``) whose model is a scripted
OpenAI-compatible server on loopback (tests/scripted_openai.py), reached through the ordinary
ragix.yaml; Ctrl-C is a real SIGINT sent to that process while it waits for the model. The
commands run for real, confined, in a small project.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any, Dict, Iterator, List

import pytest
import yaml

from tests.mcp.schema_model import schema_reply
from tests.scripted_openai import ScriptedServer, response_schema, scripted_openai_server

ROOT = Path(__file__).resolve().parents[1]
GOAL = "How many lines does app.py have? Which functions does it define?"  # two asks: the run plans
PLAN = {"objective": "count and list", "validation": "the outputs", "confidence": 0.8,
        "steps": [{"num": 1, "description": "count lines", "tool": "wc", "args": {"command": "wc -l app.py"}},
                  {"num": 2, "description": "list definitions", "tool": "grep",
                   "args": {"command": "grep -n def app.py"}}]}


class Model:
    """The scripted model: a plan for plan requests, the smallest valid reply otherwise; while
    ``hold`` is set, every request but a plan waits (the process is then "thinking")."""

    def __init__(self) -> None:
        self.hold = threading.Event()
        self.waiting = threading.Event()  # a held request has arrived
        self.release = threading.Event()
        self.plans = 0

    def __call__(self, request: Dict[str, Any]) -> str:
        if '"steps"' in json.dumps(response_schema(request)):
            self.plans += 1
            return json.dumps(PLAN)
        if self.hold.is_set():
            self.waiting.set()
            self.release.wait(120)
        return schema_reply(request)


@pytest.fixture()
def model() -> Iterator[Model]:
    m = Model()
    yield m
    m.release.set()  # let a held server thread finish


@pytest.fixture()
def server(model: Model) -> Iterator[ScriptedServer]:
    with scripted_openai_server(model) as s:
        yield s


@pytest.fixture()
def project(tmp_path: Path, server: ScriptedServer) -> Path:
    root = tmp_path / "project"
    root.mkdir()
    (root / "app.py").write_text("def main():\n    helper()\n\n\ndef helper():\n    return 0\n")
    (root / "README.md").write_text("# Demo\nThe demo project has one module, app.py, with two functions.\n")
    home = tmp_path / "home"
    home.mkdir()
    config = {"llm": {"default": {"backend": "openai", "model": "scripted", "base_url": server.url, "timeout": 150}}}
    (home / "ragix.yaml").write_text(yaml.safe_dump(config))
    return root


def _env(project: Path) -> Dict[str, str]:
    # PYTHONFAULTHANDLER: a run that hangs after Ctrl-C is sent SIGABRT, which then prints every thread's stack.
    return dict(os.environ, RAGIX_HOME=str(project.parent / "home"), PYTHONPATH=str(ROOT), COLUMNS="200",
                PYTHONFAULTHANDLER="1")


def _start(project: Path, *args: str) -> subprocess.Popen:
    # Its own process group, so that a run which hangs can be ended with everything it started.
    return subprocess.Popen([sys.executable, "-m", "ragix_core.cli", "run", "--cwd", str(project), *args],
                            env=_env(project), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True)


def _interrupt(proc: subprocess.Popen, model: Model) -> "tuple[str, str]":
    """Wait until the process is waiting for the model, then press Ctrl-C (SIGINT)."""
    if not model.waiting.wait(90):
        os.killpg(proc.pid, signal.SIGKILL)
        out, err = proc.communicate(timeout=30)
        pytest.fail(f"the run never asked the held model; stderr:\n{err[-3000:]}")
    proc.send_signal(signal.SIGINT)
    try:
        return proc.communicate(timeout=90)
    except subprocess.TimeoutExpired:
        pytest.fail(_hung(proc))


def _hung(proc: subprocess.Popen) -> str:
    """What a run that did not end after Ctrl-C was doing (CI saw one once, never reproduced): still
    running (its threads' stacks, from the faulthandler on SIGABRT) or ended with its pipes held open
    by a process it started (the processes of its group). Every wait here is bounded."""
    exited = proc.poll()
    group = subprocess.run(["ps", "-o", "pid,ppid,stat,etime,args", "-g", str(proc.pid)],
                           capture_output=True, text=True).stdout
    if exited is None:
        proc.send_signal(signal.SIGABRT)
    try:
        out, err = proc.communicate(timeout=30)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        out, err = proc.communicate(timeout=30)
    state = "was still running" if exited is None else f"had exited ({exited}) but its output stayed open"
    return (f"the run did not end within 90 s of Ctrl-C: it {state}.\nits process group:\n{group}\n"
            f"stdout:\n{out[-2000:]}\nstderr (with the stacks when it was running):\n{err[-6000:]}")


def _records(path: Path) -> List[Dict[str, Any]]:
    """Every line of a JSONL file, each of which must be whole JSON (nothing torn by the interrupt)."""
    lines = path.read_bytes().split(b"\n")
    assert lines[-1] == b"", f"{path} does not end with a newline: its last line was cut"
    return [json.loads(line) for line in lines[:-1]]


def _session(project: Path) -> str:
    (trace,) = (project / ".ragix" / "reasoning_traces").glob("*.jsonl")
    return trace.stem


def test_ctrl_c_ends_the_run_as_user_abort_then_resume_continues_it(project, model, server):
    model.hold.set()
    proc = _start(project, GOAL)
    out, err = _interrupt(proc, model)
    assert proc.returncode == 130, err[-3000:]
    assert "stop: user_abort" in err
    # The partial answer: what the two steps printed before the interrupt, and how to go on.
    assert "Partial Results" in out and "6 app.py" in out and "def helper" in out
    sid = _session(project)
    assert f"ragix run --resume {sid}" in " ".join(out.split())

    trace = _records(project / ".ragix" / "reasoning_traces" / f"{sid}.jsonl")
    assert trace[-1]["kind"] == "run_end" and trace[-1]["data"]["stop_reason"] == "user_abort"
    assert [r["data"]["node"] for r in trace if r["kind"] == "node_error"] == ["RESPOND"]
    events = _records(project / ".ragix" / "experience" / "events.jsonl")
    assert [e["tool_input"] for e in events if e["event_type"] == "execution"] == ["wc -l app.py", "grep -n def app.py"]
    assert events[-1]["event_type"] == "respond" and events[-1]["outcome_status"] == "user_abort"

    # --resume: the same session continues from the checkpoint before RESPOND; nothing is planned or run again.
    model.hold.clear()
    model.release.set()
    done = subprocess.run([sys.executable, "-m", "ragix_core.cli", "run", "--resume", sid, "--json"],
                          env=_env(project), capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-3000:]
    result = json.loads(done.stdout)
    assert (result["session_id"], result["stop_reason"]) == (sid, "success")
    assert len(result["executed_steps"]) == 2 and model.plans == 1
    trace = _records(project / ".ragix" / "reasoning_traces" / f"{sid}.jsonl")  # the same file, continued
    resumed = trace[max(i for i, r in enumerate(trace) if r["kind"] == "run_start"):]
    assert resumed[0]["data"]["start"] == "RESPOND"
    assert not [r for r in resumed if r["kind"] == "tool_call"]
    assert resumed[-1]["kind"] == "run_end" and resumed[-1]["data"]["stop_reason"] == "success"


@pytest.mark.parametrize("strategy", ["graph_v2", "loop_v1", "s0", "contractive", "tutor", "chat", "research"])
def test_ctrl_c_ends_every_engine_as_user_abort(project, model, strategy):
    model.hold.set()
    proc = _start(project, "--strategy", strategy, "--json", "How many lines does app.py have?")
    out, err = _interrupt(proc, model)
    assert proc.returncode == 130, err[-3000:]
    result = json.loads(out)
    assert result["stop_reason"] == "user_abort"
    assert "user_abort" in result["final_answer"]  # the partial answer names the stop
    sid = result["session_id"]
    traces = list(project.parent.glob(f"**/reasoning_traces/{sid}.jsonl"))
    assert len(traces) == 1, f"no trace for {sid}"
    trace = _records(traces[0])
    assert trace[-1]["kind"] == "run_end" and trace[-1]["data"]["stop_reason"] == "user_abort"


def test_dry_run_prints_the_plan_and_confined_commands_and_runs_none(project, server):
    before = sorted(p.name for p in project.iterdir())
    done = subprocess.run([sys.executable, "-m", "ragix_core.cli", "run", "--cwd", str(project), "--dry-run", GOAL],
                          env=_env(project), capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-3000:]
    text = done.stdout
    assert text.startswith("Dry run: nothing was executed.")
    assert "1. count lines" in text and "$ wc -l app.py" in text and "$ grep -n def app.py" in text
    first, second = text.split("$ wc -l app.py")[1].split("$ grep -n def app.py")
    root = str(project.resolve())
    assert f"may read: " in first and root in first.split("may read: ")[1].splitlines()[0]
    assert "hidden (an empty directory): " + str(project.resolve() / ".ragix") in first
    layer = first.split("[")[1].split("]")[0]
    if layer == "bwrap":  # the exact command line: bubblewrap's, the project read-only for a reader
        assert f"--ro-bind {root} {root}" in first and first.count("-- /usr/bin/wc -l app.py") == 1
    assert "may write: " + root not in first  # a reader writes nothing in the project
    # nothing ran: no process, no new file, no experience recorded; the model was asked for the plan
    assert sorted(p.name for p in project.iterdir()) == sorted(before + [".ragix"])
    (trace,) = (project / ".ragix" / "reasoning_traces").glob("*.jsonl")
    assert not [r for r in _records(trace) if r["kind"] == "tool_call"]
    assert not (project / ".ragix" / "experience" / "events.jsonl").exists()
    assert [r["data"]["stop_reason"] for r in _records(trace) if r["kind"] == "run_end"] == ["dry_run"]


def test_dry_run_shows_a_write_with_what_it_may_write(project, server, model):
    PLAN_WRITE = {**PLAN, "steps": [PLAN["steps"][0], {"num": 2, "description": "make out", "tool": "mkdir",
                                                       "args": {"command": "mkdir out"}}]}
    original = dict(PLAN)
    PLAN.update(PLAN_WRITE)
    try:
        for flags, approval in (("--yes",), None), ((), "refused"):
            done = subprocess.run([sys.executable, "-m", "ragix_core.cli", "run", "--cwd", str(project), "--dry-run",
                                   *flags, GOAL], env=_env(project), capture_output=True, text=True, timeout=120)
            assert done.returncode == 0, done.stderr[-3000:]
            write = done.stdout.split("$ mkdir out")[1]
            assert "may write: " + str(project.resolve()) in write
            assert ("write approval: refused" in write) == (approval == "refused")
        assert not (project / "out").exists()
    finally:
        PLAN.clear()
        PLAN.update(original)


@pytest.mark.parametrize("strategy", ["research", "contractive"])
def test_dry_run_of_an_engine_without_commands_asks_no_model(project, server, strategy):
    done = subprocess.run([sys.executable, "-m", "ragix_core.cli", "run", "--cwd", str(project), "--dry-run",
                           "--strategy", strategy, "What does the demo do?"],
                          env=_env(project), capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-3000:]
    assert "runs no confined command" in done.stdout and server.requests == []
