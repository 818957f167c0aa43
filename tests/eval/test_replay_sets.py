"""CI: the full scenario sets judged from runs recorded with the real model (tests/eval/recordings).

Recorded with ``ragix eval ... --record tests/eval/recordings``; judging them
needs no model. Every recording must still load and be judged (a change in the
engine's state or event format breaks this test), and a scenario without a
recording must be reported as such, not silently dropped.
"""

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from ragix_core.cli import app
from ragix_core.eval.engines import run_key
from ragix_core.eval.suite import load_sources

HERE = Path(__file__).resolve().parent
RECORDINGS = HERE / "recordings"
SETS = [HERE.parent / "reasoning_v30" / "scenarios" / f"{n}.yaml" for n in ("file_search", "code_analysis", "bypass_question")]


@pytest.mark.parametrize("strategy", ["graph_v30", "s0"])
def test_full_sets_judged_from_recordings(tmp_path, strategy):
    scenarios = load_sources([str(p) for p in SETS])
    recorded = {s.id for s in scenarios if (RECORDINGS / f"{run_key(strategy, s.input)}.json").is_file()}
    if not recorded:
        pytest.skip(f"no recorded {strategy} runs in {RECORDINGS}")
    out = tmp_path / "replay.json"
    res = CliRunner().invoke(app, ["eval", *map(str, SETS), "--strategy", strategy, "--replay", str(RECORDINGS),
                                   "--json", str(out)])
    assert res.exit_code == 0, res.output
    report = json.loads(out.read_text())
    rows = {r["id"]: r for r in report["scenarios"]}
    assert set(rows) == {s.id for s in scenarios}  # the full sets, recorded or not
    for sid, row in rows.items():
        if sid in recorded:
            assert row["error"] is None, row
            assert row["llm_calls"] >= 1 and row["wall_time"] > 0
            assert row["passed"] == (not row["failure"])
        else:
            assert "no recorded run" in row["error"]
    assert report["aggregates"]["harness_errors"] == len(scenarios) - len(recorded)
