"""Which pipelines hide the search's lines from the writer, and which reductions are the answer."""

from __future__ import annotations

import pytest

from ragix_core.evidence.reduction import search_behind_reduction


@pytest.mark.parametrize("goal,command,expected", [
    # measured in the three-set run: the count and the cut hid the file the goal asks for
    ("Which file imports module a?", "grep -rl 'from a import' . | wc -l", ("grep -rl 'from a import' .", "wc -l")),
    ("Find FIXME comments in the code and say what they ask for.", "grep -rn FIXME . | cut -d: -f2-",
     ("grep -rn FIXME .", "cut -d: -f2-")),
    # a pipe inside the quoted pattern is not a stage boundary, and a glob stays a glob
    ("List the TODO lines", "grep -n 'a|b' *.py | sort | uniq", ("grep -n 'a|b' *.py", "sort | uniq")),
    ("Which python files are there?", "find . -name '*.py' | head -n 3", ("find . -name '*.py'", "head -n 3")),
    # a count that also asks for the names: the names are the evidence
    ("How many functions named execute are there, and in which files?", "grep -rl 'def execute' . | wc -l",
     ("grep -rl 'def execute' .", "wc -l")),
    # measured (maintainer-name at 7fdd634): a field cut and a sed that only deletes printed `guide.`
    ("Who is named as the maintainer in the documentation?",
     "grep -i -rn 'maintainer' . | awk '{print $3}' | sed 's/\\n$//'",
     ("grep -i -rn 'maintainer' .", "awk '{print $3}' | sed 's/\\n$//'")),
    ("Which lines mention redis?", "grep -rn redis . | sed -e 's| *$||g' -e '/^#/d'",
     ("grep -rn redis .", "sed -e 's| *$||g' -e '/^#/d'")),
    ("Which lines mention redis?", "grep -rn redis . | sed -n '1,5p'", ("grep -rn redis .", "sed -n '1,5p'")),
    # names asked for beside a count, in other words
    ("Count the files that import a and name them.", "grep -rl 'import a' . | wc -l", ("grep -rl 'import a' .", "wc -l")),
    ("How many files mention a? Give the names of those files.", "grep -rl a . | wc -l", ("grep -rl a .", "wc -l")),
])
def test_a_reducer_the_goal_did_not_ask_for_gives_back_the_search(goal, command, expected):
    assert search_behind_reduction(goal, command) == expected


@pytest.mark.parametrize("goal,command", [
    ("How many Python files are there?", "find . -name '*.py' | wc -l"),  # the count is the answer
    ("Count the lines that mention redis", "grep -rn redis . | wc -l"),
    # a count asked in the third person (NL2Bash fs_1-132 at 7defe0e: the writer was sent the whole listing)
    ("Counts all files in the current directory and subfolders.", "find . -type f | wc -l"),
    ("Add up the lines that mention redis", "grep -rn redis . | wc -l"),
    # a name that describes what is counted is no ask for names (AgentBench OS test-22 at 84b1783)
    ("How many files whose name starts with a letter exist in .?", "grep -rl '^[a-zA-Z]' . | wc -l"),
    ("How many files have names ending in .log?", "find . -name '*.log' | wc -l"),
    ("How many files have a name that begins with a letter?", "find . -name '[a-zA-Z]*' | wc -l"),
    ("Which file has the most TODO comments?", "grep -rc TODO . | sort -t: -k2 -nr | head -n 1"),  # one of a ranking
    ("Which file imports module a?", "grep -rl 'from a import' ."),  # nothing reduced
    ("Which file imports module a?", "grep -rl 'from a import' . | xargs wc -l"),  # xargs runs a new command
    ("Which files are largest?", "wc -l a.py b.py | sort -n"),  # wc first: not a search
    ("Which file imports module a?", "cat a.py | wc -l"),
    ("Which file imports module a?", "grep -rl 'from a import' . |"),  # refused by the lexer
    ("", "grep -rl x . | wc -l"),
    # a sed that writes text of its own, reads a file, or prints every line twice is no reduction
    ("Which lines mention redis?", "grep -rn redis . | sed 's/redis/cache/'"),
    ("Which lines mention redis?", "grep -rn redis . | sed 's/x//' notes.txt"),
    ("Which lines mention redis?", "grep -rn redis . | sed -f script.sed"),
    ("Which lines mention redis?", "grep -rn redis . | sed p"),
])
def test_a_reduction_that_is_the_answer_or_no_search_is_left_alone(goal, command):
    assert search_behind_reduction(goal, command) is None


