"""benchmarks/sample_ceiling.py: greedy, best-of-k and the output vote over the model's own commands.

Real tool boxes over a real working copy; the model is scripted, one command per draw."""

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from benchmarks import sample_ceiling as ceiling  # noqa: E402
from ragix_core.config import parse_config  # noqa: E402
from ragix_core.eval.scenario import Scenario  # noqa: E402
from tests.scripted_llm import ScriptedLLM  # noqa: E402


def block(command):
    return f"```sh\n{command}\n```"


def project(tmp_path):
    src = tmp_path / "src"
    src.mkdir()
    (src / "a.txt").write_text("one\n")
    (src / "b.txt").write_text("two\nthree\n")
    return src


def run(tmp_path, commands, expected, checker=None):
    scenario = Scenario(id="t", input="How many files are there?", expected_patterns=expected, cwd=project(tmp_path),
                        checker=checker)
    llm = ScriptedLLM([block(c) for c in commands])
    config = parse_config({"reasoning": {"voting": {"seed": 1}}})
    return ceiling.one_task(scenario, config, seed=1, k=len(commands) - 1, client_factory=lambda s: llm), llm


def test_two_samples_that_agree_outvote_a_wrong_greedy_command(tmp_path):
    row, llm = run(tmp_path, ["cat a.txt", "ls | wc -l", "find . -type f | wc -l"], ["2"])
    assert (row["greedy"], row["best_of_k"], row["vote"]) == (False, True, True)
    assert row["passing_draws"] == 2 and row["distinct_commands"] == 3
    temperatures = [c["temperature"] for c in llm.calls]
    assert temperatures[0] in (None, 0.0) and temperatures[1:] == [0.7, 0.7]  # greedy first, then voting.temperature
    assert [c["seed"] for c in llm.calls[1:]] == [2, 3]  # draw i seeded seed + i, as the engine numbers them


def test_a_greedy_output_no_sample_repeats_keeps_a_tie_and_failures_never_win(tmp_path):
    row, _ = run(tmp_path, ["cat a.txt", "cat no_such_file", "cat b.txt"], ["one"])
    assert (row["greedy"], row["best_of_k"], row["vote"]) == (True, True, True)  # 1-1 tie: the greedy output
    assert row["draws"][1]["worked"] is False and row["draws"][1]["passed"] is False


def test_the_same_command_sampled_again_runs_once_and_counts_as_a_vote(tmp_path):
    row, _ = run(tmp_path, ["cat b.txt", "ls | wc -l", "ls | wc -l"], ["2"])
    assert row["distinct_commands"] == 2 and (row["greedy"], row["vote"]) == (False, True)


def test_a_checker_judges_each_command_alone_on_its_own_working_copy(tmp_path):
    def made(answer, workdir):  # a write task: passes when the tree holds c.txt
        return (workdir / "c.txt").exists(), ""

    row, _ = run(tmp_path, ["cp a.txt c.txt", "cp a.txt d.txt", "cp a.txt d.txt"], [], checker=made)
    # d.txt's copy is not the greedy one's: each command ran on a fresh copy, so the majority (d.txt) fails
    assert (row["greedy"], row["best_of_k"], row["vote"]) == (True, True, False)


def test_writes_are_voted_by_the_tree_they_leave(tmp_path):
    def copied_a(answer, workdir):
        return (workdir / "c.txt").read_text() == "one\n", ""

    # Each write prints nothing; the two that copy b.txt leave the same tree and outvote the greedy copy of a.txt.
    row, _ = run(tmp_path, ["cp a.txt c.txt", "cp b.txt c.txt", "cp ./b.txt c.txt"], [], checker=copied_a)
    assert (row["greedy"], row["best_of_k"], row["vote"]) == (True, True, False)


def test_a_draw_runs_as_the_engine_runs_it_mended_and_shows_what_it_printed(tmp_path):
    row, _ = run(tmp_path, ["find . -name 'a.txt' -exec cat {} \\;"], ["one"])
    draw = row["draws"][0]
    assert "xargs" in draw["ran"] and "-exec" not in draw["ran"]  # the engine's own rewrite of a refused -exec
    assert draw["passed"] and draw["output"].strip() == "one"


def test_vote_returns_nothing_when_no_draw_worked():
    assert ceiling.vote([None, {"key": None, "passed": False}]) is None


def test_a_task_whose_set_up_fails_is_counted_failing_with_its_reason_and_the_others_still_run(tmp_path, capsys):
    def broken(work):
        raise RuntimeError("init script failed (1)")

    src = project(tmp_path)
    tasks = [Scenario(id="b", input="count", cwd=src, setup=broken),
             Scenario(id="ok", input="How many files are there?", expected_patterns=["2"], cwd=src)]
    llm = ScriptedLLM([block("ls | wc -l")])
    rows = ceiling.run_tasks(tasks, parse_config({}), seed=1, k=0, verdicts={}, client_factory=lambda s: llm)
    assert rows[0]["error"] == "RuntimeError: init script failed (1)" and not rows[0]["best_of_k"]
    assert rows[1]["greedy"] and "error" not in rows[1]
    assert "b: broken, counted as failing: RuntimeError: init script failed (1)" in capsys.readouterr().err


def test_an_engine_report_that_is_not_one_is_refused_by_name(tmp_path):
    bad = tmp_path / "r.json"
    bad.write_text('{"scenarios": [{"id": "a"}]}')
    with pytest.raises(SystemExit, match="r.json: a scenario without id, strategy and passed"):
        ceiling.report_verdicts(bad)
