"""The main path's attempt (reasoning_v30/attempt.py) on fixed commands and outputs: no model, no shell.

Tool results are built the way the confined tool box reports them (``no_match`` is set for a grep
that found nothing); the real tool box and a scripted model run in test_main_path.py.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Dict, List, Optional

import pytest

from ragix_core.core.stop import StopRun
from ragix_core.core.types import StepStatus, ToolResult
from ragix_core.evidence.feedback import execution_feedback
from ragix_core.evidence.steps import Fix
from ragix_core.reasoning_v30.attempt import CommandAttempt

NOTHING = ToolResult("shell", 1, no_match=True)
MISSING = ToolResult("shell", 2, stderr="wc: nope.md: No such file or directory\n")
HIT = ToolResult("shell", 0, stdout="./docs/a.md\n")
LISTING = ToolResult("shell", 0, stdout="".join(f"./docs/{c}.md\n" for c in "abcd"))  # longer than confirm_lines


class Script:
    """The model's commands in order (one per draw), and what each command prints."""

    def __init__(self, commands: List[str], results: Dict[str, ToolResult], fixes: Optional[Dict[str, Fix]] = None):
        self.commands, self.results, self.fixes = list(commands), results, fixes or {}
        self.asked: List[tuple] = []  # (feedback, draw, sampled)

    def ask(self, feedback: str, i: int, sample: bool) -> str:
        self.asked.append((feedback, i, sample))
        command = self.commands.pop(0)
        if isinstance(command, StopRun):
            raise command
        return command

    def run(self, step, final=False):
        command = step.tool_call.args["command"]
        r = self.results[command]
        step.result = replace(r)  # a copy: a step's result is its own
        step.status = StepStatus.SUCCESS if r.returncode == 0 or r.no_match else StepStatus.FAILED
        return None if final else self.fixes.get(command)


def attempt(script: Script, **kw):
    kw.setdefault("samples", 3)
    return CommandAttempt(script.ask, script.run, lambda step: f"feedback on {step.tool_call.args['command']}",
                          **kw).attempt("goal")


def test_a_greedy_command_with_a_long_output_is_the_answer_with_no_other_draw():
    script = Script(["find . -name '*.md'"], {"find . -name '*.md'": LISTING})
    out = attempt(script)
    assert out.decided_by == "greedy" and out.winner.result.stdout == LISTING.stdout
    assert script.asked == [("", 0, False)]  # one greedy call, nothing sampled
    assert out.confidence() == 0.6 and not out.disputed and not out.confirmed


def test_a_short_greedy_output_is_confirmed_by_a_sample_that_prints_the_same_number():
    cmds = ["wc -l src/a.py", "wc -l < src/a.py"]
    script = Script(cmds, {cmds[0]: ToolResult("shell", 0, stdout="  42 src/a.py\n"),
                           cmds[1]: ToolResult("shell", 0, stdout="42\n")})
    out = attempt(script, cross_check_draws=1)
    assert [a[2] for a in script.asked] == [False, True]  # greedy, one sample; the quorum is met
    assert out.decided_by == "greedy" and out.confirmed and out.agreed == 2
    assert out.winner.tool_call.args["command"] == cmds[0] and out.confidence() == pytest.approx(0.9)


def test_samples_that_agree_on_another_output_dispute_a_short_greedy_one_but_never_replace_it():
    # Cross-check draws are sampled and told to write the command another way: measured worse than the
    # greedy command, so their agreement on another output is a dispute shown to the user, not the answer.
    cmds = ["find tests -name 'test_*.py' | wc -l", "grep -rl 'test_*.py' tests | wc -l",
            "ls tests | grep 'test_*.py' | wc -l"]
    script = Script(cmds, {cmds[0]: ToolResult("shell", 0, stdout="10\n"),
                           cmds[1]: ToolResult("shell", 0, stdout="1\n"),
                           cmds[2]: ToolResult("shell", 0, stdout="1\n")})
    out = attempt(script, cross_checks=3, cross_check_draws=3)
    assert len(script.asked) == 3  # the two samples agreed: the quorum ends the vote
    assert out.decided_by == "greedy" and out.winner.tool_call.args["command"] == cmds[0]
    assert out.agreed == 1 and out.disputed and not out.confirmed and not out.unconfirmed
    assert [s.tool_call.args["command"] for s in out.rivals()] == [cmds[1]]
    assert out.confidence() == 0.333 and "rests on the first" in out.summary()


def test_a_greedy_command_that_failed_is_still_replaced_by_the_samples_vote():
    cmds = ["wc -l nope.md", "wc -l < sqlparse/lexer.py", "awk 'END {print NR}' sqlparse/lexer.py"]
    script = Script(cmds, {cmds[0]: MISSING, cmds[1]: ToolResult("shell", 0, stdout="1700\n"),
                           cmds[2]: ToolResult("shell", 0, stdout="1700\n")})
    out = attempt(script)
    assert out.decided_by == "vote" and out.winner.tool_call.args["command"] == cmds[1] and out.agreed == 2
    assert not out.disputed


