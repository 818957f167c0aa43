"""An answer quoted from the outputs (evidence/support.py)."""

from __future__ import annotations

from ragix_core.core.types import PlanStep, StepStatus, ToolCall, ToolResult
from ragix_core.evidence.support import quoted_from_outputs, specific_words


def _step(stdout: str, status: StepStatus = StepStatus.SUCCESS) -> PlanStep:
    step = PlanStep(1, "s", ToolCall("shell", {"command": "grep -rn x ."}))
    step.result = ToolResult("grep", 0, stdout=stdout, command="grep -rn x .")
    step.status = status
    return step


GUIDE = [_step("./docs/guide.md:120:End of guide. Maintainer: Ada Lovelace (ada@example.org).\n")]
COUNTS = [_step("19 README.md\n12 CHANGELOG.md\n31 total\n")]


def test_the_specific_words_are_names_paths_identifiers_and_numbers():
    assert specific_words("Ada Lovelace") == ["Ada", "Lovelace"]
    assert specific_words("The class declared as a dataclass is `a.py`.") == ["a.py"]
    assert specific_words("handle_get calls load in src/storage.py, then Store.save") == [
        "handle_get", "src/storage.py", "Store.save"]
    assert specific_words("The item with quantity 0 is B7.") == ["0", "B7"]


def test_an_answer_whose_words_are_all_in_the_outputs_is_quoted():
    # measured (maintainer-name): the verifier failed this answer and the run reflected twice more
    assert quoted_from_outputs("Who is the maintainer?", "Ada Lovelace", GUIDE)
    assert quoted_from_outputs("Which is longer?", "README.md is longer than CHANGELOG.md by 7 lines.", COUNTS)


def test_a_word_or_number_the_outputs_lack_or_an_absence_is_not_quoted():
    assert not quoted_from_outputs("Who is the maintainer?", "Grace Hopper", GUIDE)
    assert not quoted_from_outputs("Which is longer?", "README.md is longer by 9 lines.", COUNTS)  # 9: no difference
    assert not quoted_from_outputs("Which items have quantity 0?", "There are no items with quantity 0.",
                                   [_step('{"B7": {"quantity": 0}}')])  # only a number: an absence is not a quote
    assert not quoted_from_outputs("Who?", "Ada Lovelace", [_step(GUIDE[0].result.stdout, StepStatus.FAILED)])
    assert not quoted_from_outputs("Who?", "Ada Lovelace", [])


def test_a_number_on_a_line_with_the_goals_keyword_is_quoted():
    # measured (config-port at 5ae6fa5): the verifier failed "8080" standing on `port: 8080`
    config = [_step("port: 8080\nworkers: 4\n")]
    goal = "Which port does the server use according to the configuration file?"
    assert quoted_from_outputs(goal, "The server uses port 8080.", config)
    assert not quoted_from_outputs(goal, "The server uses port 4.", config)  # 4 is on no 'port' line
    assert not quoted_from_outputs(goal, "The server uses port 80.", config)  # part of 8080 is no quote
    assert not quoted_from_outputs("What is in the config?", "8080", config)  # no goal keyword on its line
    assert not quoted_from_outputs("Which items have quantity 0?", "Items with quantity 0: none.",
                                   [_step('"quantity": 0\n')])  # the goal's own number
