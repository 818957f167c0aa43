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
    assert searched_words(["grep -Fxvf wanted.txt found.txt", "grep --file=w.txt x"]) == []  # patterns in a file
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
    # the replan runs them: a pattern of several words keeps them in order (measured, c8031d9: 'storage'
    # alone also found docstrings, and the writer listed storage.py and __init__.py as importers)
    assert ev.found_by == ["grep -rniE -e 'from.*storage' .", "grep -rniE -e 'quantity.*0' ."]
    assert "__init__.py" not in "".join(ev.found_by)


def test_a_single_word_pattern_is_loosened_alone_for_the_replan(repo):
    box = ToolBox(repo, profile="reflect", sandbox="none")
    ev = gather("Which modules import from the storage module?", None, repo, box.run_command,
                empty_commands=["grep -rl 'storages' ."])
    assert ev.found_by == []  # 'storages' is in no file: nothing to run again
    ev = gather("Who is the maintainer?", None, repo, box.run_command, empty_commands=["grep -rn 'maintainer:' ."])
    assert ev.found_by == ["grep -rniF -e 'maintainer' ."]


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


def test_after_the_searched_words_the_goals_own_keywords_are_loosened_too(repo):
    # measured (trap-server-port): the model grepped for server.py; the port is on `port: 8080`
    box = ToolBox(repo, profile="reflect", sandbox="none")
    ev = gather("What port does this project's server listen on?", None, repo, box.run_command,
                empty_commands=["grep -rn server.py ."])
    shown = [ev.text.find(w) for w in ("'server':", "'listen':", "'port':")]  # its word, then the goal's
    assert -1 not in shown and shown == sorted(shown)
    assert "port: 8080" in ev.text  # shown to REFLECT's planner
    imports = gather("Which modules import from the storage module?", None, repo, box.run_command,
                     empty_commands=["grep -rl 'from storage' ."])
    assert "'storage':" in imports.text and "'module':" not in imports.text  # words on most lines of any code base are not searched
    assert ev.found_by == ["grep -rniF -e 'server' ."]  # only the plan's own word is run again for the writer


def test_a_loosened_word_on_too_many_lines_is_shown_to_reflect_but_not_run_again(tmp_path):
    (tmp_path / "a.py").write_text("".join(f"x{i} = 'value'\n" for i in range(40)))
    box = ToolBox(tmp_path, profile="reflect", sandbox="none")
    ev = gather("Where is the value set?", None, tmp_path, box.run_command, empty_commands=["grep -rn 'value: 1' ."])
    assert "x0 = 'value'" in ev.text and ev.found_by == []