def test_a_short_greedy_output_no_sample_repeats_is_disputed():
    cmds = ["grep -c a x.py", "grep -c b x.py", "grep -c c x.py", "grep -c d x.py"]
    script = Script(cmds, {c: ToolResult("shell", 0, stdout=f"{n}\n") for n, c in enumerate(cmds, 3)})
    out = attempt(script, cross_checks=3, cross_check_draws=3)
    assert len(script.asked) == 4 and out.disputed and out.winner.tool_call.args["command"] == cmds[0]
    assert out.decided_by == "greedy" and out.confidence() == pytest.approx(0.25)


def test_one_cross_check_that_printed_something_else_ends_the_vote_disputed():
    # A cross-check cannot change the answer, only its stop reason: a second one would cost a call for that.
    cmds = ["grep -c a x.py", "grep -c b x.py", "grep -c c x.py"]
    script = Script(cmds, {cmds[0]: ToolResult("shell", 0, stdout="3\n"), cmds[1]: ToolResult("shell", 0, stdout="4\n"),
                           cmds[2]: ToolResult("shell", 0, stdout="3\n")})
    out = attempt(script, cross_check_draws=2)  # cross_checks=1: the first draw that printed something ends it
    assert len(script.asked) == 2 and out.disputed and out.winner.tool_call.args["command"] == cmds[0]
    assert [s.tool_call.args["command"] for s in out.rivals()] == [cmds[1]]


def _check_failed_then_found_nothing_then_agreed():
    cmds = ["grep -c a x.py", "wc -l nope.md", "grep -rn zz .", "awk '/a/ {n++} END {print n}' x.py"]
    return Script(cmds, {cmds[0]: ToolResult("shell", 0, stdout="3\n"), cmds[1]: MISSING, cmds[2]: NOTHING,
                         cmds[3]: ToolResult("shell", 0, stdout="3\n")})


def test_a_cross_check_that_failed_or_found_nothing_does_not_count_and_another_is_drawn():
    script = _check_failed_then_found_nothing_then_agreed()
    out = attempt(script, cross_check_draws=3)
    assert len(script.asked) == 4 and out.confirmed and out.agreed == 2


def test_cross_check_draws_are_capped_even_when_they_printed_nothing():
    # A cross-check changes only the stop reason: a second draw costs a call for that alone.
    script = _check_failed_then_found_nothing_then_agreed()
    out = attempt(script, cross_check_draws=1)
    assert len(script.asked) == 2 and out.unconfirmed and out.winner.tool_call.args["command"] == "grep -c a x.py"
    assert out.confidence() == 0.6 and "no second command printed the same output" in out.summary()


def test_by_default_a_short_greedy_output_ends_unconfirmed_with_no_other_draw():
    # At 40b91a0 a cross-check draw was 40 % of a typical run's time and barely told right answers from wrong.
    script = _check_failed_then_found_nothing_then_agreed()
    out = attempt(script)
    assert script.asked == [("", 0, False)] and len(out.steps) == 1 and out.vote is None
    assert out.checked and out.unconfirmed and not out.confirmed and not out.disputed
    assert out.decided_by == "greedy" and out.confidence() == 0.6
    assert out.summary() == "this answer rests on one command; no other command was run to check it"


def test_a_long_greedy_output_is_not_marked_unconfirmed_by_default():
    out = attempt(Script(["find . -name '*.md'"], {"find . -name '*.md'": LISTING}))
    assert not out.checked and not out.unconfirmed and out.summary() == ""


def test_cross_checks_zero_lets_a_short_greedy_output_stand_unchecked():
    script = Script(["grep -c a x.py"], {"grep -c a x.py": ToolResult("shell", 0, stdout="3\n")})
    out = attempt(script, cross_checks=0)
    assert script.asked == [("", 0, False)] and not out.checked and not out.unconfirmed


def test_a_short_greedy_output_stands_unconfirmed_when_every_sample_fails():
    cmds = ["grep -c a x.py", "wc -l nope.md", "cat nope.md", "grep -rn zz ."]
    script = Script(cmds, {cmds[0]: ToolResult("shell", 0, stdout="3\n"), cmds[1]: MISSING, cmds[2]: MISSING,
                           cmds[3]: NOTHING})
    out = attempt(script, cross_check_draws=3)
    assert len(script.asked) == 4 and out.unconfirmed
    assert out.winner.tool_call.args["command"] == cmds[0] and not out.disputed and not out.confirmed
    assert out.confidence() == 0.6


