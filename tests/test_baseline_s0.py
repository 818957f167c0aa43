"""The plain call (``s0``) runs what bash would have run: a command refused only for its form is run in the form
ragix runs with the same meaning; a command that a mend would change is run as written."""

from ragix_core.baseline_s0 import S0CommandNode
from ragix_core.core.types import ReasoningState, StepStatus
from ragix_core.tools import ToolBox


def _run_plain(tmp_path, command):
    (tmp_path / "a.txt").write_text("one\ntwo\n")
    (tmp_path / "b.txt").write_text("three\n")
    node = S0CommandNode(lambda goal: command, ToolBox(tmp_path, profile="reflect"), lambda event: None)
    state, after = node.run(ReasoningState(goal="How many lines do the text files hold?", session_id="s"))
    assert after == "RESPOND" and len(state.executed_steps) == 1
    return state.executed_steps[0]


def test_a_find_exec_runs_as_bash_would_have_run_it(tmp_path):
    step = _run_plain(tmp_path, "find . -name '*.txt' -exec wc -l {} +")
    assert step.status == StepStatus.SUCCESS, step.result
    assert "3 total" in step.result.stdout and "2 ./a.txt" in step.result.stdout
    assert step.tool_call.args["planned"] == "find . -name '*.txt' -exec wc -l {} +"
    assert "xargs" in step.tool_call.args["command"]


def test_a_command_substitution_runs_as_bash_would_have_run_it(tmp_path):
    step = _run_plain(tmp_path, "wc -l $(find . -name 'b.txt')")
    assert step.status == StepStatus.SUCCESS, step.result
    assert step.result.stdout.split()[:1] == ["1"]


def test_a_mend_that_changes_the_search_is_not_run_for_the_plain_call(tmp_path):
    # grep reads `[0-9]+` as plain characters without -E: the engine runs it again with -E, bash would not
    step = _run_plain(tmp_path, "grep -o '[a-z]+' a.txt")
    assert step.tool_call.args["command"] == "grep -o '[a-z]+' a.txt" and "planned" not in step.tool_call.args
    assert not (step.result.stdout or "").strip()
