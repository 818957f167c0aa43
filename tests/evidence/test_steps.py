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
    assert EMPTY_BEFORE_EVIDENCE not in read_part and 'name=washer' in read_part


def test_an_empty_search_that_is_all_there_is_or_comes_last_is_shown_as_it_is():
    assert EMPTY_BEFORE_EVIDENCE not in evidence_block([EMPTY], "g")  # the absence may be the answer
    assert EMPTY_BEFORE_EVIDENCE not in evidence_block([READ, EMPTY], "g")  # nothing after it to point to


def test_notes_and_asides_are_shown_to_the_writer():
    step = _step(1, "grep -rn x .", "a.py:1:x\n", note="n1", aside="a1")
    shown = evidence_block([step], "g")
    assert "(ragix: n1)" in shown and "(ragix: a1)" in shown


def _ran(command: str, stdout: str = "", status: StepStatus = StepStatus.SUCCESS, refused: bool = False) -> PlanStep:
    step = PlanStep(1, "s", ToolCall("shell", {"command": command}))
    step.result = ToolResult("x", 126 if refused else 0, stdout=stdout, refused=refused, command=command,
                             error="refused: variable or command expansion '$' is not allowed" if refused else None)
    step.status = status
    return step


def test_a_refused_step_after_output_with_the_goals_words_is_a_rework_of_evidence():
    from ragix_core.evidence.steps import refused_after_evidence

    goal = "List all TODO comments in the Python files, with their file names."
    listing = _ran("find . -name '*.py'", "./a.py\n./b.py\n")
    todos = _ran("find . -name '*.py' | xargs grep -rn TODO", "./a.py:12:    # TODO: support more\n")
    refused = _ran("cut -d: -f1 $(grep -rn TODO $(find . -name '*.py'))", status=StepStatus.FAILED, refused=True)
    assert refused_after_evidence(refused, [listing, todos, refused], goal)
    # a listing holds none of the goal's words: the plan has no evidence yet
    assert not refused_after_evidence(refused, [listing, refused], goal)
    # a step that ran and failed (a missing file) is a failure to reflect on, not a refusal
    missing = _ran("grep TODO nope.py", status=StepStatus.FAILED)
    assert not refused_after_evidence(missing, [todos, missing], goal)
    # an empty search is no evidence
    empty = _ran("grep -rn TODO src", "")
    assert not refused_after_evidence(refused, [empty, refused], goal)


def test_a_failed_step_holding_an_earlier_command_that_printed_lines_reworks_it():
    from ragix_core.evidence.steps import failed_rework_of

    found = _ran("grep 'log_level' config/settings.yaml", "log_level: INFO\n")
    broken = _ran("head -n 1 grep 'log_level' config/settings.yaml", status=StepStatus.FAILED)
    assert failed_rework_of(broken, [found, broken]) is found
    piped = _ran("grep -rniF -e 'version' .  |  grep -oP 'x' setup.py", status=StepStatus.FAILED)
    assert failed_rework_of(piped, [_ran("grep -rniF -e 'version' .", "./p.toml:3:version = 1\n"), piped])
    # an earlier step that found nothing holds no output to rework
    assert failed_rework_of(broken, [_ran("grep 'log_level' config/settings.yaml", ""), broken]) is None
    # a one-word command is part of every failing call of its program; a longer path is another file
    listing = _ran("ls", "docs\n")
    assert failed_rework_of(_ran("ls docs/missing.md", status=StepStatus.FAILED), [listing]) is None
    docs = _ran("ls docs", "guide.md\n")
    assert failed_rework_of(_ran("ls docs/missing.md", status=StepStatus.FAILED), [docs]) is None
    # a refusal is refused_after_evidence's to judge; a success is no failure
    refused = _ran("head -n 1 grep 'log_level' config/settings.yaml $(x)", status=StepStatus.FAILED, refused=True)
    assert failed_rework_of(refused, [found]) is None
    assert failed_rework_of(_ran(f"head -n 1 {found}", "x"), [found]) is None


def test_a_sum_that_read_lines_and_printed_0_found_something_a_count_that_read_none_did_not():
    from ragix_core.evidence.steps import printed_nothing

    summed = "grep -h -o '[0-9-]*' f1 f2 | awk '{sum += $1} END {print sum}'"
    assert not printed_nothing("0\n", summed, piped_lines=9)  # nine integers that add up to 0
    assert printed_nothing("0\n", summed, piped_lines=0)  # nothing reached the sum
    assert printed_nothing("0\n", summed)  # not known what it read: as before
    assert printed_nothing("0\n", "grep x f | wc -l", piped_lines=3)  # a count is no sum
    assert printed_nothing("0\n", "ls | awk '/x/ {n++} END {print n+0}'", piped_lines=3)  # counts matches
    assert not printed_nothing("0\n", "cat f | awk -F, '{ s+=$2 } END { print s }'", piped_lines=2)
    assert printed_nothing("", summed, piped_lines=9)


def test_the_tools_say_how_many_lines_a_pipelines_last_stage_read(tmp_path):
    from ragix_core.tools import ToolBox

    (tmp_path / "f.txt").write_text("5\n-5\n")
    box = ToolBox(tmp_path, profile="reflect")
    summed = box.run_command("cat f.txt | awk '{s += $1} END {print s}'")
    assert summed.stdout.strip() == "0" and summed.piped_lines == 2
    assert box.run_command("cat f.txt").piped_lines is None
    assert box.run_command("grep x f.txt | wc -l").piped_lines == 0
