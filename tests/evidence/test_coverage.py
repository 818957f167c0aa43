"""The files a line-count goal names are counted before the answer (evidence/coverage.py)."""

from __future__ import annotations

from ragix_core.core.types import PlanStep, StepStatus, ToolCall, ToolResult
from ragix_core.evidence.coverage import asks_line_counts, goal_files_to_count

GOAL = "Compare the line counts of README.md and CHANGELOG.md: which is longer, and by how many lines?"


def _step(stdout: str, status: StepStatus = StepStatus.SUCCESS) -> PlanStep:
    step = PlanStep(1, "s", ToolCall("shell", {"command": "c"}))
    step.result = ToolResult("wc", 0, stdout=stdout, command="c")
    step.status = status
    return step


def _project(tmp_path):
    (tmp_path / "README.md").write_text("r\n" * 19)
    (tmp_path / "CHANGELOG.md").write_text("c\n" * 12)
    return tmp_path


def test_line_count_goals_are_told_from_others():
    assert asks_line_counts(GOAL)
    assert asks_line_counts("How many lines does README.md have?")
    assert asks_line_counts("Is notes.md shorter than guide.md?")
    assert not asks_line_counts("Which modules depend on models.py?")
    assert not asks_line_counts("List the functions defined in a.py")


def test_named_files_no_output_counted_are_all_counted(tmp_path):
    root = _project(tmp_path)
    # measured (5ae6fa5): the plan's one row was another file's
    assert goal_files_to_count(GOAL, [_step("   6 ./docs/notes.md\n")], root) == ["README.md", "CHANGELOG.md"]
    # one of the two counted: both again, so that the counts stand in one table
    assert goal_files_to_count(GOAL, [_step("19 README.md\n")], root) == ["README.md", "CHANGELOG.md"]
    # a listing names them but counts nothing
    assert goal_files_to_count(GOAL, [_step("./README.md\n./CHANGELOG.md\n")], root) == ["README.md", "CHANGELOG.md"]
    # a failed step's rows are no count
    assert goal_files_to_count(GOAL, [_step("19 README.md\n12 CHANGELOG.md\n", StepStatus.FAILED)], root) == [
        "README.md", "CHANGELOG.md"]


def test_nothing_to_count_when_counted_absent_or_not_a_count_goal(tmp_path):
    root = _project(tmp_path)
    counted = [_step("  19 ./README.md\n  12 ./CHANGELOG.md\n  31 total\n")]
    assert goal_files_to_count(GOAL, counted, root) == []
    assert goal_files_to_count("How many lines does MISSING.md have?", [], root) == []  # no such file
    assert goal_files_to_count("What does README.md say about CHANGELOG.md?", [], root) == []


def test_a_file_the_goal_asks_about_is_read_when_no_step_read_it(tmp_path):
    from ragix_core.evidence.coverage import goal_files_to_read

    (tmp_path / "a.py").write_text("def greet():\n    pass\n")
    (tmp_path / "models.py").write_text("class Item:\n    pass\n")
    (tmp_path / "big.py").write_text("x = 1\n" * 2000)
    goal = "List the functions defined in a.py"
    # measured (ecc4ea4): `grep -rl '.*\.py'` named a.py among other files and showed none of its lines
    assert goal_files_to_read(goal, [_step("README.md\na.py\nCHANGELOG.md\n")], tmp_path, 4096) == ["a.py"]
    assert goal_files_to_read(goal, [], tmp_path, 4096) == ["a.py"]
    read = PlanStep(1, "s", ToolCall("shell", {"command": "grep -n 'def ' a.py"}))
    read.result, read.status = ToolResult("grep", 0, stdout="1:def greet():\n"), StepStatus.SUCCESS
    assert goal_files_to_read(goal, [read], tmp_path, 4096) == []  # named as an operand
    assert goal_files_to_read(goal, [_step("./a.py:1:def greet():\n")], tmp_path, 4096) == []  # its lines shown
    # a file the goal searches for, not one it asks about; a file over the size cap; a missing file
    assert goal_files_to_read("Which modules depend on models.py?", [], tmp_path, 4096) == []
    assert goal_files_to_read("Which modules import from models.py?", [], tmp_path, 4096) == []
    assert goal_files_to_read("List the functions in big.py", [], tmp_path, 4096) == []
    assert goal_files_to_read("List the functions in nope.py", [], tmp_path, 4096) == []
    assert goal_files_to_read("What is in the file models.py?", [], tmp_path, 4096) == ["models.py"]


