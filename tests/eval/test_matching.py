from ragix_core.eval.matching import command_tool_names, executed_commands, find_patterns, match_commands
from tests.eval.fakes import tool_event


def test_patterns_case_insensitive():
    found, missing = find_patterns("The LARGEST file is docs/guide.md with 120 Lines", ["largest", ".md", "lines", "bytes"])
    assert found == ["largest", ".md", "lines"]
    assert missing == ["bytes"]


def test_patterns_on_empty_answer():
    assert find_patterns(None, ["x"]) == ([], ["x"])


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
