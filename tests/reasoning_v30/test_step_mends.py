"""A plan step mended in turn on a real project: each mend's run, and what the writer is told.

The maintainer cases were measured on maintainer-name at 7fdd634, where each run spent its one
reflection and failed: the maintainer's line is `Maintainer: Ada Lovelace`, searched for in lowercase.
A write in a run that may only read is skipped, not reflected on (AgentBench OS at 7fdd634).
"""

from __future__ import annotations

from ragix_core.core.types import PlanStep, ReasoningState, StepStatus, ToolCall
from ragix_core.tools import ToolBox
from tests.reasoning_v30.test_agent_fns import fns
from tests.scripted_llm import ScriptedLLM

GOAL = "Who is named as the maintainer in the documentation?"


def _project(tmp_path):
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "guide.md").write_text("# Guide\n\nSome text.\nEnd of guide. Maintainer: Ada Lovelace (ada@example.org).\n")
    (tmp_path / "docs" / "notes.md").write_text("# Notes\n\nNothing here.\n")
    return fns(ScriptedLLM([]), ToolBox(tmp_path, profile="reflect"))


def _step(f, command):
    st = ReasoningState(goal=GOAL, session_id="s")
    return f.execute_step(PlanStep(1, "find the maintainer", ToolCall("shell", {"command": command})), st)


def test_an_invented_file_after_the_pipe_then_the_case_of_the_word_are_both_mended(tmp_path):
    f = _project(tmp_path)
    planned = "grep -rn 'maintainer' docs/*.md | cut -d: -f2 docs/maintainer.md"
    step = _step(f, planned)
    assert step.status == StepStatus.SUCCESS
    # cut on the invented file -> cut reading the pipe (found nothing: lowercase) -> grep -i, whose
    # `cut -d: -f2` kept only the line number, so the search's own line is the evidence
    assert "Maintainer: Ada Lovelace" in step.result.stdout
    assert step.tool_call.args["command"] == "grep -i -rn 'maintainer' docs/*.md"
    aside = step.tool_call.args["aside"]
    assert "docs/maintainer.md does not exist" in aside and "ignoring case" in aside and "without `| cut -d: -f2`" in aside
    assert step.tool_call.args["planned"] == planned


def test_a_field_cut_and_a_deleting_sed_give_back_the_search_line(tmp_path):
    f = _project(tmp_path)
    step = _step(f, "grep -rn 'maintainer' . | awk '{print $3}' | sed 's/\\n$//'")
    assert step.status == StepStatus.SUCCESS
    assert step.result.stdout.strip() == "./docs/guide.md:4:End of guide. Maintainer: Ada Lovelace (ada@example.org)."
    assert "without `| awk '{print $3}' | sed 's/\\n$//'`, which printed: guide." in step.tool_call.args["aside"]


def test_a_mended_command_that_still_finds_nothing_stays_the_empty_search(tmp_path):
    f = _project(tmp_path)
    step = _step(f, "grep -rn 'maintainers' docs/*.md | cut -d: -f2 docs/maintainer.md")
    assert step.status == StepStatus.SUCCESS and not step.result.stdout.strip()
    assert step.tool_call.args["command"] == "grep -i -rn 'maintainers' docs/*.md | cut -d: -f2"


def test_a_write_the_run_may_not_make_is_skipped_not_reflected_on(tmp_path):
    from ragix_core.evidence.steps import SKIPPED_WRITE

    # measured (AgentBench OS at 7fdd634): `mkdir parentDir` refused, replanned as `mkdir --yes parentDir`
    f = fns(ScriptedLLM([]), ToolBox(tmp_path, profile="dev", interactive=False))
    step = _step(f, "mkdir parentDir")
    assert step.status == StepStatus.SKIPPED and step.tool_call.args["aside"] == SKIPPED_WRITE
    assert step.result.refused and "--yes" in step.result.error and f.failed == []
    assert not (tmp_path / "parentDir").exists()
    # any other refusal is still a failure REFLECT sees
    other = _step(f, "cat $HOME/notes.txt")
    assert other.status == StepStatus.FAILED and f.failed == [other]


def test_a_pipeline_whose_shape_misreads_keeps_its_mistake_not_its_bare_search(tmp_path):
    # AgentBench OS test-73 at a6351b3: the sum read `files/f1.txt:5` as 0, printed 0 ("found nothing"), and
    # its grep alone was run instead: a listing of nine numbers from which the writer answered 100.
    (tmp_path / "files").mkdir()
    for name, text in {"f1.txt": "a 5 b -3\n", "f2.txt": "100 and -88\n", "f3.txt": "x -14\n"}.items():
        (tmp_path / "files" / name).write_text(text)
    f = fns(ScriptedLLM([]), ToolBox(tmp_path, profile="reflect"))
    st = ReasoningState(goal="Find the total sum of all the integers in the files of the folder 'files'.",
                        session_id="s")
    command = "grep -E -o '[+-]?[0-9]+' files/f1.txt files/f2.txt files/f3.txt | awk '{sum += $1} END {print sum}'"
    step = f.execute_step(PlanStep(1, "sum", ToolCall("shell", {"command": command})), st)
    assert step.tool_call.args["command"] == command and step.result.stdout.strip() == "0"
    assert "grep -h" in step.result.mistake  # what the retry is told
    # the same search read without file names is no mistake, and its sum is the answer
    right = command.replace("grep -E -o", "grep -h -E -o")
    ok = f.execute_step(PlanStep(2, "sum", ToolCall("shell", {"command": right})), st)
    assert ok.result.stdout.strip() == "0" and ok.result.mistake is None


def test_a_size_in_blocks_for_a_goal_in_bytes_is_a_mistake_said_to_the_retry(tmp_path):
    (tmp_path / "d").mkdir()
    (tmp_path / "d" / "a.txt").write_text("x" * 100)
    f = fns(ScriptedLLM([]), ToolBox(tmp_path, profile="reflect"))
    st = ReasoningState(goal="What is the total size of the .txt files in d? The answer should be in bytes.",
                        session_id="s")
    blocks = f.execute_step(PlanStep(1, "size", ToolCall("shell", {"command": "du -sh d"})), st)
    assert blocks.status == StepStatus.SUCCESS and "du -b" in blocks.result.mistake
    exact = f.execute_step(PlanStep(2, "size", ToolCall("shell", {"command": "wc -c d/a.txt"})), st)
    assert exact.result.stdout.split()[0] == "100" and exact.result.mistake is None
