"""`ragix tutor` through the real command line (typer), a scripted player standing in for the model."""

import json

import pytest
from typer.testing import CliRunner

from ragix_core.cli import app
from tests.reasoning_v30.test_agent_fns import ScriptedLLM

from .test_game import WIN_FREE


@pytest.fixture()
def scripted(monkeypatch):
    def install(replies):
        llm = ScriptedLLM(list(replies))
        monkeypatch.setattr("ragix_core.llm.roles.build_client", lambda settings: llm)
        return llm
    return install


def invoke(*args):
    return CliRunner().invoke(app, ["tutor", *map(str, args)])


def test_json_output_has_the_answer_the_verdicts_and_the_score(project, scripted, tmp_path):
    scripted(WIN_FREE)
    res = invoke("How many lines does README.md have?", "--cwd", project, "--json", "--accept",
                 'line_count("README.md", ?n)', "--export-json", tmp_path / "g.json", "--export-mermaid",
                 tmp_path / "g.mmd")
    assert res.exit_code == 0, res.output
    out = json.loads(res.stdout)
    assert out["won"] is True and out["final_answer"] == "README.md has 3 lines." and out["turns"] == 2
    assert out["score"] == sum(m["points"] for m in out["moves"])
    assert [m["move"]["move"] for m in out["moves"]] == ["PROPOSE", "RESPOND"]
    assert [m["status"] for m in out["moves"]] == ["accepted", "won"]
    assert out["truths"] and all(t["grounded"] for t in out["truths"])
    graph = json.loads((tmp_path / "g.json").read_text())
    assert {"nodes", "edges", "truths", "moves"} <= set(graph)
    assert (tmp_path / "g.mmd").read_text().startswith("graph TD")


def test_a_game_without_a_proven_answer_exits_1_and_says_so(project, scripted):
    scripted([{"move": "RESPOND", "answer": "It has 40 lines.", "claims": []}])
    res = invoke("How many lines does README.md have?", "--cwd", project, "--max-turns", "1", "--quiet")
    assert res.exit_code == 1
    assert res.stdout.startswith("No answer was proven")


def test_plain_progress_lines_off_a_terminal(project, scripted):
    scripted(WIN_FREE)
    res = invoke("How many lines does README.md have?", "--cwd", project)
    assert res.exit_code == 0
    assert "turn 1: PROPOSE [read] wc -l README.md" in res.output and "WON" in res.output


@pytest.mark.parametrize("args,fragment", [
    (["--accept", "line_count(README.md"], "acceptance criterion"),
    (["--accept", "size(README.md, ?n)"], "unknown predicate"),
    (["--rules", "/nonexistent/rules.yaml"], "cannot read rules"),
    (["--export-json", "/nonexistent/dir/g.json"], "directory does not exist"),
])
def test_usage_errors_exit_2_with_a_message_and_no_model_call(project, scripted, args, fragment):
    llm = scripted([])
    res = invoke("goal", "--cwd", project, *args)
    assert res.exit_code == 2 and fragment in res.output.replace("\n", " ")
    assert "Traceback" not in res.output and llm.calls == []


def test_missing_directory_is_a_usage_error(tmp_path):
    res = invoke("goal", "--cwd", tmp_path / "nope")
    assert res.exit_code == 2 and "not a directory" in " ".join(res.output.split())  # the console wraps long paths


def test_trace_show_renders_the_moves_and_verdicts_of_a_game(project, scripted):
    scripted(WIN_FREE)
    res = invoke("How many lines does README.md have?", "--cwd", project, "--json")
    session = json.loads(res.stdout)["session_id"]
    shown = CliRunner().invoke(app, ["trace", "show", session, "--cwd", str(project)])
    assert shown.exit_code == 0
    text = shown.output
    assert "turn 1: PROPOSE" in text and "turn 3: RESPOND" in text and "WON (won" in text
