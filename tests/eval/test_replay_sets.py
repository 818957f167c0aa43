"""CI: the full scenario sets judged from runs recorded with the real model (tests/eval/recordings).

Recorded with ``ragix eval ... --record tests/eval/recordings``; judging them
needs no model. The verdicts are pinned per set and strategy: a change in the
judge (eval/matching.py, eval/evaluate.py), in a scenario's patterns or in the
recordings that flips a verdict fails here, and the table below must be
updated in the same commit, saying which verdicts changed and why.
"""

import json
import re
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from ragix_core.cli import app
from ragix_core.eval.engines import run_key
from ragix_core.eval.suite import load_sources

HERE = Path(__file__).resolve().parent
RECORDINGS = HERE / "recordings"
SET_NAMES = ("file_search", "code_analysis", "bypass_question")
SETS = [HERE.parent / "reasoning_v30" / "scenarios" / f"{n}.yaml" for n in SET_NAMES]

# Scenario ids that pass, per strategy and set, as judged from the committed recordings.
PASSED = {
    "graph_v30": {
        "file_search": {"largest-md-file", "config-port", "list-markdown-files", "wrong-path-guide"},
        "code_analysis": {"count-execute-defs", "largest-python-file", "wrong-module-store"},
        "bypass_question": {"unix-pipe", "http-404", "arithmetic", "grep-recursive-flag", "recursion-definition"},
    },
    "s0": {
        "file_search": {"count-python-files"},
        "code_analysis": {"importer-of-a", "classes-in-models"},
        "bypass_question": {"unix-pipe", "http-404", "binary-search-complexity", "grep-recursive-flag",
                            "recursion-definition", "trap-log-level"},
    },
}
# Failed, but the expected patterns were in grounding's appended file listing: the writer said
# "./src/inventory/cli.py" and grounding added "./b.py" from grep's output.
PASSED_VIA_GROUNDING = {"graph_v30": {"grep-pattern"}, "s0": set()}
SET_SIZES = {"file_search": 13, "code_analysis": 14, "bypass_question": 10}


def judge(tmp_path, strategy, recordings=RECORDINGS):
    out = tmp_path / f"{strategy}.json"
    res = CliRunner().invoke(app, ["eval", *map(str, SETS), "--strategy", strategy, "--replay", str(recordings),
                                   "--json", str(out)])
    assert res.exit_code == 0, res.output
    return json.loads(out.read_text())


@pytest.mark.parametrize("strategy", ["graph_v30", "s0"])
def test_full_sets_judged_from_recordings(tmp_path, strategy):
    scenarios = load_sources([str(p) for p in SETS])
    missing = [s.id for s in scenarios if not (RECORDINGS / f"{run_key(strategy, s.input)}.json").is_file()]
    assert missing == [], f"committed recordings missing for {strategy}: {missing}"
    report = judge(tmp_path, strategy)
    rows = {r["id"]: r for r in report["scenarios"]}
    assert set(rows) == {s.id for s in scenarios}
    for row in rows.values():
        assert row["error"] is None, row
        assert row["llm_calls"] >= 1 and row["wall_time"] > 0
    got = {name: {r["id"] for r in report["scenarios"] if r["category"] == name and r["passed"]} for name in SET_NAMES}
    counts = {name: (len(got[name]), sum(r["category"] == name for r in report["scenarios"])) for name in SET_NAMES}
    want = {name: (len(PASSED[strategy][name]), SET_SIZES[name]) for name in SET_NAMES}
    assert counts == want, f"{strategy}: passed/total per set changed"
    assert got == PASSED[strategy], f"{strategy}: other scenarios pass than pinned"
    assert report["aggregates"]["passed"] == sum(len(v) for v in PASSED[strategy].values())
    via = {r["id"] for r in report["scenarios"] if r["passed_via_grounding"]}
    assert via == PASSED_VIA_GROUNDING[strategy]
    assert report["aggregates"]["passed_via_grounding"] == len(via)
    assert report["aggregates"]["harness_errors"] == 0


def test_a_scenario_without_recording_is_reported_not_dropped(tmp_path):
    scenarios = load_sources([str(p) for p in SETS])
    partial = tmp_path / "partial"
    shutil.copytree(RECORDINGS, partial)
    gone = next(s for s in scenarios if s.id == "config-port")
    (partial / f"{run_key('graph_v30', gone.input)}.json").unlink()
    report = judge(tmp_path, "graph_v30", partial)
    rows = {r["id"]: r for r in report["scenarios"]}
    assert set(rows) == {s.id for s in scenarios}
    assert "no recorded run" in rows["config-port"]["error"] and not rows["config-port"]["passed"]
    assert report["aggregates"]["harness_errors"] == 1


def test_without_a_terminal_each_run_is_one_progress_line(tmp_path):
    res = CliRunner().invoke(app, ["eval", *map(str, SETS), "--strategy", "s0", "--replay", str(RECORDINGS),
                                   "--only", "count-python-files", "--only", "config-port"])
    assert res.exit_code == 0, res.output
    lines = [line for line in res.output.splitlines() if line.startswith("eval ")]
    assert [line.split(" (")[0] for line in lines] == ["eval 1/2 s0 count-python-files pass",
                                                         "eval 2/2 s0 config-port fail"]
    assert all(re.search(r"\(\w+, \d+s\)$", line) for line in lines), lines
