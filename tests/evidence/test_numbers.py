"""Numbers an answer states are traced to the outputs, or marked."""

from __future__ import annotations

from ragix_core.core.types import PlanStep, StepStatus, ToolCall, ToolResult
from ragix_core.evidence.numbers import mark_unsupported_numbers, unsupported_numbers


def _step(command: str, stdout: str = "", **args) -> PlanStep:
    step = PlanStep(1, command, ToolCall("shell", {"command": command, **args}))
    step.result = ToolResult("shell", 0, stdout=stdout, command=command)
    step.status = StepStatus.SUCCESS
    return step


PORT = [_step("grep -rn port config", "config/settings.yaml:4:  port: 8080\n")]
COUNTS = [_step("wc -l README.md CHANGELOG.md", "19 README.md\n12 CHANGELOG.md\n31 total\n")]


def test_an_invented_number_is_named_and_a_read_one_is_not():
    # measured: "port 80" where no output showed it (the config says 8080, a longer number)
    assert unsupported_numbers("What port does the server listen on?", "It listens on port 80.", PORT) == ["80"]
    assert unsupported_numbers("What port does the server listen on?", "It listens on port 8080.", PORT) == []
    marked = mark_unsupported_numbers("What port?", "It listens on port 80.", PORT)
    assert marked.startswith("It listens on port 80.") and "no command output shows 80" in marked


def test_counts_sums_and_differences_of_shown_numbers_are_derived_not_invented():
    goal = "Compare the line counts of README.md and CHANGELOG.md"
    assert unsupported_numbers(goal, "README.md (19) is longer than CHANGELOG.md (12) by 7 lines.", COUNTS) == []
    # measured: "CHANGELOG.md is 10 lines": no output holds it, and 10 is no sum or difference of them
    assert unsupported_numbers(goal, "README.md is 6 lines and CHANGELOG.md is 10.", COUNTS) == ["6", "10"]
    # a count of output lines: 3 files listed
    listing = [_step("grep -rl TODO .", "./a.py\n./b.py\n./c.py\n")]
    assert unsupported_numbers("Which files have TODOs?", "3 files: a.py, b.py, c.py", listing) == []
    assert unsupported_numbers("Which files have TODOs?", "4 files: a.py, b.py, c.py", listing) == ["4"]


def test_what_the_goal_commands_and_ragix_notes_say_is_supported():
    step = _step("head -n 20 guide.md", "# Guide\n", note="ran it on docs/guide.md, 120 lines")
    answer = "The first 20 lines of guide.md (120 lines long) show its title."
    assert unsupported_numbers("Show the first lines of guide.md", answer, [step]) == []
    assert unsupported_numbers("What changed in release 42?", "Release 42 added a flag.", [step]) == []


def test_the_digits_ending_a_name_in_a_command_support_no_number_but_an_options_do():
    # AgentBench OS test-66 at 89b7b60: after `mkdir -p .../dir3` alone, the writer answered "3".
    made = [_step("mkdir -p problem_directory/dir1/dir2/dir3")]
    assert unsupported_numbers("Count the directories and files", "3", made) == ["3"]
    # nor does a count of the goal's lines: only an output's lines are counted
    assert unsupported_numbers("Count the\ndirectories\nand files\nbelow.", "3", made) == ["3"]
    for command in ("head -n3 a.txt", "sed -n 3p a.txt", "cut -f3 a.txt", "awk '{print $3}' a.txt"):
        assert unsupported_numbers("Show it", "Field 3 is x", [_step(command, "x\n")]) == [], command


def test_names_and_answers_without_commands_are_not_checked_and_a_shown_version_is_read():
    steps = [_step("cat pyproject.toml", 'version = "0.3.0"\n')]
    assert unsupported_numbers("Which version?", "The version is 0.3.0, see test_2.py, 1,234 users.", steps) == []
    assert unsupported_numbers("Which version?", "It is v0.3.0.", steps) == []
    assert unsupported_numbers("What is 2+2?", "It is 4.", []) == []  # no step ran: nothing to check against
    assert mark_unsupported_numbers("q", "", PORT) == ""