def test_the_same_command_again_is_not_a_second_vote_and_the_output_ends_unconfirmed():
    cmds = ["grep -rl group . | wc -l"] * 4
    script = Script(cmds, {cmds[0]: ToolResult("shell", 0, stdout="5\n")})
    out = attempt(script, cross_check_draws=3)
    assert len(script.asked) == 4 and len(out.steps) == 1  # drawn four times, run once
    assert out.agreed == 1 and not out.confirmed and not out.disputed and out.unconfirmed
    assert out.confidence() == 0.6 and "rests on one command" in out.summary()


def test_a_check_that_repeats_the_winners_search_and_only_counts_it_otherwise_does_not_confirm_it():
    # measured on AgentBench OS at bd99fa4: both pipes kept the same wrong filter and "agreed", ending `success`
    first = "grep -rn error ./a.log ./b.log | grep -v '\\berror\\b' | wc -l"
    same_search = "grep -rn  error ./a.log ./b.log | grep -v '\\berror\\b' | grep -o -i error | wc -l"
    script = Script([first, same_search], {first: ToolResult("shell", 0, stdout="2\n"),
                                           same_search: ToolResult("shell", 0, stdout="2\n")})
    out = attempt(script, cross_check_draws=1)
    assert out.agreed == 2 and out.agreed_another_way == 1  # one output, one way of reading it
    assert not out.confirmed and not out.disputed and out.unconfirmed and out.confidence() == 0.6
    assert "all read it with `grep -rn error ./a.log ./b.log`" in out.summary()
    another = "grep -ci error ./a.log ./b.log | awk -F: '{s+=$2} END {print s}'"
    script = Script([first, another], {first: ToolResult("shell", 0, stdout="2\n"),
                                       another: ToolResult("shell", 0, stdout="2\n")})
    out = attempt(script, cross_check_draws=1)
    assert out.confirmed and out.agreed_another_way == 2 and not out.unconfirmed


def test_a_check_whose_search_is_only_quoted_or_ordered_otherwise_does_not_confirm_it():
    for first, same_search in (("find . -name '*.py' -type f | wc -l", 'find ./ -type f -name "*.py" | wc -l'),
                               ("grep -rn TODO src | wc -l", "grep -n -r 'TODO' ./src/ | grep -c .")):
        script = Script([first, same_search], {first: ToolResult("shell", 0, stdout="7\n"),
                                               same_search: ToolResult("shell", 0, stdout="7\n")})
        out = attempt(script, cross_check_draws=1)
        assert out.agreed == 2 and out.agreed_another_way == 1
        assert not out.confirmed and out.unconfirmed


def test_cross_check_draws_are_told_which_commands_ran_and_asked_for_another_way():
    cmds = ["wc -l a.py", "wc -l a.py", "grep -c '' a.py"]
    script = Script(cmds, {cmds[0]: ToolResult("shell", 0, stdout="7 a.py\n"),
                           cmds[2]: ToolResult("shell", 0, stdout="7\n")})
    out = attempt(script, cross_check_draws=2)
    assert out.confirmed and out.agreed == 2 and not out.unconfirmed
    feedback, draw, sampled = script.asked[1]
    assert sampled and draw == 1 and "Already run: `wc -l a.py`" in feedback and "another way" in feedback
    assert [a[1] for a in script.asked] == [0, 1, 2]  # each draw its own index (its seed when seeded)


def test_an_echo_states_its_output_and_never_confirms_one():
    cmds = ["find . -name '*.sh' | wc -l", "echo 3", "printf '3\\n'", "ls"]
    script = Script(cmds, {cmds[0]: ToolResult("shell", 0, stdout="3\n"), cmds[1]: ToolResult("shell", 0, stdout="3\n"),
                           cmds[2]: ToolResult("shell", 0, stdout="3\n"), cmds[3]: LISTING})
    out = attempt(script, cross_check_draws=3)
    assert out.agreed == 1 and not out.confirmed and out.disputed  # the listing differs; the echoes do not count


def test_a_short_retry_output_is_confirmed_like_a_greedy_one():
    cmds = ["wc -l nope.md", "cat nope.md", "wc -l docs/a.md", "grep -c '' docs/a.md"]
    results = {"wc -l nope.md": MISSING, "cat nope.md": MISSING, "wc -l docs/a.md": ToolResult("shell", 0, stdout="4 docs/a.md\n"),
               "grep -c '' docs/a.md": ToolResult("shell", 0, stdout="4\n")}
    out = attempt(Script(cmds, results), samples=1, retries=2, cross_check_draws=1)
    assert out.decided_by == "retry" and out.confirmed and out.confidence() == pytest.approx(0.9)


def test_confirm_lines_zero_lets_a_short_greedy_output_stand_alone():
    script = Script(["find . -name '*.md'"], {"find . -name '*.md'": HIT})
    out = attempt(script, confirm_lines=0)
    assert out.decided_by == "greedy" and len(script.asked) == 1


