"""benchmarks/tutor_games.py end to end with a scripted player: runs, judges, summarises, prints one table."""

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
from benchmarks import tutor_games as bench  # noqa: E402
from tests.reasoning_v30.test_agent_fns import ScriptedLLM  # noqa: E402

from ragix_core.config import load_config  # noqa: E402


def test_one_task_two_strategies_gives_the_metrics_side_by_side():
    tasks = [t for t in bench.load_tasks() if t.scenario.id == "search-error-lines"]
    llm = ScriptedLLM([
        # tutor: a refuted claim, then evidence, then the answer
        {"move": "ASSERT", "claim": {"predicate": "match_count", "args": ["logs/service.log", "ERROR", "2"]}},
        {"move": "PROPOSE", "intent": "count", "command": "grep -c ERROR logs/service.log", "mode": "read"},
        {"move": "RESPOND", "answer": "There are 3 ERROR lines.",
         "claims": [{"predicate": "match_count", "args": ["logs/service.log", "ERROR", "3"]}]},
        # s0: one command, then a wrong answer it reports as a success
        {"command": "grep -c ERROR logs/service.log"}, "There are 4 ERROR lines.",
    ])
    config = load_config(bench.CONFIG, cwd=bench.FIXTURE)
    runs = bench.run_all(tasks, ["tutor", "s0"], config=config, model=None, max_turns=5,
                         client_factory=lambda s: llm, log=lambda line: None)
    tutor, s0 = bench.summarize(runs, "tutor"), bench.summarize(runs, "s0")
    assert tutor["correct"] == 1 and tutor["won"] == 1 and tutor["wrong_as_success"] == 0
    assert tutor["correct_without_success"] == 0 and tutor["won_with_draft"] == 0  # its own words
    # ASSERT(2) was held undecidable and then refuted by the count: one claim of two not validated when made.
    assert tutor["hallucination_rate"] == 0.5 and tutor["turns_mean"] == 3
    # Issue 14's rate counts the ASSERT's own verdict: held, not rejected, although its action refuted it.
    assert (tutor["asserts"], tutor["asserts_rejected"], tutor["assert_rejection_rate"]) == (1, 0, 0.0)
    assert s0["correct"] == 0 and s0["wrong_as_success"] == 1 and "won" not in s0
    table = bench.markdown({"tutor": tutor, "s0": s0}, {"command": "x", "date": "d", "commit": "c", "model": "m",
                                                       "tasks": 1, "max_turns": 5, "machine": "here"})
    assert "| tutor | 1 | 1/1 |" in table and "| s0 | 1 | 0/1 |" in table and "search" in table


def test_bad_selection_is_a_usage_error(capsys):
    assert bench.main(["--only", "no-such-task"]) == 2
    assert "no task selected" in capsys.readouterr().err


def _run(strategy, tally=None, passed=True):
    from ragix_core.eval.evaluate import ScenarioResult
    from ragix_core.reasoning_tutor.scoring import Tally

    task = bench.load_tasks()[0]
    report = {"won": passed, "score": 0, "turns": tally.moves, "tally": Tally(**tally.__dict__).to_dict()} \
        if tally else {}
    return bench.Run(task, strategy, ScenarioResult(id=task.scenario.id, passed=passed, stop_reason="success"), report)


def test_assert_rejection_rate_is_rejected_asserts_over_asserts_summed_over_games():
    """Issue 14's hallucination rate beside the broader one, on hand-built tallies: the counts are summed over
    games before dividing, ASSERTs only (not claims), and games without a tally (other strategies) are left out."""
    from ragix_core.reasoning_tutor.scoring import Tally

    runs = [_run("tutor", Tally(moves=6, claims=4, claims_rejected=3, asserts=3, asserts_rejected=1)),
            _run("tutor", Tally(moves=4, claims=2, claims_rejected=0, asserts=2, asserts_rejected=2)),
            _run("tutor", Tally(moves=3, claims=1, claims_rejected=1, asserts=0, asserts_rejected=0)),
            _run("tutor"),  # a run whose game left no report (e.g. the harness failed): not a game
            _run("s0", passed=False)]
    tutor = bench.summarize(runs, "tutor")
    assert (tutor["asserts"], tutor["asserts_rejected"]) == (5, 3)
    assert tutor["assert_rejection_rate"] == 0.6  # 3/5; the mean of per-game rates would be 2/3
    assert tutor["assert_rejection_ci95"] == (0.2307, 0.8824)  # Wilson 95 % for 3/5
    assert tutor["hallucination_rate"] == 0.571 and tutor["claims"] == 7  # 4/7: the existing rate, unchanged
    assert "asserts" not in bench.summarize(runs, "s0")
    none = bench.summarize([_run("tutor", Tally(moves=2, claims=1, claims_rejected=0))], "tutor")
    assert none["assert_rejection_rate"] is None and none["assert_rejection_ci95"] is None  # no ASSERT: no rate
    table = bench.markdown({"tutor": tutor}, {"command": "x", "date": "d", "commit": "c", "model": "m", "tasks": 1,
                                              "max_turns": 5, "machine": "here"})
    assert "| ASSERT rejection rate | its 95 % CI |" in table and "| 0.6 | [0.23, 0.88] |" in table