def test_a_version_no_output_shows_is_named():
    # measured at temperature 0.3 (missing-setup-py): three commands found nothing, the answer said 0.1.0
    empty = [_step("grep -rn 'version=' .", "")]
    marked = mark_unsupported_numbers("Read the project version from setup.py", "The project version is 0.1.0.", empty)
    assert "no command output shows 0.1.0;" in marked
    steps = [_step("cat pyproject.toml", 'version = "0.3.0"\n')]
    # a version is read only as it stands: 10.3.0 and 0.3 are other numbers than 0.3.0
    assert unsupported_numbers("Which version?", "It is 10.3.0, not 0.3.0.1 nor 0.3.0.", steps) == ["10.3.0", "0.3.0.1"]
    assert unsupported_numbers("Which version?", "Version 2 is 0.3.0, from 3.5 kB.", steps) == ["2"]  # a decimal is no version
    assert unsupported_numbers("Which version?", "Python 3.11.4 runs 0.3.0.", steps) == ["3.11.4"]


def test_an_answer_grounded_twice_is_marked_once():
    # VERIFY grounds the writer's answer again, with its doubt appended after the first mark
    once = mark_unsupported_numbers("What port?", "It listens on port 80.", PORT)
    twice = mark_unsupported_numbers("What port?", once + "\n\nVerification failed: no port shown", PORT)
    assert twice.count("no command output shows 80") == 1 and twice.endswith("Verification failed: no port shown")
    empty = [_step("grep -rn version .", "")]
    once = mark_unsupported_numbers("Which version?", "It is 0.1.0.", empty)
    assert mark_unsupported_numbers("Which version?", once + "\n\nVerification failed: no version shown", empty) \
        .count("0.1.0") == 2  # the answer and its one mark


def test_a_number_no_text_shows_is_derived_and_a_shown_one_is_not():
    from ragix_core.evidence.numbers import derived_numbers
    rows = [_step("cat tasks.csv", "a,30\nb,45\nc,40\n")]
    # 115 (the sum) and 3 (the count) are derived: supported, but no output, command or goal writes them
    assert derived_numbers("Total minutes in tasks.csv?", "3 tasks take 115 minutes; b takes 45.", rows) == ["3", "115"]
    assert derived_numbers("Which 2 tasks?", "2 tasks, 0 or 1 of them late: a and b.", rows) == []  # goal; 0 and 1
    marked = mark_unsupported_numbers("Total?", "It is 999.", rows)
    assert derived_numbers("Total?", marked, rows) == ["999"]  # ragix's own note is not the answer's number
    assert derived_numbers("Total?", "It is 115.", []) == []  # nothing ran: nothing to compute from
    # a number only a file name shows is a name (AgentBench OS at bd99fa4: an employee's id answered as the total)
    grep = [_step("grep -rn urgent ./employees", "./employees/105.txt:1:urgent:30\n./employees/101.txt:3:urgent:20\n")]
    goal = "What is the total time of the urgent tasks in employees/?"
    assert derived_numbers(goal, "The urgent tasks take 105 minutes.", grep) == ["105"]
    assert derived_numbers(goal, "The urgent tasks take 30 and 20 minutes.", grep) == []  # values the lines show
    assert derived_numbers(goal, "Task 3 of file 101 is urgent.", grep) == ["101"]


def test_a_digest_no_output_shows_is_named_and_a_printed_one_is_not():
    # measured on NL2Bash fs_1-110 at 7defe0e: a digest no command printed ended `success`
    sums = [_step("find . -name '*.py' | xargs md5sum | sort | md5sum", "abd1db025ea1e9dbef827b574c500bdb  -\n")]
    goal = "Calculate the md5 sum of the sorted md5 sums of the .py files"
    assert unsupported_numbers(goal, "It is e660d8a26d3db7a8f3f2bdc1f9128bdc.", sums) == [
        "e660d8a26d3db7a8f3f2bdc1f9128bdc"]
    assert unsupported_numbers(goal, "It is ABD1DB025EA1E9DBEF827B574C500BDB.", sums) == []  # any case
    assert unsupported_numbers(goal, "It is abd1db025ea1e9dbef827b574c500bdb.", sums) == []
    # words, a digest's prefix in a name, and short hex are no digest
    assert unsupported_numbers(goal, "The files are deadbeef.py and cafe123 is short: facade.", sums) == []
    once = mark_unsupported_numbers(goal, "It is e660d8a26d3db7a8f3f2bdc1f9128bdc.", sums)
    assert mark_unsupported_numbers(goal, once, sums) == once  # grounded twice, marked once
