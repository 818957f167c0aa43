"""`ragix ask` end to end: the routed engine runs on real tools with a scripted model, printed and exited as
`ragix run` does (caveat, 130 on Ctrl-C); the labelling model is set up only when the rules cannot tell and
only after the profile allows it; the audit route writes into the project only when asked."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from ragix_core.cli import app
from ragix_core.llm.base import LLMError
from tests.scripted_llm import ScriptedLLM

UNDECIDED = "What port does the daemon use?"  # no signal the rules read: the model labels it
REMOTE_PLANNER = "llm:\n  default: {backend: openai, model: gpt-x, base_url: \"https://api.example.com/v1\"}\n"


def fenced(command: str) -> str:
    return f"This prints it:\n```sh\n{command}\n```"


@pytest.fixture()
def project(tmp_path, monkeypatch) -> Path:
    monkeypatch.setenv("RAGIX_HOME", str(tmp_path / "home"))
    (tmp_path / "home").mkdir()
    root = tmp_path / "project"
    (root / "docs").mkdir(parents=True)
    (root / "docs" / "install.md").write_text("# Install\n" + "step\n" * 11)
    (root / "app.py").write_text("def main():\n    return 0\n")
    return root


@pytest.fixture()
def built(monkeypatch):
    """Every model client ragix builds (the label's and the run's roles') is the scripted one, and counted."""
    record = {"settings": [], "llm": None}

    def build(settings):
        record["settings"].append(settings)
        return record["llm"]

    monkeypatch.setattr("ragix_core.llm.factory.build_client", build)
    monkeypatch.setattr("ragix_core.llm.roles.build_client", build)
    return record


def ask(project, *args):
    return CliRunner().invoke(app, ["ask", *args, "--cwd", str(project)])


def test_the_graph_route_runs_the_engine_and_prints_the_answer_with_its_caveat(project, built):
    # one command's short output, wc's line read off as the answer: it stands unconfirmed, with a caveat
    built["llm"] = ScriptedLLM([fenced("wc -l docs/install.md")])
    result = ask(project, "How many lines does docs/install.md have?")
    assert "route: graph (engine graph_v30) by rules" in result.stderr
    assert "docs/install.md has 12 lines." in result.stdout
    assert "ragix: this answer rests on one command" in result.stdout  # the caveat, as `ragix run`
    assert "stop: unconfirmed" in result.stderr and result.exit_code == 1
    assert len(built["llm"].calls) == 1 and not built["llm"].replies


def test_ctrl_c_in_the_routed_engine_exits_130(project, built):
    built["llm"] = ScriptedLLM([KeyboardInterrupt()])  # Ctrl-C during the first model call
    result = ask(project, "How many lines does docs/install.md have?", "--json")
    assert json.loads(result.stdout)["run"]["stop_reason"] == "user_abort"
    assert result.exit_code == 130


def test_the_profile_given_is_the_runs_profile(project, built):
    built["llm"] = ScriptedLLM([])
    result = ask(project, "How many lines does docs/install.md have?", "--profile", "safe")
    assert result.exit_code == 2 and "profile 'safe' allows cloud models only" in result.output
    assert built["llm"].calls == []


def test_a_profile_refusing_the_planner_stops_before_the_goal_reaches_it(project, built):
    (project.parent / "home" / "ragix.yaml").write_text(REMOTE_PLANNER)
    built["llm"] = ScriptedLLM([{"route": "graph"}])
    result = ask(project, UNDECIDED, "--profile", "sovereign")
    assert result.exit_code == 2 and "allows local models only" in result.output, result.output
    assert built["settings"] == [] and built["llm"].calls == []  # no client built, the goal sent nowhere


def test_a_goal_the_rules_decide_needs_no_labelling_model(project, monkeypatch):
    def unavailable(settings):
        raise LLMError("the openai package is not installed")

    monkeypatch.setattr("ragix_core.llm.factory.build_client", unavailable)
    result = ask(project, "What does docs/install.md say?", "--route-only")
    assert result.exit_code == 0 and "by rules" in result.stderr, result.output
    result = ask(project, UNDECIDED, "--route-only")  # this one needs the model: its failure is named
    assert result.exit_code == 2 and "cannot set up the labelling model: the openai package" in result.output


def test_the_label_comes_from_the_model_when_the_rules_cannot_tell(project, built):
    built["llm"] = ScriptedLLM([{"route": "tree"}])
    result = ask(project, UNDECIDED, "--route-only")
    assert result.exit_code == 0 and "route: tree (engine contractive) by model" in result.stderr


def _tangled(project: Path) -> None:
    branches = "".join(f"    if x == {i}:\n        return {i}\n" for i in range(17))
    (project / "tangle.py").write_text("def tangled(x):\n" + branches + "    return -1\n")


def test_the_audit_route_writes_outside_the_project_unless_asked(project):
    _tangled(project)
    result = ask(project, "What should we refactor first in this code?", "--rules-only")
    assert result.exit_code == 0, result.output
    assert "[split_function] tangled in tangle.py (line 1) has cyclomatic complexity 18" in result.stdout
    assert not (project / ".ragix" / "audit").exists()
    reports = list((project.parent / "home" / "audit").glob("project-*/report.md"))
    assert len(reports) == 1 and f"Full report: {reports[0]}" in result.stdout
    assert "outside the project" in result.stderr


def test_the_audit_route_writes_into_the_project_with_yes_and_forgets_a_stale_tier_check(project):
    _tangled(project)
    stale = project / ".ragix" / "audit" / "tier_check.json"
    stale.parent.mkdir(parents=True)
    stale.write_text("{}")
    result = ask(project, "What should we refactor first in this code?", "--rules-only", "--yes")
    assert result.exit_code == 0, result.output
    assert (project / ".ragix" / "audit" / "report.md").is_file() and not stale.exists()
    # the safe profile may not write the project, --yes or not
    result = ask(project, "What should we refactor first in this code?", "--rules-only", "--yes",
                 "--profile", "safe")
    assert result.exit_code == 0 and "outside the project" in result.stderr, result.output
