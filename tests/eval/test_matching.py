import pytest

from ragix_core.eval.matching import command_tool_names, executed_commands, find_patterns, match_commands
from tests.eval.fakes import tool_event


def test_patterns_case_insensitive():
    found, missing = find_patterns("The LARGEST file is docs/guide.md with 120 Lines", ["largest", ".md", "lines", "bytes"])
    assert found == ["largest", ".md", "lines"]
    assert missing == ["bytes"]


def test_patterns_on_empty_answer():
    assert find_patterns(None, ["x"]) == ([], ["x"])


@pytest.mark.parametrize("pattern, answer", [
    ("8", "The server listens on port 8080."),
    ("8", "Node uses the v8 engine"),
    ("8", "guide.md is 1.8 KB"),
    ("8", "the 8th file"),
    ("120", "1208 lines"),
    ("120", "see line 1120"),
    ("3.5", "13.5 or 3.55"),
    ("3", "version 0.3.0"),
    ("24", "1,024 files"),
    ("7", "difference: -7"),
    ("0.3.0", "version 10.3.0 or 0.3.01"),
])
def test_a_number_is_not_found_inside_another(pattern, answer):
    assert find_patterns(answer, [pattern]) == ([], [pattern])


@pytest.mark.parametrize("pattern, answer", [
    ("8", "There are 8 Python files."),
    ("8", "count: 8"),
    ("8", "sizes 3,8,12"),  # a comma not followed by three digits separates numbers
    ("120", "docs/guide.md:120"),
    ("120", "(120 lines)"),
    ("120", "120.0 lines"),  # the same value
    ("3.5", "about 3.5 times"),
    ("1024", "1,024 bytes"),  # thousands separators in groups of three
    ("1,024", "1024 bytes"),
    ("7", "lines 1-7"),
    ("-7", "a difference of -7"),
    ("0.3.0", "The version is 0.3.0."),
])
def test_a_number_is_found_as_a_whole_number(pattern, answer):
    assert find_patterns(answer, [pattern]) == ([pattern], [])


def test_numbers_and_text_in_one_scenario():
    # the count-python-files wrong answer of a real run would pass on a substring "8"
    found, missing = find_patterns("Found 18 .py files, config port 8080", ["8", ".py", "port"])
    assert found == [".py", "port"] and missing == ["8"]


def test_pipeline_and_xargs_targets():
    names = command_tool_names("find . -name '*.md' | xargs -n 1 wc -l | sort -n | tail -1")
    assert names == {"find", "xargs", "wc", "sort", "tail"}


def test_chains_wrappers_env_and_paths():
    assert command_tool_names("LANG=C /usr/bin/grep -r x . && timeout 5 head a; ls") == {"grep", "timeout", "head", "ls"}
    assert command_tool_names("find . -type f -exec wc -l {} +") == {"find", "wc"}


def test_quoted_pipe_is_not_a_stage():
    assert command_tool_names("grep 'a|wc' file") == {"grep"}


def test_unbalanced_quotes_do_not_raise():
    assert "grep" in command_tool_names("grep \"oops | wc")


def test_refused_calls_do_not_count():
    events = [tool_event("grep -r execute ."), tool_event("wc -l a.py", refused=True)]
    assert executed_commands(events) == ["grep -r execute ."]
    ran, missing = match_commands(["grep", "wc"], executed_commands(events))
    assert ran == ["grep"] and missing == ["wc"]


def test_argv_stages_used_when_command_missing():
    from ragix_core.core.events import Event, EventKind

    ev = Event(EventKind.TOOL_CALL, "s", {"tool": "shell", "argv": [["find", "."], ["wc", "-l"]], "refused": False})
    assert executed_commands([ev]) == ["find . | wc -l"]


def test_multiword_requirement_needs_the_text():
    ran, missing = match_commands(["wc -l", "grep -c"], ["wc -l a.py", "grep -n x b.py"])
    assert ran == ["wc -l"] and missing == ["grep -c"]


def test_substring_of_a_program_is_not_a_match():
    # "wc" must not match because "wcx" ran, nor "find" because a filename contains it.
    ran, missing = match_commands(["wc", "find"], ["wcx a", "cat find.txt"])
    assert ran == [] and missing == ["wc", "find"]
