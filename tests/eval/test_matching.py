import pytest

from pathlib import Path

from ragix_core.core.events import Event, EventKind
from ragix_core.eval.matching import (command_tool_names, executed_calls, executed_commands, find_patterns,
                                      match_commands)
from tests.eval.fakes import tool_event

MOCK_REPO = Path(__file__).resolve().parents[1] / "reasoning_v30" / "fixtures" / "mock_repo"


def call(**data):
    return Event(EventKind.TOOL_CALL, "s", {"tool": "shell", "refused": False, **data})


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


def test_regex_patterns():
    assert find_patterns("save(w, p) and load(p)", [r"re:\bload\b", r"re:\bsave\b"])[1] == []
    assert find_patterns("nothing was loaded or saved", [r"re:\bload\b", r"re:\bsave\b"])[0] == []
    assert find_patterns("class ITEM", [r"re:\bitem\b"])[0] == [r"re:\bitem\b"]  # case-insensitive
    assert find_patterns("each item", [r"re:\b(?-i:Item)\b"])[0] == []  # unless the pattern says so
    assert find_patterns("re:x", ["re:y"]) == ([], ["re:y"])  # the prefix is not text to find


def test_numbers_and_text_in_one_scenario():
    # the count-python-files wrong answer of a real run would pass on a substring "8"
    found, missing = find_patterns("Found 18 .py files, config port 8080", ["8", ".py", "port"])
    assert found == [".py", "port"] and missing == ["8"]


def test_pipeline_and_xargs_targets():
    names = command_tool_names("find . -name '*.md' | xargs -n 1 wc -l | sort -n | tail -1")
    assert names == {"find", "xargs", "wc", "sort", "tail"}


def test_wrappers_env_and_paths():
    assert command_tool_names("LANG=C /usr/bin/grep -r x .") == {"grep"}
    assert command_tool_names("timeout 5 head a | nice -n 5 wc -l") == {"timeout", "head", "nice", "wc"}
    # find -exec is refused by ragix's own checks, but an argv from an unvalidated run may hold it
    argv = ["find", ".", "-type", "f", "-exec", "wc", "-l", "{}", "+"]
    assert executed_calls([call(argv=argv)])[0].programs == {"find", "wc"}


def test_quoted_pipe_is_not_a_stage():
    assert command_tool_names("grep 'a|wc' file") == {"grep"}


def test_a_line_ragix_would_refuse_names_no_program():
    # Without an argv, a command line counts as the processes ragix would have started for it;
    # ragix's lexer refuses chaining and unbalanced quotes, so such a line started nothing.
    assert command_tool_names("grep \"oops | wc") == set()
    assert command_tool_names("grep -r x . && wc -l a.py; ls") == set()


def test_refused_calls_do_not_count():
    events = [tool_event("grep -r execute ."), tool_event("wc -l a.py", refused=True)]
    assert executed_commands(events) == ["grep -r execute ."]
    ran, missing = match_commands(["grep", "wc"], executed_commands(events))
    assert ran == ["grep"] and missing == ["wc"]


def test_argv_stages_used_when_command_missing():
    ev = Event(EventKind.TOOL_CALL, "s", {"tool": "shell", "argv": [["find", "."], ["wc", "-l"]], "refused": False})
    assert executed_commands([ev]) == ["find . | wc -l"]


def test_multiword_requirement_needs_the_text():
    ran, missing = match_commands(["wc -l", "grep -c"], ["wc -l a.py", "grep -n x b.py"])
    assert ran == ["wc -l"] and missing == ["grep -c"]


def test_substring_of_a_program_is_not_a_match():
    # "wc" must not match because "wcx" ran, nor "find" because a filename contains it.
    ran, missing = match_commands(["wc", "find"], ["wcx a", "cat find.txt"])
    assert ran == [] and missing == ["wc", "find"]


def test_the_argv_decides_which_program_ran_not_the_command_text():
    # The tool box publishes one event per process; its text may describe the whole line.
    events = [call(command="grep -rn x . | wc -l", argv=["/usr/bin/grep", "-rn", "x", "."])]
    assert executed_calls(events)[0].programs == {"grep"}
    ran, missing = match_commands(["grep", "wc"], executed_calls(events))
    assert ran == ["grep"] and missing == ["wc"]


def test_an_empty_argv_started_nothing():
    # An internal error is published with the caller's command text, argv [] and refused False.
    events = [call(command="wc -l a.py", argv=[], returncode=1, reason="internal error: boom")]
    assert executed_commands(events) == ["wc -l a.py"]  # still shown in the report
    assert match_commands(["wc"], executed_calls(events)) == ([], ["wc"])


def test_an_event_without_argv_counts_what_ragix_would_run():
    events = [call(command="find . -name '*.md' | xargs wc -l"), call(command="grep x . && cat a.py")]
    calls = executed_calls(events)
    assert calls[0].programs == {"find", "xargs", "wc"} and calls[1].programs == set()
    assert match_commands(["wc", "cat"], calls) == (["wc"], ["cat"])


def test_wrapped_program_counts_with_its_own_arguments():
    calls = executed_calls([call(argv=["/usr/bin/timeout", "5", "/usr/bin/wc", "-l", "a.py"])])
    assert calls[0].programs == {"timeout", "wc"}
    assert match_commands(["wc -l", "timeout -l"], calls) == (["wc -l"], ["timeout -l"])


def test_multiword_requirement_is_words_of_one_process_in_any_order():
    calls = executed_calls([call(argv=["wc", "a.py", "-l"]), call(argv=["grep", "-cn", "x", "b.py"]),
                            call(argv=["ls", "-c"])])
    ran, missing = match_commands(["wc -l", "grep -c", "grep x", "ls -c"], calls)
    assert ran == ["wc -l", "grep x", "ls -c"] and missing == ["grep -c"]  # -cn is not the word -c


def test_events_of_the_real_tool_box(tmp_path):
    import shutil

    from ragix_core.core.events import EventBus
    from ragix_core.tools.toolbox import ToolBox

    work = tmp_path / "repo"
    shutil.copytree(MOCK_REPO, work)
    bus, events = EventBus(), []
    bus.subscribe(events.append)
    box = ToolBox(work, events=bus, session_id="s")
    assert box.run_command("find . -name '*.md' | xargs wc -l | sort -n").returncode == 0
    assert box.run_command("grep -r TODO . && wc -l a.py").refused
    calls = executed_calls(events)
    # ragix runs xargs itself: the processes are find, wc (on the found files) and sort
    assert [sorted(c.programs) for c in calls] == [["find"], ["wc"], ["sort"]]
    ran, missing = match_commands(["find", "wc -l", "sort -n", "xargs", "grep"], calls)
    assert ran == ["find", "wc -l", "sort -n"] and missing == ["xargs", "grep"]
