"""A pipeline whose shape cannot compute what it was written for (evidence/pipe_mistakes.py)."""

from pathlib import Path

import pytest

from ragix_core.core.types import PlanStep, StepStatus, ToolCall, ToolResult
from ragix_core.evidence.feedback import execution_feedback
from ragix_core.evidence.pipe_mistakes import pipe_mistake


@pytest.mark.parametrize("command", [
    "find . -name '*.py' | wc -l | sort -nr | head -n 1",  # measured: "which .py file is the longest?" got "42"
    "find sqlparse -type f | wc -l | sort -n",
    "ls src | wc -l | uniq -c",
    "grep -rl TODO . | wc -l | sort | tail -n 1",
])
def test_a_count_of_the_pipe_then_ordered_is_a_mistake(command):
    why = pipe_mistake(command)
    assert why and "one number" in why and "xargs" in why


@pytest.mark.parametrize("command", [
    "find . -name '*.py' | wc -l",  # a count of files: right for "how many"
    "find . -name '*.py' | xargs wc -l | sort -nr | head -n 2",  # wc is given the files
    "find . -name '*.py' -print0 | xargs -0 wc -l | sort -n",
    "wc -l src/a.py src/b.py | sort -n",  # wc reads the files
    "sort data.txt | uniq | wc -l",  # the count comes last
    "cat a.txt | wc -l | awk '{print $1 * 2}'",  # arithmetic on one number is fine
    "find . -name 'x' | wc | sort",  # plain wc prints three numbers: not this shape
    "grep -c 'a' 'unclosed",  # does not parse: nothing to say
    "cat a.py | wc -l | head -1",  # a right count; head on one line is harmless
    "find . -name '*.py' | xargs cat | wc -l | tail -n 1",
    "ls src | wc -l | head -1",
])
def test_other_shapes_are_not(command):
    assert pipe_mistake(command) is None


def test_the_feedback_of_such_a_command_says_what_went_wrong(tmp_path: Path):
    command = "find . -name '*.py' | wc -l | sort -nr | head -n 1"
    step = PlanStep(num=1, description=command, tool_call=ToolCall("shell", {"command": command}),
                    status=StepStatus.SUCCESS, result=ToolResult("shell", 0, stdout="42\n"))
    text = execution_feedback(step, tmp_path)
    assert text.startswith(f"The command `{command}` printed `42`, but `wc -l` read the lines piped into it")
    assert "the `sort` after it had a single line" in text


@pytest.mark.parametrize("command", [
    "find pkg/lexer.py -type f | wc -l",  # measured shape: "how many lines?" answered 1
    "ls pkg/lexer.py | wc -l",
    "grep -l import pkg/lexer.py | wc -l",
])
def test_a_listing_of_one_file_counted_is_a_mistake_once_the_operand_is_known_to_be_a_file(tmp_path, command):
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "lexer.py").write_text("import re\n")
    why = pipe_mistake(command, tmp_path)
    assert why and "`pkg/lexer.py`, which is a file" in why and "counted the paths" in why
    assert pipe_mistake(command) is None  # without the files the shape alone says nothing


@pytest.mark.parametrize("command", [
    "find pkg -type f | wc -l",  # a directory: a real count of files
    "ls pkg | wc -l",
    "grep -rl import pkg | wc -l",
    "ls -d pkg/lexer.py | wc -l",
    "find pkg/lexer.py -type f",  # not counted
    "grep -l import pkg/lexer.py pkg/lexer.py | wc -l",  # several files: how many of them match
    "wc -l pkg/lexer.py",
])
def test_listings_of_directories_or_uncounted_are_not(tmp_path, command):
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "lexer.py").write_text("import re\n")
    assert pipe_mistake(command, tmp_path) is None


@pytest.mark.parametrize("command", [
    "grep -o '[0-9]+' f1.txt f2.txt f3.txt | awk '{sum += $1} END {print sum}'",
    "grep -H -o '[0-9]+' f1.txt | awk '{sum += $1} END {print sum}'",
    "grep -rc error logs | sort -nr | head -n 1",
    "grep -c error *.log | awk '{total += $1} END {print total}'",  # the glob matches two files
])
def test_a_grep_that_prints_file_names_read_as_numbers_is_a_mistake(tmp_path, command):
    (tmp_path / "a.log").write_text("error\n")
    (tmp_path / "b.log").write_text("ok\n")
    why = pipe_mistake(command, tmp_path)
    assert why and "starts with the file's name" in why and "grep -h" in why


