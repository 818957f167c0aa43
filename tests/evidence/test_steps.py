"""What the writer is shown of the steps (evidence/steps.py: evidence_block)."""

from __future__ import annotations

from ragix_core.core.types import PlanStep, StepStatus, ToolCall, ToolResult
from ragix_core.evidence.steps import EMPTY_BEFORE_EVIDENCE, evidence_block


def _step(num: int, command: str, stdout: str = "", no_match: bool = False, **args) -> PlanStep:
    step = PlanStep(num, command, ToolCall("shell", {"command": command, **args}))
    step.result = ToolResult("shell", 1 if no_match else 0, stdout=stdout, command=command, no_match=no_match)
    step.status = StepStatus.SUCCESS
    return step


EMPTY = _step(1, "grep -rn 'quantity: 0' .", no_match=True)
READ = _step(2, "cat inventory.json", '{"B7": {"name": "washer", "quantity": 0}}\n')


def test_an_empty_search_before_real_output_is_marked_as_no_evidence_of_absence():
    shown = evidence_block([EMPTY, READ], "Which items have quantity 0?")
    empty_part, read_part = shown.split("\n\n$ ")
    assert EMPTY_BEFORE_EVIDENCE in empty_part and "(no matches)" in empty_part
    assert EMPTY_BEFORE_EVIDENCE not in read_part and '"washer"' in read_part


def test_an_empty_search_that_is_all_there_is_or_comes_last_is_shown_as_it_is():
    assert EMPTY_BEFORE_EVIDENCE not in evidence_block([EMPTY], "g")  # the absence may be the answer
    assert EMPTY_BEFORE_EVIDENCE not in evidence_block([READ, EMPTY], "g")  # nothing after it to point to


def test_notes_and_asides_are_shown_to_the_writer():
    step = _step(1, "grep -rn x .", "a.py:1:x\n", note="n1", aside="a1")
    shown = evidence_block([step], "g")
    assert "(ragix: n1)" in shown and "(ragix: a1)" in shown
