"""A number the writer worked out from a long output is computed by one more command (computed.py):
real tools on a small project, a scripted model."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.reasoning_v30.test_main_path import commands_run, fenced, run

GOAL = "What is the total number of minutes of the urgent tasks in tasks.csv?"
SUM = "awk -F, '$2 == \"urgent\" {s += $3} END {print s}' tasks.csv"


@pytest.fixture()
def project(tmp_path, monkeypatch) -> Path:
    monkeypatch.setenv("RAGIX_HOME", str(tmp_path / "home"))
    root = tmp_path / "project"
    root.mkdir()
    rows = [("a", "urgent", 30), ("b", "later", 5), ("c", "urgent", 45), ("d", "urgent", 40), ("e", "later", 7)]
    (root / "tasks.csv").write_text("".join(f"{n},{k},{m}\n" for n, k, m in rows))  # urgent: 115 minutes
    return root


def test_a_command_replaces_the_writers_sum_and_the_run_says_it_rests_on_it(project):
    res, llm = run(GOAL, project, fenced("cat tasks.csv"), "The urgent tasks take 75 minutes.", fenced(SUM))
    assert [c.split("/")[-1] for c in commands_run(res)] == ["cat tasks.csv", SUM]
    assert "printed 5 lines" in llm.calls[2]["messages"][0]["content"]  # told what it computes from
    assert "75" not in llm.calls[2]["messages"][0]["content"]  # not the writer's number: it would be echoed
    assert res.state.final_answer.startswith("The urgent tasks take 115 minutes.")
    assert res.state.stop_reason == "unconfirmed" and res.state.confidence <= 0.5
    computed = res.state.meta["attempt"]["computed"]
    assert computed == {"derived": "75", "number": "115", "agrees": False, "command": SUM}
    assert "115 was computed by" in res.state.meta["caveat"] and "gave 75" in res.state.meta["caveat"]


def test_a_command_printing_the_writers_number_leaves_a_successful_answer(project):
    res, llm = run(GOAL, project, fenced("cat tasks.csv"), "The urgent tasks take 115 minutes.", fenced(SUM))
    assert res.state.stop_reason == "success" and "caveat" not in res.state.meta
    assert res.state.final_answer == "The urgent tasks take 115 minutes."
    assert res.state.meta["attempt"]["computed"]["agrees"] is True


@pytest.mark.parametrize("reply", [fenced("echo 75"), fenced("expr 5"), fenced("seq 5 5"), "I cannot write one.",
                                   fenced("cat tasks.csv"), fenced("grep -c zzz tasks.csv")])
def test_without_a_computing_command_the_writers_number_stands_unconfirmed(project, reply):
    # an echo, expr or seq states a number; a reply without a command, a command already run and one that found
    # nothing compute none; a second draw is sampled
    res, llm = run(GOAL, project, fenced("cat tasks.csv"), "The urgent tasks take 75 minutes.", reply, reply)
    assert len(llm.calls) == 4 and llm.calls[3]["temperature"] == 0.7
    assert res.state.final_answer.startswith("The urgent tasks take 75 minutes.")
    assert res.state.stop_reason == "unconfirmed" and res.state.confidence <= 0.4
    assert "no command printed that number" in res.state.meta["caveat"]
    assert res.state.meta["attempt"]["computed"]["number"] is None


def test_a_number_an_output_shows_or_a_short_output_asks_no_command(project):
    res, llm = run("How many minutes does task c take in tasks.csv?", project, fenced("cat tasks.csv"),
                   "Task c takes 45 minutes.")
    assert len(llm.calls) == 2 and res.state.stop_reason == "success"  # 45 is printed: nothing to compute
    # three lines: the writer's arithmetic over a short output stands (cross-checks off: only that is tested)
    res, llm = run(GOAL, project, fenced("grep urgent tasks.csv"), "They take 115 minutes.",
                   reasoning={"voting": {"cross_checks": 0}})
    assert len(llm.calls) == 2 and "computed" not in res.state.meta["attempt"]


def test_compute_derived_off_asks_no_command(project):
    res, llm = run(GOAL, project, fenced("cat tasks.csv"), "The urgent tasks take 75 minutes.",
                   reasoning={"voting": {"compute_derived": False}})
    assert len(llm.calls) == 2 and "computed" not in res.state.meta["attempt"]


def test_a_command_printing_lines_is_told_so_and_the_sampled_draw_computes(project):
    res, llm = run(GOAL, project, fenced("cat tasks.csv"), "The urgent tasks take 75 minutes.",
                   fenced("grep urgent tasks.csv"), fenced(SUM))
    second = llm.calls[3]["messages"][0]["content"]
    assert "`grep urgent tasks.csv` printed 3 lines, not one number" in second
    assert res.state.final_answer.startswith("The urgent tasks take 115 minutes.")
    assert res.state.meta["attempt"]["computed"]["command"] == SUM


@pytest.mark.parametrize("goal,answer", [
    ("Which task in tasks.csv takes longest?", "Task c, by 15 minutes over a."),  # no quantity asked: an aside
    (GOAL, "About 75 KB of minutes."),  # a scaled unit: a command's number would not stand in its place
    (GOAL, "The 2 urgent ones take 75 minutes."),  # two derived numbers: left to the numbers check
])
def test_a_number_that_is_an_aside_or_scaled_or_one_of_several_asks_no_command(project, goal, answer):
    res, llm = run(goal, project, fenced("cat tasks.csv"), answer)
    assert len(llm.calls) == 2 and "computed" not in res.state.meta["attempt"], res.state.meta["attempt"]