@pytest.mark.parametrize("command,output,expected", [
    # measured (largest-python-file, try-first at fc92558): the vote agreed on the total line
    ("find . -name '*.py' | xargs wc -l | sort -n | tail -n 1", "  67 total\n",
     ("find . -name '*.py' | xargs wc -l | sort -n", "tail -n 1")),
    ("find . -name '*.py' | xargs wc -l | sort -nr | head -n 1 | head -1", "67 total",
     ("find . -name '*.py' | xargs wc -l | sort -nr", "head -n 1 | head -1")),
    ("wc -l a.py b.py | tail -1", "30 total", ("wc -l a.py b.py", "tail -1")),
    ("find . -name '*.py' | xargs wc -l | sort -n | tail -n 2", "23 ./a.py\n67 total", None),  # a file's row is there
    ("wc -l a.py b.py", "30 total", None),  # nothing cut
    ("cat notes.txt | head -1", "30 total", None),  # no wc: a line that only looks like its total
])
def test_a_wc_table_cut_to_its_total_line_gives_back_the_table(command, output, expected):
    from ragix_core.evidence.reduction import table_behind_total

    assert table_behind_total(command, output) == expected


@pytest.mark.parametrize("command,output,expected", [
    ("find . -name '*.py' | xargs wc -l | sort -nr | head -n 1", "67 total\n",
     "find . -name '*.py' | xargs wc -l | grep -v ' total$' | sort -nr | head -n 1"),
    ("wc -l a.py b.py | sort -n | tail -1", "30 total", "wc -l a.py b.py | grep -v ' total$' | sort -n | tail -1"),
    ("find . -name '*.py' | xargs wc -l | tail -n 1", "67 total", None),  # the sum asked for: no ranking
    ("find . -name '*.py' | xargs wc -l | sort -n | tail -n 2", "23 ./a.py\n67 total", None),  # a file is named
    ("find . -name '*.py' | xargs wc -l | awk '{print $1}' | sort -n | tail -1", "67 total", None),  # awk reads it
])
def test_a_ranking_that_kept_only_wc_total_is_run_without_that_line(command, output, expected):
    from ragix_core.evidence.reduction import total_left_out

    fix = total_left_out(command, output)
    assert (fix[0] if fix else None) == expected
    assert fix is None or "total" in fix[1]


def test_the_total_left_out_names_the_largest_file_when_run(tmp_path):
    from ragix_core.evidence.reduction import total_left_out
    from ragix_core.tools import ToolBox

    (tmp_path / "a.py").write_text("x\n" * 3)
    (tmp_path / "b.py").write_text("x\n" * 9)
    tb = ToolBox(tmp_path, profile="reflect", sandbox="none")
    command = "find . -name '*.py' | xargs wc -l | sort -nr | head -n 1"
    printed = tb.run_command(command).stdout
    assert printed.split() == ["12", "total"]  # what bash prints too
    assert tb.run_command(total_left_out(command, printed)[0]).stdout.split() == ["9", "./b.py"]


