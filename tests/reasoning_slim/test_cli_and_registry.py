"""`ragix reason` end to end on a scripted OpenAI-compatible server on loopback (the real openai
client, the real RunContext and roles), and the engine through the registry (`run_goal`)."""

from __future__ import annotations

import json
import re
from typing import Iterator

import pytest
from typer.testing import CliRunner

from ragix_core.cli import app
from tests.reasoning_slim.fakes import ScriptedClient
from tests.scripted_openai import response_schema, scripted_openai_server
from tests.reasoning_slim.test_engine import OFF, Q, S1, S2, split_client

pytest.importorskip("openai")


def _answer_from(script: ScriptedClient):
    def answer(request: dict) -> str:
        schema = response_schema(request) or None
        return script.complete(request["messages"], schema=schema, temperature=request.get("temperature", 0.0)).text
    return answer


@pytest.fixture()
def project(tmp_path, monkeypatch) -> Iterator[tuple]:
    script = split_client()
    monkeypatch.setenv("RAGIX_HOME", str(tmp_path / "home"))
    root = tmp_path / "project"
    root.mkdir()
    with scripted_openai_server(_answer_from(script), usage=(30, 12)) as server:
        # The user's own config ($RAGIX_HOME/ragix.yaml): a project's file may not name an endpoint.
        (tmp_path / "home").mkdir()
        (tmp_path / "home" / "ragix.yaml").write_text(
            f"llm:\n  default: {{backend: openai, model: scripted, base_url: \"{server.url}\"}}\n")
        yield root, script


def test_reason_json_has_answer_tree_metrics_and_exports(project, tmp_path):
    root, script = project
    trace, mermaid = tmp_path / "t.json", tmp_path / "t.mmd"
    res = CliRunner().invoke(app, ["reason", "--cwd", str(root), "--json", "--k", "3", "--max-depth", "1",
                                   "--export-trace", str(trace), "--export-mermaid", str(mermaid), Q])
    assert res.exit_code == 0, res.output
    out = json.loads(res.stdout)
    assert out["final_answer"] == "Wednesday"
    assert {"total_tokens", "duration", "nodes", "max_depth_reached", "decomposed"} <= set(out["metrics"])
    assert out["metrics"]["decomposed"] is True and out["metrics"]["total_tokens"] == 42 * len(script.calls)
    assert [n["question"] for n in out["tree"]] == [Q, S1, S2, OFF]
    saved = json.loads(trace.read_text())
    assert saved["final_answer"] == "Wednesday" and saved["engine"] == "contractive" and saved["events"]
    assert saved["params"]["max_depth"] == 1 and saved["params"]["k_entropy_samples"] == 3
    check_mermaid(mermaid.read_text(), 4)


def check_mermaid(text: str, nodes: int) -> None:
    """The flowchart grammar we emit: a header, quoted labels without quotes inside, edges and
    classes only between declared nodes."""
    lines = text.strip().splitlines()
    assert lines[0] == "graph TD"
    declared = set()
    for line in lines[1:]:
        node = re.fullmatch(r'    (n\d+)\["([^"]*)"\]', line)
        edge = re.fullmatch(r"    (n\d+) --> (n\d+)", line)
        cls = re.fullmatch(r"    class (n\d+) (\w+)", line)
        if node:
            declared.add(node.group(1))
        elif edge:
            assert {edge.group(1), edge.group(2)} <= declared, line
        elif cls:
            assert cls.group(1) in declared, line
        else:
            assert re.fullmatch(r"    classDef \w+ [^;]+", line), line
    assert len(declared) == nodes


def test_reason_plain_prints_the_answer_on_stdout(project):
    root, _ = project
    res = CliRunner().invoke(app, ["reason", "--cwd", str(root), "--quiet", "--max-depth", "0", Q])
    assert res.exit_code == 0 and res.stdout.strip() == "Monday"


def test_reason_print_events_lists_tree_transitions(project):
    root, _ = project
    res = CliRunner().invoke(app, ["reason", "--cwd", str(root), "--print-events", "--k", "3", Q])
    assert res.exit_code == 0
    assert "[n0 d0] decompose" in res.stderr and "[n3 d1] pruned" in res.stderr
    assert res.stdout.strip().splitlines()[-1] == "Wednesday"


@pytest.mark.parametrize("args,message", [
    (["--entropy-decompose-threshold", "1.5", Q], "entropy_decompose_threshold"),
    (["--preset", "turbo", Q], "unknown preset"),
    (["   "], "QUESTION"),
])
def test_reason_usage_errors_exit_2(project, args, message):
    root, _ = project
    res = CliRunner().invoke(app, ["reason", "--cwd", str(root)] + args)
    assert res.exit_code == 2 and message in res.stderr and "Traceback" not in res.output


def test_reason_chat_keeps_context(project):
    root, script = project
    script.answers["And the day after?"] = ["Thursday"]
    res = CliRunner().invoke(app, ["reason", "--cwd", str(root), "--chat", "--json", "--max-depth", "0"],
                             input=f"{Q}\nAnd the day after?\nexit\n")
    assert res.exit_code == 0, res.output
    turns = [json.loads(line) for line in res.stdout.strip().splitlines()]
    assert [t["final_answer"] for t in turns] == ["Monday", "Thursday"]
    assert "A: Monday" in script.calls[-1]["prompt"]


def test_registry_runs_the_engine_through_run_goal(tmp_path):
    from ragix_core.config import RagixConfig
    from ragix_core.runtime.run import run_goal

    script = split_client()
    result = run_goal(Q, cwd=tmp_path, config=RagixConfig(), strategy="contractive",
                      client_factory=lambda settings: script, profile="dev")
    assert result.state.final_answer == "Wednesday" and result.state.stop_reason == "success"
    assert result.state.meta["contractive"]["metrics"]["decomposed"] is True
    assert "DECOMPOSE n0" in result.node_trace and result.node_trace[-1] == "DONE n0"
    assert result.usage["llm_calls"] == len(script.calls)  # the run's roles counted every call
