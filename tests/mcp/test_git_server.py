"""A plan that uses a real MCP server: mcp-server-git (PyPI), started by ragix under bubblewrap,
on a fixture repository; the planner is scripted, the tools, the server and the sandbox are real."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from ragix_core.config import parse_config
from ragix_core.core.events import EventKind
from ragix_core.runtime.run import run_goal
from tests.mcp.conftest import RAGIX, needs_bwrap, server_env
from tests.mcp.routed_model import RoutedModel, plan_of
from tests.scripted_openai import response_schema, scripted_openai_server

GIT_SERVER = str(Path(sys.executable).parent / "mcp-server-git")
pytestmark = needs_bwrap


@pytest.fixture()
def repo(tmp_path, home) -> Path:
    root = tmp_path / "repo"
    root.mkdir()
    git = lambda *a: subprocess.run(["git", "-C", str(root), *a], check=True, capture_output=True)  # noqa: E731
    git("init", "-q")
    git("config", "user.email", "t@example.com")
    git("config", "user.name", "Tester")
    (root / "notes.txt").write_text("one\n")
    git("add", ".")
    git("commit", "-qm", "first: add notes")
    (root / "notes.txt").write_text("one\ntwo\n")
    git("commit", "-qam", "second: extend notes")
    (root / "notes.txt").write_text("one\ntwo\nthree\n")  # an unstaged change for status and diff
    return root


def config(root: Path, **server):
    return parse_config({"reasoning": {"traces": {"enabled": False}},
                         "mcp": {"servers": {"git": {"command": [GIT_SERVER, "--repository", str(root)],
                                                     "tools": ["git_log", "git_status", "git_diff_unstaged"],
                                                     **server}}}})


def test_a_plan_reads_log_status_and_diff_through_the_confined_git_server(repo):
    model = RoutedModel(plan_of(
        {"description": "the commits", "tool": "mcp.git.git_log", "args": {"repo_path": str(repo), "max_count": 5}},
        {"description": "the status", "tool": "mcp.git.git_status", "args": {"repo_path": str(repo)}},
        {"description": "the change", "tool": "mcp.git.git_diff_unstaged", "args": {"repo_path": str(repo)}},
    ), answer="Two commits (first: add notes; second: extend notes); notes.txt is modified: +three.")
    res = run_goal("Which commits are in the repository, and what is changed but not committed?", cwd=repo,
                   config=config(repo), client_factory=lambda s: model)
    steps = res.state.executed_steps
    assert [s.tool_call.tool for s in steps] == ["mcp.git.git_log", "mcp.git.git_status", "mcp.git.git_diff_unstaged"]
    assert all(s.result.ok for s in steps), [s.result for s in steps]
    assert "second: extend notes" in steps[0].result.stdout and "first: add notes" in steps[0].result.stdout
    assert "modified:   notes.txt" in steps[1].result.stdout
    assert "+three" in steps[2].result.stdout
    assert res.state.stop_reason == "success"
    # traced like a command: one TOOL_CALL event per call, under the run's profile and sandbox
    calls = [e.data for e in res.events if e.kind == EventKind.TOOL_CALL]
    assert [c["tool"] for c in calls] == ["mcp.git.git_log", "mcp.git.git_status", "mcp.git.git_diff_unstaged"]
    assert all(c["sandbox"] == "bwrap" and c["profile"] == "dev" for c in calls)
    # the planner saw the tools with their schemas, and only the allowed ones
    shown = model.planner_prompts()[0]
    assert "mcp.git.git_log" in shown and '"repo_path"' in shown and "git_commit" not in shown


def test_a_step_with_arguments_the_schema_rejects_is_refused_before_the_call(repo):
    model = RoutedModel(plan_of({"description": "log", "tool": "mcp.git.git_log", "args": {"repo_path": 42}}),
                        answer="I could not read the log.")
    res = run_goal("Which commits are in the repository, and who wrote them?", cwd=repo, config=config(repo),
                   client_factory=lambda s: model)
    refused = [e.data for e in res.events if e.kind == EventKind.TOOL_CALL and e.data.get("refused")]
    assert refused and "repo_path: 42 is not of type 'string'" in refused[0]["reason"]
    assert res.state.stop_reason != "success"


def test_a_tool_the_config_does_not_allow_is_not_offered_and_is_refused(repo):
    model = RoutedModel(plan_of({"description": "commit", "tool": "mcp.git.git_commit",
                                 "args": {"repo_path": str(repo), "message": "sneaky"}}), answer="done")
    res = run_goal("Commit the change, and say which commit it made?", cwd=repo, config=config(repo),
                   client_factory=lambda s: model)
    log = subprocess.run(["git", "-C", str(repo), "log", "--oneline"], capture_output=True, text=True).stdout
    assert "sneaky" not in log and len(log.splitlines()) == 2
    assert res.state.stop_reason != "success"


def test_the_safe_profile_starts_no_server(repo):
    """A server that cannot start ends a dev run with its failure's name; under safe it is never started."""
    cfg = parse_config({"llm": {"default": {"backend": "openai", "base_url": "https://llm.example.com/v1",
                                            "model": "remote"}},  # safe allows cloud models only (never called)
                        "mcp": {"servers": {"broken": {"command": ["/bin/false"], "timeout": 5}}}})
    model = RoutedModel(plan_of({"description": "x", "tool": "none", "args": {}}), answer="Hello.")
    dev = run_goal("hello!", cwd=repo, config=cfg, profile="dev", client_factory=lambda s: model)
    assert dev.state.stop_reason in ("mcp_server_died", "mcp_server_timeout"), dev.state.stop_reason
    assert "broken" in dev.state.final_answer and not model.prompts  # no model call for a run that cannot start
    safe = run_goal("hello!", cwd=repo, config=cfg, profile="safe", client_factory=lambda s: model)
    assert safe.state.stop_reason == "success" and safe.state.final_answer == "Hello."