@pytest.mark.parametrize("command", [
    "grep -h -o '[0-9]+' f1.txt f2.txt | awk '{sum += $1} END {print sum}'",  # -h: the matches alone
    "grep -c error f1.txt f2.txt | awk -F: '{sum += $2} END {print sum}'",  # the name split off
    "grep -o '[0-9]+' f1.txt | awk '{sum += $1} END {print sum}'",  # one file: no names
    "grep -rn Linux . | sort -nr",  # only ordered, all shown
    "grep -c error f1.txt f2.txt | sort -t: -k2 -n | tail -1",  # sorted on the count's field
    "grep -l error f1.txt f2.txt | sort -n | head -1",  # names only
    "grep -c error *.log | awk '{total += $1} END {print total}'",  # the glob matches one file here
])
def test_a_grep_whose_names_are_split_off_or_absent_is_no_mistake(tmp_path, command):
    (tmp_path / "a.log").write_text("error\n")
    assert pipe_mistake(command, tmp_path) is None


@pytest.mark.parametrize("command", [
    # measured (AgentBench OS, cc27a82): two pipes of this ending printed 1 and "confirmed" each other
    "find . -name '*.txt' -print0 | xargs -0 wc -c | awk '{sum += $1} END {print sum}' | wc -l",
    "cat a.txt b.txt | awk 'BEGIN {n = 0} {n += NF} END {print n}' | wc -l",
    "grep -o x a.txt | wc -l | wc -l",
])
def test_a_count_of_a_stage_that_prints_one_line_is_a_mistake(command):
    why = pipe_mistake(command)
    assert why and "prints 1 whatever" in why


@pytest.mark.parametrize("command", [
    "find . -name '*.txt' -print0 | xargs -0 wc -c | awk '{sum += $1} END {print sum}'",  # the total itself
    "awk '{print $1} END {print \"done\"}' a.txt | wc -l",  # prints a line per input line too
    "awk '$3 > 10' data.txt | wc -l",  # a filter: one line per match
    "awk '{ if ($1 > 0) print }' a.txt | wc -l",
])
def test_counts_of_stages_that_print_several_lines_are_not(command):
    assert pipe_mistake(command) is None


@pytest.mark.parametrize("command", [
    "grep -rn get . | grep -rl storage",
    "grep -rn get . | grep --exclude-dir=.ragix -R api",
    "cat cli.py | grep get cli.py",
    "find . -name '*.py' | grep -n def a.py b.py",
])
def test_a_grep_after_a_pipe_given_r_or_files_is_a_mistake(command):
    why = pipe_mistake(command)
    assert why and "never read the lines piped into it" in why, command


@pytest.mark.parametrize("command", [
    "grep -rn get . | grep -v test",
    "grep -rl get . | grep -c py",
    "cat words.txt | grep -f - cli.py",  # the patterns come from the pipe
    "cat a.txt | grep foo -",  # `-` is the pipe
    "grep -r get src",
])
def test_a_grep_that_reads_the_pipe_or_comes_first_is_not(command):
    assert pipe_mistake(command) is None, command


@pytest.mark.parametrize("command", ["gzip -c ./hello.php", "cat a.txt | gzip -c", "gzip --stdout -9 a.txt"])
def test_a_gzip_whose_compressed_bytes_are_the_output_is_a_mistake(command):
    # NL2Bash fs_1-42 at a6351b3: "gzip the file keeping the original" ran `gzip -c ./hello.php`; no file was made
    said = pipe_mistake(command)
    assert said is not None and "gzip -k FILE" in said


@pytest.mark.parametrize("command", ["gzip -c hello.php > hello.php.gz", "gzip --stdout a >> b.gz", "gzip -k a.txt",
                                     "gzip -dc a.gz | wc -l", "gzip -cd a.gz", "gzip -l a.gz", "gzip a.txt"])
