"""One row `wc` printed for a file, as the whole output, is the answer as printed (reasoning_v30/read_off.py): no
writer's call."""

from __future__ import annotations

import pytest

from ragix_core.core.types import PlanStep, ToolCall, ToolResult
from ragix_core.reasoning_v30.read_off import wc_line_answer


def ran(command: str, stdout: str, written: str = "") -> PlanStep:
    step = PlanStep(num=1, description="d", tool_call=ToolCall("shell", {"command": command}))
    step.result = ToolResult("shell", 0, stdout=stdout, written=written or None)
    return step


@pytest.mark.parametrize("command, stdout, answer", [
    ("wc -l sqlparse/lexer.py", "174 sqlparse/lexer.py\n", "sqlparse/lexer.py has 174 lines."),
    ("wc -l ./notes.txt", "  1 ./notes.txt\n", "notes.txt has 1 line."),
    ("wc --words README.md", "310 README.md\n", "README.md has 310 words."),
    ("wc -c -- data.bin", "2048 data.bin\n", "data.bin has 2048 bytes."),
    ("wc -m 'my notes.txt'", "12 my notes.txt\n", "my notes.txt has 12 characters."),
    # the file named by the search `xargs` ran `wc` on
    ("find . -name a.py | xargs wc -l", "3 ./a.py\n", "a.py has 3 lines."),
    ("find src -name '*.py' -print0 | xargs -0 -n 1 wc -l", "  9 src/b.py\n", "src/b.py has 9 lines."),
    # a row picked out of wc's rows by stages that keep lines whole
    ("find . -name '*.py' | xargs wc -l | grep -v ' total$' | sort -nr | head -n 1", "1111 ./kw.py\n",
     "kw.py has 1111 lines."),
    ("wc -l a.py b.py | grep -iE --invert-match 'total|b.py'", "3 a.py\n", "a.py has 3 lines."),
    ("wc -l a.py b.py | grep -v -e total -e b.py", "3 a.py\n", "a.py has 3 lines."),
    ("wc -l a.py b.py | sort -n | head -1", "3 a.py\n", "a.py has 3 lines."),
    ("wc -w a.md b.md | sort -k1,1n | uniq | tail -n 2 | head -n 1", "40 b.md\n", "b.md has 40 words."),
])
def test_wc_of_one_file_is_stated_as_a_sentence(command, stdout, answer):
    assert wc_line_answer(ran(command, stdout)) == answer


@pytest.mark.parametrize("command, stdout", [
    ("wc -l a.py b.py", "1 a.py\n2 b.py\n3 total\n"),  # a table: which line answers is the writer's to choose
    ("wc -lw a.py", "1 4 a.py\n"),  # two counts
    ("wc a.py", "1 4 20 a.py\n"),  # three counts, no option
    ("cat a.py | wc -l", "3\n"),  # one bare number: computed.printed_number reads it
    ("find . -name '*.py' | xargs wc -l | sort -nr | head -n 1", "12 total\n"),  # wc's total: no file's
    ("wc -l a.py b.py | tail -n 1", "3 total\n"),
    ("wc -l a.py b.py | awk '{print $1, $2}'", "3 a.py\n"),  # a stage that rewrites rows
    ("wc -l a.py b.py | uniq -c | head -n 1", "1 3 a.py\n"),
    ("wc -l a.py b.py | grep -c a", "1\n"),
    ("wc -l a.py b.py | head -c 6", "3 a.py\n"),
    ("wc -l a.py | grep -o '3 a'", "3 a\n"),
    ("wc -l a.py b.py | grep -v total notes.txt", "3 a.py\n"),  # grep read a file of its own, not the pipe
    ("wc -l a.py b.py | grep -rv total", "3 a.py\n"),
    ("find . -name a.py | xargs -n 1 grep -c x", "3 ./a.py\n"),  # xargs runs another program than wc
    ("wc -l a.py b.py | sort -n | head -n 1", "3 c.py\n"),  # wc named its files, and this line is none of them
    ("wc -l a.py", "3 b.py\n"),  # a line for another file than the one named
    ("wc -l a.py", ""),
    ("wc -l a.py", "3 total\n"),
])
def test_any_other_output_is_left_to_the_writer(command, stdout):
    assert wc_line_answer(ran(command, stdout)) is None


def test_the_command_is_read_as_the_model_wrote_it_not_as_ragix_ran_it():
    step = ran("/usr/bin/wc -l -- docs/a.md", "7 docs/a.md\n", written="wc -l docs/a.md")
    assert wc_line_answer(step) == "docs/a.md has 7 lines."
    assert wc_line_answer(None) is None