def test_a_failed_greedy_command_draws_samples_and_the_first_two_agreeing_outputs_win():
    cmds = ["wc -l nope.md", "find . -name '*.md'", "find . -type f -name '*.md'", "ls docs"]
    script = Script(cmds, {"wc -l nope.md": MISSING, cmds[1]: HIT, cmds[2]: HIT, "ls docs": HIT})
    out = attempt(script)
    assert [a[2] for a in script.asked] == [False, True, True]  # greedy, then sampled; stops at the quorum
    assert out.decided_by == "vote" and out.agreed == 2 and out.winner.tool_call.args["command"] == cmds[1]
    assert out.confidence() == pytest.approx(0.9)  # capped: two of two usable agreed


def test_samples_after_a_failed_or_mistaken_greedy_command_are_told_what_its_run_showed():
    # Drawn blind, samples repeat the greedy command's mistake (AgentBench OS test-42 at 52a8250).
    bad = "find . -name '*.py' | wc -l | sort -nr | head -n 1"  # a mistaken shape: ran, yet no answer
    cmds = [bad, "find . -name '*.py' | xargs wc -l", "wc -l *.py"]
    script = Script(cmds, {bad: ToolResult("shell", 0, stdout="42\n"), cmds[1]: LISTING, cmds[2]: LISTING})
    attempt(script, cross_checks=0)
    for feedback, _, sampled in script.asked[1:]:
        assert sampled and "feedback on " + bad in feedback and f"`{bad}`" in feedback
    failed = Script(["wc -l nope.md", "wc -l docs/a.md"],
                    {"wc -l nope.md": MISSING, "wc -l docs/a.md": ToolResult("shell", 0, stdout="4 docs/a.md\n")})
    attempt(failed, samples=1, confirm_lines=0)
    assert "feedback on wc -l nope.md" in failed.asked[1][0]


def test_samples_are_drawn_blind_when_tell_samples_is_off_and_the_retries_still_read_the_failure():
    cmds = ["wc -l nope.md", "cat nope.md", "wc -l gone.md", "wc -l docs/a.md"]
    script = Script(cmds, {cmds[0]: MISSING, cmds[1]: MISSING, cmds[2]: MISSING,
                           cmds[3]: ToolResult("shell", 0, stdout="4 docs/a.md\n")})
    out = attempt(script, samples=2, retries=1, confirm_lines=0, tell_samples=False)
    assert [a[0] for a in script.asked[1:3]] == ["", ""] and [a[2] for a in script.asked[1:3]] == [True, True]
    assert "feedback on wc -l gone.md" in script.asked[3][0]  # the retry is told the last failure
    assert out.decided_by == "retry" and out.winner.tool_call.args["command"] == cmds[3]


def test_failed_and_empty_outputs_never_win_the_vote():
    cmds = ["grep -rn store .", "grep -rn 'store' .", "grep -rln store src", "grep -rn 'import store' src"]
    script = Script(cmds, {cmds[0]: NOTHING, cmds[1]: NOTHING, cmds[2]: MISSING,
                           cmds[3]: ToolResult("shell", 0, stdout="src/app.py:1:import store\n")})
    out = attempt(script)
    assert out.decided_by == "vote" and out.winner.tool_call.args["command"] == cmds[3]
    assert not out.disputed  # finding nothing elsewhere does not contradict what one command found


def test_a_long_output_one_sample_found_after_the_greedy_command_failed_is_unconfirmed():
    # Only one draw of four printed anything: its listing rests on one command, however long it is.
    cmds = ["grep -rn store .", "grep -rn 'store' .", "grep -rln store src", "find src -name '*.md'"]
    script = Script(cmds, {cmds[0]: NOTHING, cmds[1]: NOTHING, cmds[2]: MISSING, cmds[3]: LISTING})
    out = attempt(script)
    assert out.decided_by == "vote" and out.agreed == 1 and not out.disputed
    assert out.unconfirmed and "rests on one command" in out.summary()


def test_a_long_retry_output_is_unconfirmed_and_a_retried_write_is_not():
    read = ["cat nope.md", "cat nope.md ", "find docs -name '*.md'"]
    out = attempt(Script(read, {"cat nope.md": MISSING, "find docs -name '*.md'": LISTING}), samples=0, retries=2)
    assert out.decided_by == "retry" and out.unconfirmed
    write = ["mkdir a/b", "mkdir -p a/b"]
    made = ToolResult("shell", 0, writes=True, changed=True)
    out = attempt(Script(write, {"mkdir a/b": MISSING, "mkdir -p a/b": made}), samples=0, retries=2)
    assert out.decided_by == "retry" and not out.unconfirmed  # a write is its own result


