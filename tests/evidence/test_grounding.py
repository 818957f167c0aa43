"""The written answer keeps every file the tools listed when the goal asks for a listing."""

from ragix_core.evidence.grounding import asks_for_listing, ground_answer, listed_paths
from ragix_core.core.types import PlanStep, StepStatus, ToolCall, ToolResult


def _step(command, stdout, status=StepStatus.SUCCESS):
    return PlanStep(1, command, ToolCall("shell", {"command": command}), status, ToolResult("shell", 0, stdout=stdout))


def _repo(tmp_path):
    (tmp_path / "src").mkdir()
    for name in ("b.py", "src/cli.py", "README.md"):
        (tmp_path / name).write_text("x\n")
    return tmp_path


def test_listed_paths_reads_grep_find_and_wc_lines_and_keeps_only_real_files(tmp_path):
    root = _repo(tmp_path)
    out = "./b.py:11:def execute\n./src/cli.py\n  3 README.md\n  9 total\nghost.py\nnot a path line\n../etc/passwd\n./b.py\n"
    assert listed_paths(out, root) == ["./b.py", "./src/cli.py", "README.md"]


def test_omitted_files_are_appended_with_the_command_they_come_from(tmp_path):
    root = _repo(tmp_path)
    steps = [_step("grep -rl 'def execute' .", "./src/cli.py\n./b.py\n")]
    got = ground_answer("Find all files containing 'def execute'", "./src/inventory/cli.py", steps, root)
    assert got.startswith("./src/inventory/cli.py")
    assert "Also listed in the output of `grep -rl 'def execute' .`: ./b.py" in got
    assert got.count("cli.py") == 1  # mentioned by name already: not repeated


def test_complete_answers_and_one_item_goals_are_left_alone(tmp_path):
    root = _repo(tmp_path)
    steps = [_step("find . | xargs wc -l", "  1 ./b.py\n  1 ./src/cli.py\n")]
    assert ground_answer("List all files", "b.py and src/cli.py", steps, root) == "b.py and src/cli.py"
    assert ground_answer("Which file is the largest?", "b.py", steps, root) == "b.py"
    assert ground_answer("How many files are there?", "2", steps, root) == "2"


def test_only_the_last_successful_step_with_output_counts(tmp_path):
    root = _repo(tmp_path)
    steps = [_step("find . -name '*.md'", "README.md\n"), _step("grep -rl x src", "./src/cli.py\n"),
             _step("grep -rl y nowhere", "", status=StepStatus.FAILED)]
    got = ground_answer("Which files mention x?", "None found.", steps, root)
    assert got.endswith(": ./src/cli.py") and "README.md" not in got


def test_listing_goal_detection():
    assert asks_for_listing("Find all files containing 'def execute'")
    assert asks_for_listing("Which modules import storage?")
    assert asks_for_listing("Which Python files contain TODO comments?")
    assert not asks_for_listing("What does the -r option of grep do?")
    assert not asks_for_listing("Which port does the server use?")
    assert not asks_for_listing("Which markdown file has the fewest lines?")
    assert not asks_for_listing("How many Python files are there in all directories?")
    assert not asks_for_listing("Count the lines of docs/guide.md")


def test_a_path_correction_made_by_ragix_is_always_stated(tmp_path):
    note = "docs/guides.md does not exist; ran it on docs/guide.md, the existing file with the closest name"
    fixed = PlanStep(2, note, ToolCall("shell", {"command": "wc -l docs/guide.md", "note": note}), StepStatus.SUCCESS,
                     ToolResult("shell", 0, stdout="120 docs/guide.md\n"))
    assert ground_answer("Count the lines of docs/guides.md", "120", [fixed], tmp_path) == f"120\n\nNote: {note}."
    failed = PlanStep(2, note, ToolCall("shell", {"command": "wc -l docs/guide.md", "note": note}), StepStatus.FAILED)
    assert ground_answer("Count the lines of docs/guides.md", "unknown", [failed], tmp_path) == "unknown"


def test_a_path_the_goal_named_and_the_commands_silently_replaced_is_named_in_the_answer(tmp_path):
    root = _repo(tmp_path)
    (root / "docs").mkdir()
    (root / "docs" / "guide.md").write_text("x\n" * 120)
    steps = [_step("wc -l docs/guide.md", "120 docs/guide.md\n")]
    got = ground_answer("Count the lines of docs/guides.md", "120", steps, root)
    assert got == "120\n\nNote: docs/guides.md does not exist; this answer is from docs/guide.md."
    # "./docs/guide.md" in the command is the same file
    dotted = [_step("cat ./docs/guide.md | wc -l", "120\n")]
    assert "this answer is from docs/guide.md" in ground_answer("Count the lines of docs/guides.md", "120", dotted, root)


def test_no_stand_in_note_when_the_path_exists_is_mentioned_or_was_not_used(tmp_path):
    root = _repo(tmp_path)
    (root / "docs").mkdir()
    (root / "docs" / "guide.md").write_text("x\n")
    used = [_step("wc -l docs/guide.md", "1 docs/guide.md\n")]
    assert ground_answer("Count the lines of docs/guide.md", "1", used, root) == "1"          # the goal's path exists
    assert ground_answer("Count the lines of docs/guides.md", "docs/guide.md has 1 line", used, root) \
        == "docs/guide.md has 1 line"                                                          # the answer says which
    other = [_step("wc -l README.md", "1 README.md\n")]
    assert ground_answer("Count the lines of docs/guides.md", "1", other, root) == "1"         # not the close file
    failed = [_step("wc -l docs/guide.md", "", status=StepStatus.FAILED)]
    assert ground_answer("Count the lines of docs/guides.md", "1", failed, root) == "1"       # a failed command read nothing
