"""Issue 11 item 6: the everyday vocabulary — awk's program check, '>' in write profiles, coverage."""

from __future__ import annotations

import pytest

from ragix_core.tools.awkcheck import check_awk
from ragix_core.tools.lexer import split_pipeline
from ragix_core.tools.refusal import Refusal


@pytest.mark.parametrize("program", [
    "$3 > 10", "{ print ($1 > $2) }", "/a|b/ { print $1 }", "$1 == \"x\" || $2 == \"y\"", "NR>1 {s+=$2} END {print s}",
    "{ n[$1]++ } END { for (k in n) print k, n[k] }", "{ print \"a>b|c\" }", "BEGIN { FS = \",\" } { print $2 / 2 }",
])
def test_awk_programs_that_read_and_print_are_accepted(program):
    check_awk(program)


@pytest.mark.parametrize("program,why", [
    ("BEGIN { system(\"id\") }", "system"), ("{ print > \"f\" }", "redirection"), ("{ print $1 >> \"f\" }", "redirection"),
    ("{ printf \"%s\", $1 > \"f\" }", "redirection"), ("{ print | \"sh\" }", "pipes"), ("BEGIN { \"id\" | getline x }", "pipes"),
    ("BEGIN { getline x < \"/etc/passwd\" }", "getline"), ("BEGIN { ARGV[1] = \"/etc/passwd\"; ARGC = 2 }", "ARGV"),
    ("BEGIN { print ENVIRON[\"HOME\"] }", "ENVIRON"), ("@include \"x\"", "@"), ("{ print \"unterminated }", "unterminated"),
])
def test_awk_programs_that_reach_out_are_refused(program, why):
    with pytest.raises(Refusal, match=why):
        check_awk(program)


def test_redirection_is_parsed_only_at_the_end():
    assert split_pipeline("sort a > b") == [["sort", "a", ">", "b"]]
    for bad in ("ls > a | wc", "ls > a b", "cat 2>&1", "ls >& x", "ls > *.txt", "> x"):
        with pytest.raises(Refusal):
            split_pipeline(bad)


def test_everyday_tasks_mostly_expressible(capsys):
    from tests.tools import everyday

    everyday.main()
    last = capsys.readouterr().out.strip().splitlines()[-1]
    done, total = map(int, last.split()[-1].split("/"))
    assert done >= total - 1, last  # only `tr ... < file` (input redirection) is left out on purpose
