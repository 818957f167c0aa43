"""benchmarks/sample_ceiling.py: greedy, best-of-k and the output vote over the model's own commands.

Real tool boxes over a real working copy; the model is scripted, one command per draw."""

import sys
from pathlib import Path

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


def test_a_draw_runs_as_the_engine_runs_it_mended_and_shows_what_it_printed(tmp_path):
    row, _ = run(tmp_path, ["find . -name 'a.txt' -exec cat {} \\;"], ["one"])
    draw = row["draws"][0]
    assert "xargs" in draw["ran"] and "-exec" not in draw["ran"]  # the engine's own rewrite of a refused -exec
    assert draw["passed"] and draw["output"].strip() == "one"


def test_vote_returns_nothing_when_no_draw_worked():
    assert ceiling.vote([None, {"key": None, "passed": False}]) is None
