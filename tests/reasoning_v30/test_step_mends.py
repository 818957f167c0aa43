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