def test_a_gzip_that_writes_a_file_decompresses_or_lists_is_not(command):
    assert pipe_mistake(command) is None


@pytest.mark.parametrize("command, dots", [
    # AgentBench OS test-68 at 529b167, both seeds: 4 for 2 hidden directories (the executor's own prune kept)
    ("find . -name .ragix -prune -o '(' -type d -name '.*' ')' -print | sort | uniq | wc -l", "`.`"),
    ("find . -maxdepth 1 -name '.*' -type d | wc -l", "`.`"),
    ("find ./ -iname '.*' | wc -l", "`./`"),
    ("ls -a | grep '^\\.' | wc -l", "`.` and `..`"),
    ("ls -la | grep -c '^d'", "`.` and `..`"),
    ("ls -a dir | wc -l", "`.` and `..`"),
    # NL2Bash fs_5-0 at 4018844: `ls -l | wc -l` for a count of entries, one more than there are
    ("ls -l | wc -l", "the `total` line"),
    ("ls -l dir/ | grep -v '^d' | wc -l", "the `total` line"),
    ("ls -la | wc -l", "the `total` line and `.` and `..`"),
])
def test_a_count_of_a_listing_that_lists_the_directory_itself_is_a_mistake(command, dots):
    said = pipe_mistake(command)
    assert said is not None and f"the count includes {dots}" in said
    assert ("-mindepth 1" in said) == command.startswith("find")
    assert ("ls -A" in said) == ("`.`" in dots and command.startswith("ls")) and ("ls -1" in said) == ("total" in dots)


@pytest.mark.parametrize("command", [
    "find . -mindepth 1 -type d -name '.*' | wc -l",  # the start left out
    "find . -type f -name '.*' | wc -l",  # `.` is no file
    "find . ! -name '.*' | wc -l", "find . -not -name '.*' -type d | wc -l",  # negated
    "find ./sub -name '.*' | wc -l", "find . -name '*.txt' | wc -l",  # the start's name does not match
    "find . -type d -name '.*'",  # listed, not counted: the writer sees the `.` line
    "find . -name '.*' -printf '%f\\n' | wc -l",  # an action of its own: not told apart here
    "ls -A | grep '^\\.' | wc -l", "ls -ad .* | wc -l", "ls -1 | wc -l", "ls | wc -l",
    "ls -l | grep -c '^-'", "ls -l | grep -v total | wc -l",  # the total line filtered out
    "ls -l a.txt | wc -l", "ls -ld dir | wc -l", "ls -l *.txt | wc -l",  # no total line, or not told apart
    "ls -lR | wc -l", "ls -l | grep -c 8",  # a total per directory; the total's number is not known
    "ls -a | grep -v '^\\.' | wc -l",  # the dot lines are filtered out
    "ls -la | grep -c '^-'", "ls -la | grep '\\.txt$' | wc -l",  # nor do these patterns keep them
    "ls -a | awk 'NR>2' | wc -l",  # a stage that may drop them: not told apart here
])
def test_a_listing_whose_dot_entries_are_left_out_or_not_counted_is_not(command):
    assert pipe_mistake(command) is None


def test_the_dot_entries_a_mistake_names_are_what_the_executor_counts(tmp_path):
    # the premise, run for real: ragix's find and ls print the lines the sentence says the count includes
    from ragix_core.tools import ToolBox

    for name in (".cache", ".config", "visible"):
        (tmp_path / name).mkdir()
    (tmp_path / ".config" / ".nested").mkdir()
    box = ToolBox(tmp_path, profile="reflect")
    found = box.run_command("find . -maxdepth 1 -type d -name '.*' | wc -l")
    listed = box.run_command("ls -a | grep '^\\.' | wc -l")
    right = box.run_command("find . -mindepth 1 -maxdepth 1 -type d -name '.*' | wc -l")
    assert (found.stdout.strip(), listed.stdout.strip(), right.stdout.strip()) == ("3", "4", "2")
    long, names = box.run_command("ls -l | wc -l"), box.run_command("ls -1 | wc -l")
    assert (long.stdout.strip(), names.stdout.strip()) == ("2", "1")  # `total 4` and `visible`
