"""A plan's `ls` of what the planner's project listing already shows is not run before the steps that use it."""

from __future__ import annotations

import pytest

from ragix_core.core.types import StepStatus
from ragix_core.reasoning_v30.plans import lists_what_was_shown

LISTING = "./README.md\n./docs/guide.md\n./docs/notes.md\n./inventory.json\n./src/inventory/cli.py\n"


@pytest.mark.parametrize("command", ["ls docs/", "ls docs", "ls ./docs", "ls inventory.json", "ls -1 docs README.md",
                                     "ls", "ls -p src/inventory", "ls -1F docs"])
def test_a_listing_of_listed_files_or_directories_was_shown(command):
    assert lists_what_was_shown(command, LISTING)


@pytest.mark.parametrize("command,listing", [
    ("ls -l docs", LISTING),  # sizes and dates are not in the listing
    ("ls -a docs", LISTING),  # nor are hidden files
    ("ls docs/manual.md", LISTING),  # not there: its failure is evidence
    ("ls docs | wc -l", LISTING),  # a pipeline counts
    ("cat docs/guide.md", LISTING),
    ("ls -R src", LISTING),
    ("ls src/inventory/deep", "./src/inventory/deep/a/b.py\n"),  # deeper than the listing goes
    ("ls docs", "./docs/guide.md\n[... 900 more characters cut]"),  # a cut listing may miss entries
])
def test_other_commands_or_listings_that_may_miss_entries_are_run(command, listing):
    assert not lists_what_was_shown(command, listing)


def test_a_plan_that_lists_a_directory_before_searching_it_runs_the_search_only(tmp_path):
    from tests.reasoning_v30.test_agent_fns import _plan_executed

    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "guide.md").write_text("# Guide\n\nEnd of guide. Maintainer: Ada Lovelace\n")
    # measured (maintainer-name, 789e1a5): `ls docs/` first, and the plan went over its 3-step budget
    f, _, st, nxt = _plan_executed(tmp_path, "Who is named as the maintainer in the documentation?",
                                   ["ls docs/", "grep -rn 'Maintainer' docs"])
    listing, search = st.executed_steps
    assert listing.status == StepStatus.SKIPPED and listing.result is None
    assert "project listing" in listing.tool_call.args["aside"]
    assert search.status == StepStatus.SUCCESS and "Ada Lovelace" in search.result.stdout and nxt == "RESPOND"
    # the same listing as a plan's last step may be the answer: it runs
    _, _, st2, _ = _plan_executed(tmp_path, "What is in docs?", ["ls docs/"])
    assert st2.executed_steps[0].status == StepStatus.SUCCESS and "guide.md" in st2.executed_steps[0].result.stdout