def test_different_findings_with_no_agreement_are_disputed_and_say_so():
    a, b = ToolResult("shell", 0, stdout="3\n"), ToolResult("shell", 0, stdout="5\n")
    cmds = ["wc -l nope.md", "grep -c x a.py", "grep -c y a.py", "grep -c z a.py"]
    script = Script(cmds, {cmds[0]: MISSING, cmds[1]: a, cmds[2]: b, cmds[3]: NOTHING})
    out = attempt(script)
    assert out.disputed and out.outputs_found == 2 and out.confidence() < 0.5
    assert "2 different outputs" in out.summary()


def test_when_the_vote_finds_nothing_a_retry_is_shown_the_failure_and_the_commands_tried():
    cmds = ["wc -l nope.md", "wc -l nope.md", "cat nope.md", "wc -l nope.md", "wc -l docs/a.md"]
    results = {"wc -l nope.md": MISSING, "cat nope.md": MISSING, "wc -l docs/a.md": ToolResult("shell", 0, stdout="4 docs/a.md\n")}
    script = Script(cmds, results)
    out = attempt(script, samples=3, retries=2, confirm_lines=0)
    assert out.decided_by == "retry" and out.retries == 1 and out.confidence() == 0.5
    feedback, draw, sampled = script.asked[-1]
    assert "feedback on cat nope.md" in feedback and "`wc -l nope.md`; `cat nope.md`" in feedback
    assert not sampled and draw == 4  # the first retry is greedy: its prompt changed
    ran = [s.tool_call.args["command"] for s in out.steps]
    assert ran.count("wc -l nope.md") == 1  # a repeated command is a vote, never a second run


def test_retries_are_bounded_and_then_the_outcome_says_nothing_was_found():
    cmds = ["grep -rn a .", "grep -rn b .", "grep -rn c .", "grep -rn d ."]
    script = Script(cmds, {c: NOTHING for c in cmds})
    out = attempt(script, samples=1, retries=2)
    assert len(script.asked) == 4 and out.retries == 2 and out.winner is None
    assert out.found_nothing and out.decided_by == "" and out.confidence() == 0.0
    assert [a[2] for a in script.asked] == [False, True, False, True]  # second retry sampled
    assert out.summary() == "4 commands ran, none found anything"


def test_a_mend_ragix_found_runs_at_once_and_is_the_candidate():
    fix = Fix("wc -l docs/a.md", "docs/a.md has the closest name")
    script = Script(["wc -l doc/a.md"], {"wc -l doc/a.md": MISSING,
                                         "wc -l docs/a.md": ToolResult("shell", 0, stdout="4 docs/a.md\n")},
                    fixes={"wc -l doc/a.md": fix})
    out = attempt(script, confirm_lines=0)  # the mended command's short output is not put to a vote here
    assert out.decided_by == "greedy" and len(script.asked) == 1
    assert out.winner.tool_call.args == {"command": "wc -l docs/a.md", "note": "docs/a.md has the closest name"}
    assert [s.status for s in out.steps] == [StepStatus.FAILED, StepStatus.SUCCESS]


def test_a_reply_without_a_command_is_one_failed_draw_but_a_timeout_ends_the_run():
    script = Script([StopRun("command_generation_failed", "no command"), "find . -name '*.md'", "ls docs/*.md"],
                    {"find . -name '*.md'": HIT, "ls docs/*.md": HIT})
    out = attempt(script)
    assert out.decided_by == "vote" and out.no_command == ["no command"] and out.agreed == 2
    with pytest.raises(StopRun) as stop:
        attempt(Script([StopRun("llm_timeout", "slow")], {}))
    assert stop.value.reason == "llm_timeout"


def test_no_command_at_all_is_a_named_stop():
    script = Script([StopRun("command_generation_failed", "prose only")] * 4, {})
    with pytest.raises(StopRun) as stop:
        attempt(script, samples=1, retries=2)
    assert stop.value.reason == "command_generation_failed"


def test_bad_budgets_are_refused():
    with pytest.raises(ValueError, match="cross_check_draws must be >= 0"):
        CommandAttempt(lambda *a: "", lambda s: None, lambda s: "", cross_check_draws=-1)
    with pytest.raises(ValueError, match="samples, retries, confirm_lines, cross_checks and cross_check_draws"):
        CommandAttempt(lambda *a: "", lambda s: None, lambda s: "", samples=-1)
    with pytest.raises(ValueError, match="confirm_lines"):
        CommandAttempt(lambda *a: "", lambda s: None, lambda s: "", confirm_lines=-1)
    with pytest.raises(ValueError, match="cross_checks"):
        CommandAttempt(lambda *a: "", lambda s: None, lambda s: "", cross_checks=-1)


def test_a_write_refused_in_a_read_only_run_ends_the_attempt_at_once():
    from ragix_core.tools.toolbox import WRITES_NEED_YES

    refused = ToolResult("shell", 126, refused=True, error=f"refused: {WRITES_NEED_YES}")
    script = Script(["mkdir out", "mkdir -p out"], {"mkdir out": refused, "mkdir -p out": refused})
    out = attempt(script)
    assert len(script.asked) == 1 and out.write_refused is out.steps[0]  # no sample, no retry: none could write
    assert out.winner is None and not out.found_nothing and out.to_meta()["write_refused"]


