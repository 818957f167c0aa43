"""benchmarks/engine_vs_plain.py: the RESULTS table's row from one `ragix eval -s ENGINE -s s0` report."""

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from benchmarks import engine_vs_plain as table  # noqa: E402


def run(sid, strategy, passed, stop="success", prompt=1000, cached=0, completion=50, wall=10.0):
    return {"id": sid, "strategy": strategy, "passed": passed, "stop_reason": stop, "prompt_tokens": prompt,
            "cached_prompt_tokens": cached, "completion_tokens": completion, "wall_time": wall}


def test_a_row_compares_the_same_scenarios_and_counts_cached_prompts_apart():
    report = {"meta": {"partial": True}, "scenarios": [
        run("a", "graph_v30", True, prompt=3000, cached=2500, wall=30.0), run("a", "s0", False, stop="no_evidence"),
        run("b", "graph_v30", False, prompt=2000, cached=1500, wall=20.0), run("b", "s0", False),
        run("c", "graph_v30", True)]}  # c has no s0 run yet: left out of both
    c = table.compare(report, "graph_v30", "s0")
    e, p = c["graph_v30"], c["s0"]
    assert (e["runs"], e["passed"], p["runs"], p["passed"]) == (2, 1, 2, 0)
    assert e["tokens"] == 5100 and e["computed"] == 1100 and p["computed"] == 2100
    assert c["tokens_ratio"] == 2.43 and c["computed_ratio"] == 0.52
    assert e["wrong_success"] == 1 and p["wrong_success"] == 1 and c["partial"]
    line = table.row("set", c, "graph_v30", "s0")
    assert "(partial)" in line and "1,100 vs 2,100 = 0.52×" in line and "25.0 s vs 10.0 s = 2.5×" in line
    assert line.endswith("| 1/2 vs 0/1 |")  # right when it ended success: a, not b; s0's one success was wrong


def test_within_keeps_the_scenarios_another_report_ran_too():
    report = {"scenarios": [run("a", "graph_v30", True), run("a", "s0", True),
                            run("b", "graph_v30", False, stop="unconfirmed"), run("b", "s0", False)]}
    older = {"scenarios": [run("b", "graph_v30", False), run("b", "s0", False), run("z", "graph_v30", True)]}
    c = table.compare(report, "graph_v30", "s0", table.both_ran(older, "graph_v30", "s0"))
    e = c["graph_v30"]
    assert (e["runs"], e["passed"], e["said_success"], e["wrong_success"]) == (1, 0, 0, 0)


def test_parts_of_one_run_make_one_row_and_parts_of_two_commits_are_refused():
    first = {"meta": {"partial": True}, "scenarios": [dict(run("a", "graph_v30", True), commit="c1"),
                                                      dict(run("a", "s0", False), commit="c1")]}
    rest = {"meta": {}, "scenarios": [dict(run("b", "graph_v30", False), commit="c1"),
                                      dict(run("b", "s0", True), commit="c1")]}
    c = table.compare(table.together([first, rest]), "graph_v30", "s0")
    assert (c["graph_v30"]["runs"], c["graph_v30"]["passed"], c["s0"]["passed"]) == (2, 1, 1) and c["partial"]
    other = {"scenarios": [dict(run("b", "graph_v30", False), commit="c2")]}
    with pytest.raises(ValueError, match="different commits: c1, c2"):
        table.together([first, other])
    with pytest.raises(ValueError, match="a \\(graph_v30\\) is in two parts"):
        table.together([first, first])


def test_repeats_under_different_seeds_pool_their_runs_and_say_how_stable_each_task_was():
    def seed(n, a_engine, b_engine):
        return {"meta": {"seed": n}, "scenarios": [
            dict(run("a", "graph_v30", a_engine), commit=f"c{n}"), dict(run("a", "s0", False), commit=f"c{n}"),
            dict(run("b", "graph_v30", b_engine), commit=f"c{n}"), dict(run("b", "s0", True), commit=f"c{n}")]}
    pooled = table.repeats([seed(1, True, False), seed(2, True, True), seed(3, True, False)])
    c = table.compare(pooled, "graph_v30", "s0")
    assert (c["graph_v30"]["runs"], c["graph_v30"]["passed"], c["s0"]["passed"]) == (6, 4, 3)
    assert pooled["meta"]["commits"] == ["c1", "c2", "c3"]
    assert table.stability(pooled, "graph_v30", {"a", "b"}) == {1: 1, 3: 1}  # b in one repeat, a in all three
    assert table.stability(pooled, "s0", {"a", "b"}) == {0: 1, 3: 1}
    with pytest.raises(ValueError, match="two reports ran seed 2"):
        table.repeats([seed(2, True, True), seed(2, True, False)])


def test_repeats_of_the_engine_alone_pool_with_one_run_of_the_plain_call():
    """The plain call is one greedy call: the engine's extra seeds ran without it, and its rate stays its one run's."""
    first = {"meta": {"seed": 1}, "scenarios": [run("a", "graph_v30", True), run("a", "s0", False),
                                                run("b", "graph_v30", False), run("b", "s0", True)]}
    alone = {"meta": {"seed": 2}, "scenarios": [run("a", "graph_v30", True), run("b", "graph_v30", True)]}
    pooled = table.repeats([first, alone])
    assert pooled["meta"]["repeats_by_strategy"] == {"graph_v30": 2, "s0": 1}
    c = table.compare(pooled, "graph_v30", "s0")
    assert (c["graph_v30"]["runs"], c["graph_v30"]["passed"], c["s0"]["runs"], c["s0"]["passed"]) == (4, 3, 2, 1)
    assert table.stability(pooled, "graph_v30", {"a", "b"}) == {1: 1, 2: 1}
    assert c["computed_ratio"] == 1.0  # 4 runs of 1,050 computed against 2 of 1,050: per run, not in total
    assert "1,050 vs 1,050 a run = 1.0×" in table.row("nl2bash", c, "graph_v30", "s0")