@pytest.mark.parametrize("command,expected", [
    ("find . -name '*.py' | xargs wc -l | awk '{sum += $1} END {print sum}'",
     "find . -name '*.py' | xargs wc -l | grep -v ' total$' | awk '{sum += $1} END {print sum}'"),
    ("wc -l a.py b.py | cut -d' ' -f1 | paste -sd+ | bc",
     "wc -l a.py b.py | grep -v ' total$' | cut -d' ' -f1 | paste -sd+ | bc"),
    ("find . -name '*.py' | xargs wc -l | grep -v total | awk '{s+=$1} END {print s}'", None),  # filtered already
    ("find . -name '*.py' | xargs wc -l | awk 'END {print $1}'", None),  # reads the total on purpose
    ("grep -c x a.py | awk '{s+=$1} END {print s}'", None),  # no wc table
])
def test_a_sum_over_a_wc_table_is_run_without_its_total_line(command, expected):
    from ragix_core.evidence.reduction import total_summed

    fix = total_summed(command)
    assert (fix[0] if fix else None) == expected


def test_a_reduction_that_printed_nothing_gives_back_the_search_whatever_the_goal_asks():
    # measured (wrong-module-store, a9a2574): one file's grep has no file-name field, so cut -f3 printed blanks
    command = "grep -rn 'def' src/inventory/storage.py | cut -d: -f3"
    goal = "List the functions defined in src/inventory/store.py"
    assert search_behind_reduction(goal, command, printed_nothing=True) == (
        "grep -rn 'def' src/inventory/storage.py", "cut -d: -f3")
    # a count the goal asks for is the answer, unless the pipeline printed nothing at all
    assert search_behind_reduction("Count the lines that mention redis", "grep -rn redis . | wc -l") is None
    assert search_behind_reduction("Count the lines that mention redis", "grep -rn redis . | wc -l",
                                   printed_nothing=True) == ("grep -rn redis .", "wc -l")
    assert search_behind_reduction(goal, "cat a.py | cut -d: -f3", printed_nothing=True) is None  # no search


@pytest.mark.parametrize("goal,command,expected", [
    # measured (largest-md-file, a9a2574): the smallest file answered as the largest
    ("Find the largest markdown file in this repo by line count",
     "find . -name '*.md' -type f | xargs wc -l | sort -n | head -n 1",
     "find . -name '*.md' -type f | xargs wc -l | sort -n | tail -n 1"),
    ("Which markdown file has the fewest lines?", "find . -name '*.md' | xargs wc -l | sort -n -r | head -1 | awk '{print $2}'",
     "find . -name '*.md' | xargs wc -l | sort -n -r | tail -1 | awk '{print $2}'"),
    ("Which file has the most TODO comments?", "grep -rc TODO . | sort -t: -k2 -n | head -n 1",
     "grep -rc TODO . | sort -t: -k2 -n | tail -n 1"),
])
def test_a_ranking_cut_at_the_end_the_goal_does_not_ask_for_is_cut_at_the_other(goal, command, expected):
    from ragix_core.evidence.reduction import reversed_ranking

    fixed, aside = reversed_ranking(goal, command)
    assert fixed == expected and "other end" in aside


@pytest.mark.parametrize("goal,command", [
    ("Find the largest markdown file", "find . -name '*.md' | xargs wc -l | sort -nr | head -n 1"),  # right end
    ("Which markdown file has the fewest lines?", "find . -name '*.md' | xargs wc -l | sort -n | head -n 1"),
    ("Which file is largest?", "ls | sort | head -1"),  # a sort by name says nothing about size
    ("List files with at most 10 lines", "wc -l *.md | sort -n | tail -n 3"),  # "at most" is no ranking
    ("Show the largest and the smallest file", "wc -l *.md | sort -n | head -n 1"),  # both asked
    ("Which file is largest?", "wc -l *.md | sort -n"),  # nothing cut
])
def test_a_ranking_cut_at_the_asked_end_or_no_ranking_is_left_alone(goal, command):
    from ragix_core.evidence.reduction import reversed_ranking

    assert reversed_ranking(goal, command) is None
