"""What only the local process pool (`ragix eval --jobs N`) does: the model's threads shared out over the
workers, a run that cannot be sent to a worker refused before any starts, and the command line's checks. Its
runs, a killed worker and the suite's report are in the conformance suite (test_executor_conformance.py)."""

import pytest
from typer.testing import CliRunner

from ragix_core.cli import app
from ragix_core.config import parse_config
from ragix_core.eval.executor import LocalExecutor, RunJob
from ragix_core.eval.executors import make_executor
from ragix_core.eval.harness import EvalOptions
from ragix_core.eval.pool_executor import PoolExecutor, cores
from tests.eval.ray_runners import ScriptedS0, TellsItsThreads
from tests.eval.test_executor_conformance import GUIDE, MOCK_REPO, NO_TRACES, NOTES, REPLIES


@pytest.fixture()
def pool(tmp_path, monkeypatch):
    monkeypatch.setenv("RAGIX_HOME", str(tmp_path / "home"))
    made = PoolExecutor(jobs=2)
    yield made
    made.close()


def test_jobs_1_is_the_in_process_executor_and_more_a_pool_of_that_many():
    assert isinstance(make_executor("local"), LocalExecutor)
    assert isinstance(make_executor("local", jobs=1), LocalExecutor)
    made = make_executor("local", jobs=3)
    assert isinstance(made, PoolExecutor) and made.jobs == 3 and made.threads == max(1, cores() // 3)
    assert made.describe()["worker_processes"] == 0  # nothing started before a run
    made.close()
    with pytest.raises(ValueError, match="--jobs must be >= 1, got 0"):
        make_executor("local", jobs=0)
    with pytest.raises(ValueError, match="--jobs sets the worker processes of --executor local"):
        make_executor("ray", jobs=2)


def test_each_worker_gets_its_share_of_the_cores_unless_the_config_sets_the_threads(pool):
    set_to_3 = parse_config({"llm": {"default": {"threads": 3}}, "reasoning": {"traces": {"enabled": False}}})
    runs = [RunJob(GUIDE, 1, TellsItsThreads(), EvalOptions(cwd=MOCK_REPO, strategy="s0", config=config))
            for config in (NO_TRACES, set_to_3)]
    shared, configured = pool.run(runs)
    assert shared.error == f"runner raised RuntimeError: threads={max(1, cores() // 2)}"
    assert configured.error == "runner raised RuntimeError: threads=3"
    assert NO_TRACES.llm.default.threads is None  # the caller's configuration is left as it was


def test_a_run_that_cannot_be_sent_to_a_worker_is_refused_before_any_starts(pool):
    def closure_runner(goal, **kw):  # a local function: the standard library's pickle cannot send it
        return ScriptedS0(REPLIES)(goal, **kw)

    runs = [RunJob(s, 1, closure_runner, EvalOptions(cwd=MOCK_REPO, strategy="s0", config=NO_TRACES))
            for s in (GUIDE, NOTES)]
    with pytest.raises(ValueError, match=r"guide #1 cannot be sent to a worker process \(.*\): run it with --jobs 1"):
        pool.run(runs)
    assert pool.describe()["worker_processes"] == 0 and pool.describe()["runs"] == 0


def eval_cli(*args):
    return CliRunner().invoke(app, ["eval", str(MOCK_REPO.parent.parent / "scenarios" / "absence.yaml"), *args])


@pytest.mark.parametrize("args, message", [
    (["--jobs", "2", "--corpus", "keep"], "--corpus keep shares one corpus between runs in order, in this "
                                          "process: not with --jobs 2"),
    (["--jobs", "2", "--warmup", "x.yaml"], "--warmup runs the warm-up and the kept corpus in order, in this "
                                            "process: not with --jobs 2"),
    (["--jobs", "3", "--replay", "x"], "--replay runs no model, there is nothing to spread over workers: not with "
                                       "--jobs 3"),
    (["--jobs", "2", "--record", "x"], "--record writes each run from this process, where it ran: not with --jobs 2"),
    (["--jobs", "2", "--executor", "ray"], "--jobs sets the worker processes of --executor local"),
    (["--jobs", "-1"], "Invalid value for '--jobs' / '-j': Input should be greater than or equal to 0"),
])
def test_the_command_line_refuses_what_a_pool_cannot_run_before_starting_anything(args, message):
    result = eval_cli(*args)
    assert result.exit_code == 2, result.output
    assert message in " ".join(result.output.replace("│", " ").split()) and "Traceback" not in result.output
