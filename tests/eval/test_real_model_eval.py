"""The harness on a few scenarios with the embedded model (CI; slow).

Pass rates of a 1.5B model are not asserted: what must hold is that every run
completed through the real engine and the real baseline, was judged from its
own events, and was reported.
"""

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from ragix_core.cli import app

pytestmark = pytest.mark.slow

SCEN = Path(__file__).resolve().parents[1] / "reasoning_v30" / "scenarios"


@pytest.fixture()
def isolated_home(tmp_path, monkeypatch):
    monkeypatch.setenv("RAGIX_HOME", str(tmp_path / "home"))
    monkeypatch.chdir(tmp_path)


def test_few_scenarios_engine_and_baseline(tmp_path, isolated_home):
    pytest.importorskip("xllamacpp")
    out = tmp_path / "report.json"
    res = CliRunner().invoke(app, ["eval", str(SCEN / "file_search.yaml"), str(SCEN / "bypass_question.yaml"),
                                   "--only", "config-port", "--only", "arithmetic",
                                   "--strategy", "graph_v30", "--strategy", "s0", "--json", str(out)])
    assert res.exit_code == 0, res.output
    report = json.loads(out.read_text())
    rows = report["scenarios"]
    assert sorted((r["strategy"], r["id"]) for r in rows) == [
        ("graph_v30", "arithmetic"), ("graph_v30", "config-port"), ("s0", "arithmetic"), ("s0", "config-port")]
    for r in rows:
        assert r["error"] is None, r
        assert r["llm_calls"] >= 1 and r["prompt_tokens"] > 0
    s0_port = next(r for r in rows if r["strategy"] == "s0" and r["id"] == "config-port")
    assert s0_port["steps"] == 1 and s0_port["complexity_got"] is None
    assert set(report["by_strategy"]) == {"graph_v30", "s0"}