def test_a_write_that_succeeds_silently_is_the_result():
    done = ToolResult("shell", 0, changed=True)
    script = Script(["cp a.txt b.txt"], {"cp a.txt b.txt": done})
    out = attempt(script)
    assert out.decided_by == "greedy" and len(script.asked) == 1


def test_after_a_failed_write_nothing_is_sampled_only_retried():
    failed = ToolResult("shell", 1, stderr="cp: cannot stat 'a.tx': No such file or directory\n", changed=True)
    done = ToolResult("shell", 0, changed=True)
    script = Script(["cp a.tx b.txt", "cp a.txt b.txt"], {"cp a.tx b.txt": failed, "cp a.txt b.txt": done})
    out = attempt(script)
    assert [a[2] for a in script.asked] == [False, False]  # greedy, then a greedy retry: no parallel writes
    assert out.decided_by == "retry" and out.vote is None


def test_a_sampled_write_that_succeeds_ends_the_vote():
    done = ToolResult("shell", 0, changed=True)
    script = Script(["cat a.tx", "cp a.txt b.txt", "cp a.txt c.txt"],
                    {"cat a.tx": MISSING, "cp a.txt b.txt": done, "cp a.txt c.txt": done})
    out = attempt(script)
    assert len(script.asked) == 2 and out.decided_by == "vote"  # c.txt was never written
    assert out.winner.tool_call.args["command"] == "cp a.txt b.txt"


# -- a disputed output read beside its rival (judge.py) --------------------------------------------------

LINES_CMDS = ["find . -name sql.py | wc -l", "wc -l sqlparse/sql.py"]
LINES_RESULTS = {LINES_CMDS[0]: ToolResult("shell", 0, stdout="1\n"),
                 LINES_CMDS[1]: ToolResult("shell", 0, stdout="664 sqlparse/sql.py\n")}


class Judge:
    """Picks by command text: the pick for (first, second) is 1 when ``prefers`` is in the first command."""

    def __init__(self, prefers: Optional[str] = None, always: Optional[int] = None):
        self.prefers, self.always = prefers, always
        self.asked: List[tuple] = []

    def __call__(self, first, second):
        a, b = first.tool_call.args["command"], second.tool_call.args["command"]
        self.asked.append((a, b))
        if self.always is not None or self.prefers is None:
            return self.always
        return 1 if self.prefers in a else 2 if self.prefers in b else None


def test_a_disputed_rival_both_readings_pick_becomes_the_answer_and_the_run_stays_disputed():
    judge = Judge(prefers="wc -l sqlparse")
    out = attempt(Script(LINES_CMDS, LINES_RESULTS), judge=judge, cross_check_draws=1)
    assert judge.asked == [(LINES_CMDS[0], LINES_CMDS[1]), (LINES_CMDS[1], LINES_CMDS[0])]  # both orders
    assert out.winner.tool_call.args["command"] == LINES_CMDS[1] and out.decided_by == "judged"
    assert out.disputed and not out.confirmed and out.confidence() == pytest.approx(0.5)
    assert [s.tool_call.args["command"] for s in out.rivals()] == [LINES_CMDS[0]]  # the greedy one is now the rival
    assert "said computes the goal" in out.summary()
    assert out.to_meta()["judged"] == [{"kept": LINES_CMDS[0], "rival": LINES_CMDS[1], "picks": [2, 1],
                                        "switched": True}]


@pytest.mark.parametrize("always, readings", [(1, 1), (2, 2), (None, 1)])
def test_a_judge_that_picks_by_position_or_names_neither_changes_nothing(always, readings):
    judge = Judge(always=always)
    out = attempt(Script(LINES_CMDS, LINES_RESULTS), judge=judge, cross_check_draws=1)
    assert out.winner.tool_call.args["command"] == LINES_CMDS[0] and out.decided_by == "greedy"
    assert out.disputed and out.to_meta()["judged"][0]["switched"] is False
    assert len(judge.asked) == readings  # a first reading that keeps the basis needs no second


def test_a_judge_that_prefers_the_greedy_command_keeps_it():
    out = attempt(Script(LINES_CMDS, LINES_RESULTS), judge=Judge(prefers="find"), cross_check_draws=1)
    assert out.winner.tool_call.args["command"] == LINES_CMDS[0] and out.to_meta()["judged"][0]["picks"] == [1]


def test_an_output_that_is_confirmed_or_unchallenged_is_never_judged():
    judge = Judge(always=2)
    cmds = ["wc -l src/a.py", "wc -l < src/a.py"]
    out = attempt(Script(cmds, {cmds[0]: ToolResult("shell", 0, stdout="42 src/a.py\n"),
                                cmds[1]: ToolResult("shell", 0, stdout="42\n")}), judge=judge, cross_check_draws=1)
    assert out.confirmed and judge.asked == []
    out = attempt(Script(["find . -name '*.md'"], {"find . -name '*.md'": LISTING}), judge=judge)
    assert judge.asked == [] and out.to_meta()["judged"] == []


