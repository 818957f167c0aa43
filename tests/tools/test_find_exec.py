"""`find … -exec X {} +` run as `find … -print0 | xargs -0 X`: which shapes are rewritten, and that the
rewrite run confined prints what a shell prints for the original."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from ragix_core.tools import ToolBox
from ragix_core.tools.find_exec import find_exec_as_xargs
from tests.tools.refused_rewrites import refused_then_fixed, without_wc_totals


@pytest.mark.parametrize("command,expected", [
    ("find . -name '*.md' -type f -exec wc -l {} + | sort -nr | head -n 1",
     "find . -name '*.md' -type f -print0 | xargs -0 wc -l | sort -nr | head -n 1"),
    ("find . -name \"*.py\" -exec grep -l TODO {} \\;", "find . -name '*.py' -print0 | xargs -0 -n 1 grep -l TODO"),
    ("find src -type f -exec wc -l '{}' ';'", "find src -type f -print0 | xargs -0 -n 1 wc -l"),
    ("find . -name *.md -exec wc -l {} +", "find . -name '*.md' -print0 | xargs -0 wc -l"),  # find's own pattern
    # measured on AgentBench OS (1905fba): an awk program in single quotes stays one literal word
    ("find . -name '*.txt' -exec awk '{sum += $1} END {print sum}' {} +",
     "find . -name '*.txt' -print0 | xargs -0 awk '{sum += $1} END {print sum}'"),
    # measured on AgentBench OS (a0b5077): the `;` of `\\;` lost, a lone backslash left after {}
    ("find . -type f -exec grep -o 'Linux' {} \\", "find . -type f -print0 | xargs -0 -n 1 grep -o Linux"),
    ("find . -type f -exec grep -l 'def execute' {} \\ | head -1",
     "find . -type f -print0 | xargs -0 -n 1 grep -l 'def execute' | head -1"),
    # measured on AgentBench OS and NL2Bash (4018844): two extensions between parentheses, refused 7 times
    ("find . -type f \\( -name '*.c' -o -name '*.h' \\) -exec wc -l {} +",
     "find . -type f '(' -name '*.c' -o -name '*.h' ')' -print0 | xargs -0 wc -l"),
    # `{}` elsewhere than last before `;`: find puts the name there, as xargs -I does (NL2Bash fs_1-117, fs_1-138)
    ("find . -name '*FooBar*' -exec cp {} ./tmp \\;", "find . -name '*FooBar*' -print0 | xargs -0 -I '{}' cp '{}' ./tmp"),
    ("find . -type d -name dir1 -exec touch {}/abc.txt \\;",
     "find . -type d -name dir1 -print0 | xargs -0 -I '{}' touch '{}/abc.txt'"),
])
def test_an_exec_of_the_found_files_becomes_a_pipe_into_xargs(command, expected):
    rewritten, note = find_exec_as_xargs(command)
    assert rewritten == expected
    assert expected in note and "-exec" in note


@pytest.mark.parametrize("command", [
    "find . -exec grep {} x +",                    # {} not last before +: find itself refuses it
    "find . -exec grep -H {} {} +",                # {} twice
    "find . -exec {}/run x \\;",                    # the program is a found name
    "find . -name a -o -name b -exec wc -l {} +",  # -exec binds to one side of -o
    "find . \\( -name a \\) -o -name b -exec wc -l {} +",  # the -o outside the parentheses
    "find . \\( -name a -print \\) -exec wc -l {} +",  # another action, even between parentheses
    "find . -print -exec wc -l {} +",              # another action prints too
    "find . -exec wc -l {} + -print",              # words after the end of -exec
    "find . -exec wc -l {} \\; -exec cat {} \\;",  # two programs
    "find . -exec wc -l {}",                       # no end
    "find . -exec grep a {} b \\",                  # a lone backslash, but not right after {}
    "find . -exec {} +",                           # no program
    "find . -name '*.md' | xargs wc -l",           # nothing to rewrite
    "ls -exec wc {} +",
    "find . -exec wc -l {} + 'unbalanced",
    "find src/* -exec wc -l {} +",                 # a glob ragix would expand: quoted back it would not
    "find $HOME -exec wc -l {} +",                 # a shell would expand it: quoted back it would not
    "find . -exec grep \"$USER\" {} +",
    "find . -exec grep `id` {} +",
    "",
])
def test_every_other_shape_is_left_to_the_refusal(command):
    assert find_exec_as_xargs(command) is None


@pytest.fixture()
def project(tmp_path: Path) -> Path:
    root = tmp_path / "p"
    (root / "docs").mkdir(parents=True)
    (root / "README.md").write_text("# Title\n## Install\ntext\n## Usage\n")
    (root / "docs" / "guide.md").write_text("# Guide\n## Steps\n")
    (root / "docs" / "a long name.md").write_text("one\n")
    return root


@pytest.mark.skipif(shutil.which("bash") is None, reason="needs bash to compare with")
@pytest.mark.parametrize("command", [
    "find . -name '*.md' -type f -exec wc -l {} + | sort -n | head -n 2",
    "find . -name '*.md' -exec head -n 1 {} \\; | sort",
    "find . -name '*.md' -exec wc -l {} + | sort -n",
    "find . \\( -name '*.md' -o -name '*.txt' \\) -exec wc -l {} + | sort -n",
    "find . -name '*.md' -exec wc -w {} \\; | sort -n",
    "find . -name '*.md' -exec basename {} .md \\; | sort",
])
def test_the_rewrite_run_confined_prints_what_bash_prints_for_the_original(project, command):
    shell, again = refused_then_fixed(project, command)
    assert without_wc_totals(again.result.stdout) == without_wc_totals(shell) != []


def test_a_write_with_the_name_inside_a_word_lands_where_bash_puts_it(tmp_path):
    # NL2Bash fs_1-138 (4018844): "Create an empty file abc.txt in each directory named dir1", written as
    # `find … -exec touch {}/abc.txt \\;`, was refused on every draw; bash creates one file in each such directory.
    trees = []
    for run in ("bash", "ragix"):
        root = tmp_path / run
        for d in ("dir1", "a/dir1", "a/other"):
            (root / d).mkdir(parents=True)
        command = "find . -type d -name dir1 -exec touch {}/abc.txt \\;"
        if run == "bash":
            subprocess.run(["bash", "-c", command], cwd=root, check=True)
        else:
            rewritten, _ = find_exec_as_xargs(command)
            res = ToolBox(root, profile="dev", assume_yes=True).run_command(rewritten)
            assert res.returncode == 0 and res.writes, res.error or res.stderr
        trees.append(sorted(str(p.relative_to(root)) for p in root.rglob("*")))
    assert trees[0] == trees[1] and "a/dir1/abc.txt" in trees[1] and "a/other/abc.txt" not in trees[1]
