"""`ragix run --seed` and `ragix tutor --seed` number the run's sampled calls, as `ragix eval --seed` does."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from ragix_core.cli import app
from tests.scripted_llm import ScriptedLLM

BYPASS_REPLY = {"answer": "A function that keeps the variables of the scope it was made in.", "confidence": 0.8}


def _run_seeds(monkeypatch, tmp_path, *args):
    llm = ScriptedLLM([BYPASS_REPLY])
    monkeypatch.setattr("ragix_core.llm.roles.build_client", lambda settings: llm)
    result = CliRunner().invoke(app, ["run", "What is a closure in programming?", "--cwd", str(tmp_path), "--quiet",
                                      *args])
    assert result.exit_code == 0, result.output
    return [c["seed"] for c in llm.calls]


def test_run_with_a_seed_passes_the_same_seeds_twice_and_none_without(home, tmp_path, monkeypatch):
    project = tmp_path / "project"
    project.mkdir()
    first = _run_seeds(monkeypatch, project, "--seed", "11")
    assert first and all(s is not None for s in first)
    assert _run_seeds(monkeypatch, project, "--seed", "11") == first
    assert _run_seeds(monkeypatch, project) == [None] * len(first)


def test_a_resumed_run_keeps_its_seed_and_refuses_another(home, tmp_path):
    import json

    from ragix_core.runtime.run_control import RECORD, ResumeError, RunRecord, save_record

    path = save_record(RunRecord("seeded-1", "How many lines?", str(tmp_path), "graph_v30", seed=11)).parent / RECORD
    assert RunRecord.from_dict(json.loads(path.read_text()), path).seed == 11
    result = CliRunner().invoke(app, ["run", "--resume", "seeded-1", "--seed", "3"])
    assert result.exit_code == 2 and "leave out --seed" in " ".join(result.output.split())
    bad = dict(json.loads(path.read_text()), seed="eleven")
    with pytest.raises(ResumeError, match="seed must be a whole number"):
        RunRecord.from_dict(bad, path)


def test_tutor_passes_its_seed_to_the_run(home, tmp_path, monkeypatch):
    seen = {}

    def fake_run_goal(goal, **kw):
        seen.update(kw)
        raise ValueError("stopped by the test")

    monkeypatch.setattr("ragix_core.runtime.run.run_goal", fake_run_goal)
    result = CliRunner().invoke(app, ["tutor", "How many lines?", "--cwd", str(tmp_path), "--quiet", "--seed", "5"])
    assert result.exit_code == 2 and seen["seed"] == 5 and seen["strategy"] == "tutor"