def test_two_sampled_commands_agreeing_on_the_judged_rival_do_not_make_it_confirmed():
    # The judge reads commands; it is not a second output. A switched answer stays disputed, never `success`.
    cmds = ["find tests -name 'test_*.py' | wc -l", "grep -rl 'test_*.py' tests | wc -l",
            "ls tests | grep 'test_*.py' | wc -l"]
    script = Script(cmds, {cmds[0]: ToolResult("shell", 0, stdout="10\n"), cmds[1]: ToolResult("shell", 0, stdout="1\n"),
                           cmds[2]: ToolResult("shell", 0, stdout="1\n")})
    out = attempt(script, cross_checks=3, cross_check_draws=3, judge=Judge(prefers="grep -rl"))
    assert out.decided_by == "judged" and out.agreed == 2 and out.disputed and not out.confirmed


def test_a_count_that_is_then_sorted_is_not_an_answer_but_is_retried_with_what_went_wrong():
    # Measured (paraphrase set at dff3bdd): "which .py file is the longest?" answered "42", the output of
    # `find . -name '*.py' | wc -l | sort -nr | head -n 1`, "confirmed" by another count of the files.
    bad = "find . -name '*.py' | wc -l | sort -nr | head -n 1"
    also_bad = "find . -type f -name '*.py' | wc -l | sort -n | tail -1"
    good = "find . -name '*.py' | xargs wc -l | sort -nr | head -n 2"
    script = Script([bad, also_bad, bad, good],
                    {bad: ToolResult("shell", 0, stdout="42\n"), also_bad: ToolResult("shell", 0, stdout="42\n"),
                     good: ToolResult("shell", 0, stdout=" 3000 total\n 1300 ./sqlparse/keywords.py\n")})
    out = attempt(script, samples=2, retries=2, cross_checks=0)  # no cross-check of the two-line winner
    assert out.winner is not None and out.winner.tool_call.args["command"] == good
    assert out.decided_by == "retry" and not out.found_nothing
    assert [a[2] for a in script.asked] == [False, True, True, False]  # greedy, two samples, the retry
    assert "feedback on " + also_bad in script.asked[3][0]  # the retry is shown the last mistaken command


def _doubted(stdout: str) -> ToolResult:
    """A search for the text of a project path, as plan_steps records it (evidence/path_as_text.py)."""
    return ToolResult("shell", 0, stdout=stdout, doubt="it searched the text of the files for a path")


def test_a_search_for_a_path_text_does_not_win_when_a_command_reading_the_file_works():
    # Measured (paraphrase set at 02fcfb1): "how many lines does sqlparse/sql.py have?" answered 1, from
    # `grep -rl sqlparse/sql.py . | wc -l`; a sampled `wc -l sqlparse/sql.py` printed the right count.
    doubted, also_doubted, reads = ("grep -rl sqlparse/sql.py . | wc -l", "grep -rl sql.py . | wc -l",
                                    "wc -l sqlparse/sql.py")
    script = Script([doubted, also_doubted, reads, reads],
                    {doubted: _doubted("1\n"), also_doubted: _doubted("1\n"),
                     reads: ToolResult("shell", 0, stdout="652 sqlparse/sql.py\n")})
    out = attempt(script, samples=3, cross_checks=0)
    assert out.winner.tool_call.args["command"] == reads and out.decided_by == "vote"
    # the two doubted commands agree, and without the doubt that pair would be the vote's majority
    assert out.outputs_found == 1


def test_when_only_searches_for_a_path_text_found_something_the_first_is_answered_unconfirmed():
    doubted = "grep -rl README.md . | wc -l"
    script = Script([doubted] * 7, {doubted: _doubted("3\n")})  # each retry repeats it and is redrawn once
    out = attempt(script, samples=2, retries=2, cross_checks=0)
    assert out.winner.tool_call.args["command"] == doubted and out.decided_by == "doubted"
    assert out.unconfirmed and "a search for the text of a path" in out.summary()
    assert out.retries == 2 and out.redrawn == 2 and "feedback on " + doubted in script.asked[-1][0]  # retried on what it did
    assert out.confidence() <= 0.6 and not out.found_nothing


IDLE_WRITE = ToolResult("shell", 0, writes=True, changed=False)  # `mkdir -p logs` where logs exists


