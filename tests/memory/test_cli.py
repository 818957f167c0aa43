"""`ragix corpus …` through typer's CliRunner."""

from __future__ import annotations

import json
from datetime import datetime, timedelta, timezone

import pytest
from typer.testing import CliRunner

from ragix_core.cli import app
from ragix_core.memory.experience import HybridExperienceCorpus

from .conftest import event

runner = CliRunner()


@pytest.fixture
def project(tmp_path, ragix_home):
    proj = tmp_path / "proj"
    proj.mkdir()
    exp = HybridExperienceCorpus(ragix_home, proj / ".ragix")
    # The CLI searches at the real "now": date the events relative to the real clock.
    now = datetime.now(timezone.utc)
    fresh, old = now.isoformat(), (now - timedelta(days=400)).isoformat()
    exp.project_corpus.append_many([{**event("compile rust crate", error="linker cc not found"), "timestamp": fresh},
                                    {**event("compile old stuff"), "timestamp": old}])
    exp.global_corpus.append_many([{**event("compile c program", critique="install build-essential"), "timestamp": fresh},
                                   {**event("compile old stuff"), "timestamp": old}])
    return proj


def test_search_json(project):
    res = runner.invoke(app, ["corpus", "search", "compile (linker", "--json", "--project", str(project)])
    assert res.exit_code == 0, res.output
    data = json.loads(res.output)
    assert [(h["source"], h["goal"]) for h in data["hits"]] == [
        ("project", "compile rust crate"), ("global", "compile c program")]
    assert data["hits"][0]["error"] == "linker cc not found"


def test_search_rich_and_empty(project):
    res = runner.invoke(app, ["corpus", "search", "linker", "--project", str(project)])
    assert res.exit_code == 0 and "compile rust crate" in res.output
    res = runner.invoke(app, ["corpus", "search", "zzzz-nothing", "--project", str(project)])
    assert res.exit_code == 0 and "No matching experience" in res.output


def test_stats_prune_rebuild(project):
    res = runner.invoke(app, ["corpus", "stats", "--json", "--project", str(project)])
    assert res.exit_code == 0, res.output
    stats = {c["name"]: c for c in json.loads(res.output)["corpora"]}
    assert stats["project"]["events"] == 2 and stats["project"]["expired"] == 1
    assert stats["global"]["max_age_days"] == 90

    res = runner.invoke(app, ["corpus", "prune", "--dry-run", "--project", str(project)])
    assert res.exit_code == 0 and "would remove 1 event" in res.output
    assert runner.invoke(app, ["corpus", "stats", "--json", "--project", str(project)]).output.count('"expired": 1') == 2

    res = runner.invoke(app, ["corpus", "prune", "--json", "--project", str(project)])
    assert [c["removed"] for c in json.loads(res.output)["corpora"]] == [1, 1]
    res = runner.invoke(app, ["corpus", "rebuild", "--json", "--project", str(project)])
    assert [c["events"] for c in json.loads(res.output)["corpora"]] == [1, 1]
    res = runner.invoke(app, ["corpus", "stats", "--project", str(project)])
    assert res.exit_code == 0 and "project" in res.output


def test_errors_exit_2_without_traceback(tmp_path, ragix_home):
    res = runner.invoke(app, ["corpus", "stats", "--project", str(tmp_path / "nope")])
    assert res.exit_code == 2 and "project directory not found" in res.output
    assert "Traceback" not in res.output
    (tmp_path / "ragix.yaml").write_text("reasoning:\n  experience:\n    top_kk: 3\n")
    res = runner.invoke(app, ["corpus", "search", "x", "--project", str(tmp_path)])
    assert res.exit_code == 2 and "top_kk" in res.output and "Traceback" not in res.output
    res = runner.invoke(app, ["corpus", "search", "x", "--top-k", "0", "--project", str(tmp_path)])
    assert res.exit_code == 2


def test_reading_commands_leave_no_files_behind(tmp_path, ragix_home):
    empty = tmp_path / "empty"
    empty.mkdir()
    for args in (["search", "anything"], ["stats", "--json"], ["prune", "--dry-run"], ["rebuild"]):
        res = runner.invoke(app, ["corpus", *args, "--project", str(empty)])
        assert res.exit_code == 0, res.output
    assert list(empty.iterdir()) == []
    assert not ragix_home.exists()