def test_the_worker_writes_an_mcp_tool_as_its_one_command_on_the_main_path(repo):
    model = RoutedModel(plan_of({"description": "x", "tool": "none", "args": {}}),
                        answer="The last commit to notes.txt is 'second: extend notes'.",
                        command=f'mcp.git.git_log {{"repo_path": "{repo}", "max_count": 1}}')
    res = run_goal("Which commit last changed notes.txt?", cwd=repo, config=config(repo),
                   client_factory=lambda s: model)
    assert res.node_trace[:2] == ["CLASSIFY", "DIRECT_EXEC"]
    worker = next(p for p in model.prompts if "code block" in p)
    assert "mcp.git.git_log" in worker and "ONE JSON" in worker and '"repo_path"' in worker
    calls = [e.data for e in res.events if e.kind == EventKind.TOOL_CALL]
    assert calls and all(c["tool"] == "mcp.git.git_log" and not c["refused"] for c in calls)
    step = res.state.executed_steps[0]
    assert "second: extend notes" in step.result.stdout and "first: add notes" not in step.result.stdout
    assert res.state.stop_reason == "success", (res.state.stop_reason, res.state.final_answer)


def test_a_worker_line_whose_arguments_are_not_one_json_object_is_refused(repo):
    from ragix_core.tools import ToolBox

    box = ToolBox(repo, profile="dev")
    from ragix_core.runtime.mcp_servers import open_servers

    servers = open_servers(config(repo), "dev", repo, box)
    try:
        for line in ("mcp.git.git_log {repo_path: .}", 'mcp.git.git_log ["."]'):
            result = box.run_command(line)
            assert result.refused and "must be one JSON object" in result.error, line
        assert box.run_command(f'mcp.git.git_status {{"repo_path": "{repo}"}}').ok
    finally:
        servers.close()


def test_ragix_run_on_the_command_line_plans_with_the_confined_git_server(repo, tmp_path):
    """`ragix run` in a subprocess, the server in the user's own ragix.yaml: the whole path a user takes."""
    goal = "Which commits are in the repository, and what is changed but not committed?"
    routed = RoutedModel(plan_of(
        {"description": "the commits", "tool": "mcp.git.git_log", "args": {"repo_path": str(repo), "max_count": 5}},
        {"description": "the status", "tool": "mcp.git.git_status", "args": {"repo_path": str(repo)}},
        {"description": "the change", "tool": "mcp.git.git_diff_unstaged", "args": {"repo_path": str(repo)}},
    ), answer="Two commits (first: add notes; second: extend notes); notes.txt has +three, not committed.")

    def reply(request):
        schema = response_schema(request)
        return routed.complete(request["messages"], schema=schema or None).text

    with scripted_openai_server(reply) as model:
        home = tmp_path / "home"
        home.mkdir(exist_ok=True)
        (home / "ragix.yaml").write_text(yaml.safe_dump({
            "llm": {"default": {"backend": "openai", "model": "scripted", "base_url": model.url, "timeout": 30}},
            "mcp": {"servers": {"git": {"command": [GIT_SERVER, "--repository", str(repo)],
                                        "tools": ["git_log", "git_status", "git_diff_unstaged"]}}}}))
        done = subprocess.run(RAGIX + ["run", goal, "--cwd", str(repo), "--json"], env=server_env(tmp_path),
                              capture_output=True, text=True, timeout=180)
    assert done.returncode == 0, done.stderr[-2000:]
    state = json.loads(done.stdout)
    assert state["stop_reason"] == "success"
    steps = {s["tool_call"]["tool"]: s["result"] for s in state["executed_steps"]}
    assert "second: extend notes" in steps["mcp.git.git_log"]["stdout"]
    assert "modified:   notes.txt" in steps["mcp.git.git_status"]["stdout"]
    assert "+three" in steps["mcp.git.git_diff_unstaged"]["stdout"]
    assert "mcp.git.git_log" in routed.planner_prompts()[0]
    # the run's trace holds each call as a TOOL_CALL event, made under bubblewrap like a command
    events = [json.loads(line) for line in Path(state["trace_path"]).read_text().splitlines()]
    calls = [e["data"] for e in events if e["kind"] == "tool_call" and e["data"]["tool"].startswith("mcp.git.")]
    assert [c["tool"] for c in calls] == ["mcp.git.git_log", "mcp.git.git_status", "mcp.git.git_diff_unstaged"]
    assert all(c["sandbox"] == "bwrap" and c["profile"] == "dev" and not c["refused"] for c in calls)