def test_a_write_that_changed_nothing_is_voted_on_like_an_empty_output_and_a_count_wins():
    cmds = ["mkdir -p logs", "find logs -type f | wc -l", "ls logs | wc -l"]
    script = Script(cmds, {cmds[0]: IDLE_WRITE, cmds[1]: ToolResult("shell", 0, stdout="7\n"),
                           cmds[2]: ToolResult("shell", 0, stdout="7\n")})
    out = attempt(script)
    assert out.decided_by == "vote" and out.winner.result.stdout == "7\n" and out.confirmed
    assert [a[2] for a in script.asked] == [False, True, True]


def test_a_write_that_changed_something_is_its_own_result():
    script = Script(["mkdir -p logs"], {"mkdir -p logs": ToolResult("shell", 0, writes=True, changed=True)})
    out = attempt(script)
    assert out.decided_by == "greedy" and len(script.asked) == 1


def test_a_write_that_changed_nothing_answers_only_when_nothing_else_found_anything():
    cmds = ["mkdir -p logs", "grep -r nothing logs", "grep -r none logs", "grep -r nil logs", "grep -r zip logs"]
    script = Script(cmds, {cmds[0]: IDLE_WRITE, **{c: NOTHING for c in cmds[1:]}})
    out = attempt(script, retries=1)
    assert out.decided_by == "unchanged" and out.winner.tool_call.args["command"] == "mkdir -p logs"
    assert "changed nothing" in out.summary()
    # its retry was told so, not that the command "printed nothing" as a search would be
    said = execution_feedback(out.steps[0], Path("/nonexistent-root"))
    assert "changed nothing in the project" in said and "ran and printed nothing" not in said


def test_a_retry_that_repeats_a_command_already_run_is_drawn_again_hotter_and_told_which():
    # AgentBench OS test-52 at 89b7b60: `mkdir file_analysis` failed (it existed) on every draw, retries included.
    failed = ToolResult("shell", 1, stderr="mkdir: cannot create directory 'file_analysis': File exists\n")
    counted = ToolResult("shell", 0, stdout="file_analysis/a.txt\nfile_analysis/b.txt\nfile_analysis/c.txt\n"
                                            "file_analysis/d.txt\n")
    cmds = ["mkdir file_analysis", "mkdir file_analysis", "find file_analysis -type f"]
    script = Script(cmds, {cmds[0]: failed, cmds[2]: counted})
    out = attempt(script, samples=0, retries=1)
    assert out.decided_by == "retry" and out.redrawn == 1 and out.to_meta()["redrawn"] == 1
    feedback, _, heat = script.asked[-1]
    assert heat == 2 and "`mkdir file_analysis` was already run" in feedback
    assert [s.tool_call.args["command"] for s in out.steps] == ["mkdir file_analysis", "find file_analysis -type f"]


def test_a_retry_with_a_new_command_is_not_redrawn_and_a_repeated_redraw_ends_the_retry():
    cmds = ["wc -l nope.md", "cat nope.md", "wc -l nope.md", "cat nope.md"]
    script = Script(cmds, {"wc -l nope.md": MISSING, "cat nope.md": MISSING})
    out = attempt(script, samples=0, retries=2)
    # retry 1 wrote a new command (no redraw); retry 2 repeated one, was redrawn once, and repeated again
    assert out.redrawn == 1 and len(script.asked) == 4 and out.winner is None
    assert [a[2] for a in script.asked] == [False, False, True, 2]


def test_each_draw_is_recorded_with_what_its_run_gave_and_what_it_printed():
    refused = ToolResult("shell", 126, refused=True, error="refused: '&' (chaining or background) is not allowed")
    counted = ToolResult("shell", 0, stdout="0\n", piped_lines=0)
    ranked = ToolResult("shell", 0, stdout="4\n")  # one count, then sorted: a shape that cannot rank files
    script = Script(["ls docs & wc -l", "grep -rl nope . | wc -l", "find docs -name '*.md' | wc -l | sort -n",
                     "find docs -name '*.md'"],
                    {"ls docs & wc -l": refused, "grep -rl nope . | wc -l": counted,
                     "find docs -name '*.md' | wc -l | sort -n": ranked, "find docs -name '*.md'": LISTING})
    out = attempt(script)
    draws = out.to_meta()["draws"]
    assert [(d["command"], d["kind"], d["won"]) for d in draws] == [
        ("ls docs & wc -l", "refused", False), ("grep -rl nope . | wc -l", "empty", False),
        ("find docs -name '*.md' | wc -l | sort -n", "mistake", False), ("find docs -name '*.md'", "read", True)]
    assert draws[0]["output"].startswith("refused: '&'") and draws[1]["output"] == "0"
    assert draws[3]["output"] == LISTING.stdout.strip()


def test_a_long_output_is_cut_in_the_record_of_its_draw():
    long = ToolResult("shell", 0, stdout="".join(f"./docs/file{n:03}.md\n" for n in range(100)))
    out = attempt(Script(["find docs"], {"find docs": long}))
    record = out.to_meta()["draws"][0]["output"]
    assert record.startswith("./docs/file000.md") and "more characters cut" in record and len(record) < 300
