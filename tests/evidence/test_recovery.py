"""What REFLECT is shown (evidence/recovery.py), gathered with the real read-only tool box."""

import shutil
from pathlib import Path

import pytest

from ragix_core.core.types import ToolResult
from ragix_core.evidence.recovery import gather, searched_words
from ragix_core.tools import ToolBox

MOCK = Path(__file__).resolve().parents[1] / "reasoning_v30" / "fixtures" / "mock_repo"


@pytest.fixture()
def repo(tmp_path):
    root = tmp_path / "repo"
    shutil.copytree(MOCK, root, ignore=shutil.ignore_patterns(".ragix"))
    return root


def test_searched_words_are_the_grep_patterns_words_most_specific_first():
    assert searched_words(["/usr/bin/grep --exclude-dir=.ragix -r 'quantity: 0' ."]) == ["quantity"]
    assert searched_words(["grep -rl 'from storage' . | wc -l"]) == ["storage"]  # 'from' says nothing
    assert searched_words(["grep -rn -e 'import billing' -e billing_api -A 2 src"]) == ["billing_api", "billing"]
    assert searched_words(["find . -name '*.md'", "wc -l a.py"]) == []  # no search pattern: nothing to loosen
    assert searched_words(["grep 'unterminated"]) == []  # a command shlex cannot split is skipped


def test_empty_searches_are_loosened_word_by_word_with_the_lines_found(repo):
    box = ToolBox(repo, profile="reflect", sandbox="none")
    ev = gather("Which modules import from the storage module?", None, repo, box.run_command,
                empty_commands=["grep -rl 'from storage' .", "grep -rn 'quantity: 0' ."])
    assert "loosened_search" in ev.used and "exit_code" not in ev.used
    assert "from .storage import" in ev.text  # the spelling the empty search missed
    assert '"quantity": 0' in ev.text
    assert ev.found_by == ["grep -rniF -e 'quantity' .", "grep -rniF -e 'storage' ."]  # the replan runs them


def test_a_word_is_loosened_in_any_case(repo):
    # measured (maintainer-name): `grep -rn maintainer .` found nothing where the guide says "Maintainer:"
    box = ToolBox(repo, profile="reflect", sandbox="none")
    ev = gather("Who is named as the maintainer in the documentation?", None, repo, box.run_command,
                empty_commands=["grep -rn maintainer ."])
    assert "Maintainer: Ada Lovelace" in ev.text


def test_a_failed_command_without_empty_searches_gets_exit_code_and_stderr(repo):
    failed = ToolResult("cat", 1, stderr="cat: docs/manual.md: No such file or directory", command="cat docs/manual.md")
    ev = gather("How many lines does docs/manual.md have?", failed, repo, None)
    assert ev.used[:2] == ["exit_code", "stderr"] and "nearest_directory" in ev.used
    assert "guide.md" in ev.text and "loosened_search" not in ev.used
