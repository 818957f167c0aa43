"""The feedback a retry is shown (evidence/feedback.py), from real files; results as the tool box reports them."""

from __future__ import annotations

from ragix_core.core.types import PlanStep, StepStatus, ToolCall, ToolResult
from ragix_core.evidence.feedback import execution_feedback, nearest_listing


def step(command, result, status):
    return PlanStep(1, "d", ToolCall("shell", {"command": command}), status, result)


def test_a_failure_shows_exit_code_stderr_and_the_nearest_directory(tmp_path):
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "a.md").write_text("x\n")
    (tmp_path / "docs" / "sub").mkdir()
    r = ToolResult("shell", 1, stderr="/usr/bin/wc: docs/sub/b.md: No such file or directory\n",
                   command="/usr/bin/wc -l docs/sub/b.md")
    text = execution_feedback(step("wc -l docs/sub/b.md", r, StepStatus.FAILED), tmp_path)
    assert text.startswith("The command `wc -l docs/sub/b.md` failed (exit code 1).")  # as the model wrote it
    assert "No such file or directory" in text
    assert text.endswith("The nearest existing directory holds: ./docs/sub: (empty)")


def test_a_refusal_and_an_empty_output_say_so(tmp_path):
    refused = ToolResult("shell", 126, refused=True, error="refused: ';' chains commands")
    assert "was refused by ragix: refused: ';' chains commands" in execution_feedback(
        step("ls; ls", refused, StepStatus.FAILED), tmp_path)
    (tmp_path / "src").mkdir()
    empty = ToolResult("grep", 1, no_match=True)
    text = execution_feedback(step("grep -rn main src", empty, StepStatus.SUCCESS), tmp_path)
    assert text.startswith("The command `grep -rn main src` ran and printed nothing.")
    assert "./src: (empty)" in text
    zero = ToolResult("shell", 0, stdout="0\n")
    assert "only printed `0`, which shows nothing found" in execution_feedback(
        step("grep -rl main . | wc -l", zero, StepStatus.SUCCESS), tmp_path)


def test_the_listing_is_bounded_and_never_leaves_the_project(tmp_path):
    for i in range(45):
        (tmp_path / f"f{i:02d}.txt").write_text("")
    listing = nearest_listing(["missing/deeper/x.txt"], tmp_path)
    assert listing.startswith(".: f00.txt, f01.txt") and listing.endswith("... (15 more)")
    assert nearest_listing(["/etc/passwd", "../../x"], tmp_path / "f00.txt") is None


def test_a_write_that_printed_nothing_is_no_empty_result():
    from ragix_core.evidence.steps import found_nothing

    done = step("mkdir out", ToolResult("shell", 0, writes=True, changed=True), StepStatus.SUCCESS)
    listed = step("ls out", ToolResult("shell", 0), StepStatus.SUCCESS)
    idle = step("mkdir -p out", ToolResult("shell", 0, writes=True, changed=False), StepStatus.SUCCESS)
    assert not found_nothing(done) and found_nothing(listed) and found_nothing(idle)


def test_a_command_that_names_no_project_path_is_shown_the_top_directory(tmp_path):
    (tmp_path / "TA_problem").mkdir()
    (tmp_path / "notes.txt").write_text("x\n")
    refused = ToolResult("shell", 126, refused=True, error="refused: variable expansion '$' is not allowed")
    text = execution_feedback(step("tree -d $TARGET_DIR | wc -l", refused, StepStatus.FAILED), tmp_path)
    assert text.endswith("The nearest existing directory holds: .: TA_problem/, notes.txt")


def test_the_evidence_shows_the_command_as_written_not_as_confined(tmp_path):
    # Measured at ca20be7: shown `find . -name .ragix -prune -o ...`, the writer named `.ragix` in an answer.
    from ragix_core.evidence.steps import evidence_block, run_command_step
    from ragix_core.tools import ToolBox

    (tmp_path / "a.md").write_text("x\n")
    (tmp_path / ".ragix").mkdir()  # a run's own state: confinement hides it from the find
    s = PlanStep(1, "d", ToolCall("shell", {"command": "find . -name '*.md' | wc -l"}))
    run_command_step(ToolBox(tmp_path, profile="reflect"), s, tmp_path)
    assert ".ragix" in s.result.command and "/usr/bin/find" in s.result.command  # the run form, for the trace
    shown = evidence_block([s])
    assert shown.startswith("$ find . -name '*.md' | wc -l   [ok]") and ".ragix" not in shown and "/usr/bin" not in shown


def test_a_write_whose_result_exists_tells_the_retry_to_do_what_is_left(tmp_path):
    # AgentBench OS test-52 and -113 at 529b167: the set-up had made the directory, and every draw was a mkdir
    (tmp_path / "logs").mkdir()
    idle = step("mkdir -p logs", ToolResult("shell", 0, writes=True, changed=False), StepStatus.SUCCESS)
    exists = step("mkdir logs", ToolResult("shell", 1, writes=True, stderr="mkdir: cannot create directory 'logs': "
                                                                           "File exists\n"), StepStatus.FAILED)
    other = step("mkdir logs/a/b", ToolResult("shell", 1, writes=True, stderr="mkdir: cannot create directory "
                                                                              "'logs/a/b': No such file or directory\n"),
                 StepStatus.FAILED)
    read = step("cat notes", ToolResult("shell", 1, stderr="cat: notes: File exists\n"), StepStatus.FAILED)
    said = [execution_feedback(s, tmp_path) for s in (idle, exists, other, read)]
    assert ["already done: write the command for the part that is left" in text for text in said] == [
        True, True, False, False]


def test_a_search_that_found_nothing_is_shown_the_directory_it_searched_not_one_read_from_its_pattern(tmp_path):
    (tmp_path / "benchmarks").mkdir()
    (tmp_path / "benchmarks" / "bench_group.py").write_text("x\n")
    (tmp_path / "README.md").write_text("x\n")
    empty = ToolResult("grep", 1, no_match=True)
    for command in ("grep -rl 'bench_something.py' benchmarks/", "grep -rl bench_something.py benchmarks | wc -l",
                    "awk '/x.y/ {print}' benchmarks/bench_group.py", "sed -n '/a.b/p' benchmarks/bench_group.py"):
        text = execution_feedback(step(command, empty, StepStatus.SUCCESS), tmp_path)
        assert text.endswith("The nearest existing directory holds: ./benchmarks: bench_group.py"), command
    # a pattern given by an option is skipped with it, and every operand is then a path
    for command in ("grep -r -e bench_something.py benchmarks", "grep -rl --regexp=x.y benchmarks"):
        text = execution_feedback(step(command, empty, StepStatus.SUCCESS), tmp_path)
        assert text.endswith("holds: ./benchmarks: bench_group.py"), command