def test_a_missing_file_the_goal_names_gets_its_existing_directory_listed(tmp_path):
    from ragix_core.evidence.coverage import missing_goal_files

    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "test_models.py").write_text("def test_item(): pass\n")
    goal = "What does tests/test_api.py test?"
    # measured (5ae6fa5): searched by name, then `find . -name 'tests/test_api.py'`, answer "0"
    empty = _step("")
    empty.tool_call = ToolCall("shell", {"command": "find . -name 'tests/test_api.py'"})
    assert missing_goal_files(goal, [empty], tmp_path) == [("tests/test_api.py", "tests")]
    assert missing_goal_files(goal, [empty], str(tmp_path)) == [("tests/test_api.py", "tests")]  # a str root too
    listed = _step("test_models.py\n")
    listed.tool_call = ToolCall("shell", {"command": "ls tests/"})
    assert missing_goal_files(goal, [listed], tmp_path) == []  # its directory was listed already
    read = _step("def test_item(): pass\n")
    read.tool_call = ToolCall("shell", {"command": "cat tests/test_models.py"})
    assert missing_goal_files(goal, [read], tmp_path) == []  # a file in it was read
    searched = PlanStep(1, "s", ToolCall("shell", {"command": "grep -rn test_api.py ./tests"}))
    searched.result = ToolResult("grep", 1, no_match=True, command="grep -rn test_api.py ./tests")
    searched.status = StepStatus.SUCCESS
    assert missing_goal_files(goal, [searched], tmp_path) == [("tests/test_api.py", "tests")]  # it showed no file
    assert missing_goal_files("What does tests/test_models.py test?", [], tmp_path) == []  # it exists
    assert missing_goal_files("What does setup.py say?", [], tmp_path) == []  # in the root: no directory to list
    assert missing_goal_files("What does lib/x.py do?", [], tmp_path) == []  # its directory is missing too


def test_a_directory_s_entries_are_named_only_when_the_list_is_short(tmp_path):
    from ragix_core.evidence.coverage import directory_entries

    (tmp_path / "tests" / "unit").mkdir(parents=True)
    (tmp_path / "tests" / "test_models.py").write_text("")
    (tmp_path / "tests" / ".hidden").write_text("")
    assert directory_entries(tmp_path, "tests") == ["test_models.py", "unit/"]
    assert directory_entries(tmp_path, "tests", limit=1) == []  # too many to name in a note
    assert directory_entries(tmp_path, "nowhere") == []


def test_a_missing_file_stands_in_by_a_close_name_or_as_the_only_file_of_its_type_in_its_directory(tmp_path):
    from ragix_core.evidence.coverage import goal_stand_ins_to_read, only_sibling

    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "test_models.py").write_text("def test_item():\n    pass\n")
    (tmp_path / "tests" / "conftest.txt").write_text("x\n")
    # measured (missing-test-api, f04ae2c): the replans wrote `touch tests/test_api.py`
    assert only_sibling("tests/test_api.py", tmp_path) == "tests/test_models.py"
    assert goal_stand_ins_to_read("What does tests/test_api.py test?", [], tmp_path, 4096) == [
        ("tests/test_api.py", "tests/test_models.py", "tests/test_models.py is the only .py file in tests/")]
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "storage.py").write_text("def load():\n    pass\n")
    assert goal_stand_ins_to_read("List the functions defined in src/store.py", [], tmp_path, 4096) == [
        ("src/store.py", "src/storage.py", "src/storage.py has the closest name")]
    (tmp_path / "tests" / "helpers.py").write_text("X = 1\n")  # two .py files, none of a close name: no stand-in
    assert only_sibling("tests/test_api.py", tmp_path) is None
    assert goal_stand_ins_to_read("What does tests/test_api.py test?", [], tmp_path, 4096) == []
    assert only_sibling("test_api.py", tmp_path) is None  # the project root is no directory of a file's type
    assert only_sibling("docs/x.md", tmp_path) is None  # no such directory


def test_a_file_called_by_its_name_without_the_extension_is_read_when_it_is_the_only_one(tmp_path):
    from ragix_core.evidence.coverage import goal_files_by_stem, goal_files_to_read
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "cli.py").write_text("def execute(argv):\n    return argv\n")
    (tmp_path / "a.py").write_text("x = 1\n")
    (tmp_path / "docs").mkdir()
    (tmp_path / "a.md").write_text("# a\n")
    assert goal_files_by_stem("Open the cli file and tell me which function it defines.", tmp_path) == ["src/cli.py"]
    assert goal_files_to_read("Open the cli file and tell me which function it defines.", [], tmp_path, 4096) == \
        ["src/cli.py"]
    assert goal_files_by_stem("Show the a file", tmp_path) == []  # a.py and a.md: which one is not clear
    assert goal_files_by_stem("Open the api file", tmp_path) == []  # no such file: the model plans
    assert goal_files_by_stem("Which modules import from the cli module?", tmp_path) == []  # not asked to read it


def test_a_goal_about_the_configuration_reads_the_projects_one_or_two_configuration_files(tmp_path):
    from ragix_core.evidence.coverage import goal_config_files, goal_files_to_read
    (tmp_path / "config").mkdir()
    (tmp_path / "config" / "settings.yaml").write_text("server:\n  port: 8080\n")
    (tmp_path / "app.py").write_text("print(1)\n")
    goal = "Which port does the server use according to the configuration file?"
    assert goal_config_files(goal, tmp_path) == ["config/settings.yaml"]
    assert goal_files_to_read("What log level is this project configured with?", [], tmp_path, 4096) == \
        ["config/settings.yaml"]
    assert goal_config_files("Which modules import the config module?", tmp_path) == []  # not its settings
    assert goal_config_files("What port does config/other.yaml set?", tmp_path) == []  # it names its file
    for name in ("a.toml", "b.ini"):
        (tmp_path / name).write_text("x = 1\n")
    assert goal_config_files(goal, tmp_path) == []  # three: which one is the model's question
