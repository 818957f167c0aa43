"""Execution voting (reasoning_v30/voting.py) on fixed commands and outputs: no model, no shell.

The tool results are built the way the confined tool box reports them (``no_match`` is set by
tools/policy for a grep that found nothing); the real box runs in test_agent_fns.py.
"""

from __future__ import annotations

from typing import Dict, List

from ragix_core.core.types import StepStatus, ToolResult
from ragix_core.reasoning_v30.voting import CommandVote, found_nothing

NOTHING = ToolResult("shell", 1, no_match=True)


def vote(commands: List[str], results: Dict[str, ToolResult], *, k_max: int = 3, quorum: int = 2):
    asked: List[str] = []

    def ask(feedback: str, i: int, sample: bool) -> str:
        asked.append(commands[i])
        return commands[i]

    def run(step, final=False):
        r = results[step.tool_call.args["command"]]
        step.result = r
        step.status = StepStatus.SUCCESS if r.returncode == 0 or r.no_match else StepStatus.FAILED
        return None

    return CommandVote(ask, run, k_max=k_max, quorum=quorum).vote("who imports store?"), asked


def test_a_command_that_found_something_beats_two_that_found_nothing():
    hit = ToolResult("shell", 0, stdout="src/app.py:1:from inventory import store\n")
    out, asked = vote(["grep -rl 'import store' .", "grep -rn 'from store' .", "grep -rn 'import store' src"],
                      {"grep -rl 'import store' .": NOTHING, "grep -rn 'from store' .": NOTHING,
                       "grep -rn 'import store' src": hit})
    assert len(asked) == 3  # two empty outputs did not end the vote
    assert out.winner.tool_call.args["command"] == "grep -rn 'import store' src"
    assert not out.found_nothing and out.needs_caveat
    assert out.summary() == "3 commands ran, 1 found this output, 2 found nothing"
    assert not out.disputed  # finding nothing elsewhere does not contradict what one command found


def test_two_different_findings_with_no_agreement_are_disputed():
    a = ToolResult("shell", 0, stdout="src/app.py:1:from inventory import store\n")
    b = ToolResult("shell", 0, stdout="src/inventory/__init__.py\n")
    cmds = ["grep -rn 'import store' src", "find src -name '__init__.py'", "grep -rl 'from store' ."]
    out, _ = vote(cmds, {cmds[0]: a, cmds[1]: b, cmds[2]: NOTHING})
    assert out.disputed and out.summary() == "3 commands ran, 1 agreed on this output"


def test_an_all_empty_vote_lowers_confidence_and_says_so():
    cmds = ["grep -rn store .", "grep -rln store .", "grep -rn 'store' ."]
    out, asked = vote(cmds, {c: NOTHING for c in cmds})
    assert len(asked) == 3 and out.found_nothing and out.agreed == 3
    assert out.confidence(2) == 0.5  # three agreeing on an absence: half what three agreeing outputs give
    assert out.needs_caveat and out.summary() == "3 commands ran, none found anything"
    assert all(found_nothing(s) for s in out.steps)


def test_agreeing_outputs_stop_at_the_quorum_with_full_confidence():
    hit = ToolResult("shell", 0, stdout="3\n")
    out, asked = vote(["grep -c def a.py", "grep -c 'def ' a.py", "wc -l a.py"],
                      {"grep -c def a.py": hit, "grep -c 'def ' a.py": hit, "wc -l a.py": hit})
    assert len(asked) == 2 and out.confidence(2) == 1.0 and not out.needs_caveat


def test_an_empty_output_without_no_match_is_empty_evidence_too():
    blank = ToolResult("shell", 0, stdout="\n")
    found = ToolResult("shell", 0, stdout="./docs/a.md\n")
    out, _ = vote(["find . -name '*.MD'", "find . -name '*.md'"], {"find . -name '*.MD'": blank,
                                                                  "find . -name '*.md'": found}, k_max=2)
    assert out.winner.tool_call.args["command"] == "find . -name '*.md'"
