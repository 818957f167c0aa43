"""``~`` and ``$HOME`` stand for the project root only under ``tools.home: project`` (tools/home.py), and are
still refused by default."""

from __future__ import annotations

import pytest

from ragix_core.config import ConfigError, parse_config
from ragix_core.llm.command_prompt import command_request
from ragix_core.tools.home import expand_home
from tests.tools.conftest import make_box, sandboxes


@pytest.mark.parametrize("command,expected", [
    ("ls ~", "ls ."),
    ("ls ~/exp_folder | wc -l", "ls ./exp_folder | wc -l"),
    ("find ~ . -mindepth 1 -maxdepth 1 -type d", "find . . -mindepth 1 -maxdepth 1 -type d"),
    ("cat $HOME/notes.txt", "cat ./notes.txt"),
    ('cat "${HOME}/my notes.txt"', 'cat "./my notes.txt"'),
    ("ls -a ~|wc -l", "ls -a .|wc -l"),
    # kept as written: quoted or escaped, inside a word, another user's home, another variable
    ("grep '~/x' a.txt", "grep '~/x' a.txt"),
    ("grep '$HOME' a.txt", "grep '$HOME' a.txt"),
    ("ls \\~", "ls \\~"),
    ("ls a~b", "ls a~b"),
    ("ls ~root", "ls ~root"),
    ("ls $HOMEDIR", "ls $HOMEDIR"),
    ('grep "a\\"~" f', 'grep "a\\"~" f'),
])
def test_expand_home_rewrites_only_the_home_the_shell_would_expand(command, expected):
    assert expand_home(command) == expected


@pytest.mark.parametrize("sandbox", sandboxes())
def test_a_box_whose_home_is_the_root_runs_tilde_commands_there(world, sandbox):
    box = make_box(world, sandbox, home_is_root=True)
    listed = box.run_command("ls ~ | grep -c README.md")
    assert listed.returncode == 0 and listed.stdout.strip() == "1", (listed.stdout, listed.error)
    read = box.run_command("cat $HOME/README.md")
    assert read.returncode == 0 and read.stdout == (world["proj"] / "README.md").read_text()
    other = box.run_command("ls ~root")  # another user's home is never the project
    assert other.returncode != 0 and "tilde" in (other.error or "")


@pytest.mark.parametrize("sandbox", sandboxes())
def test_by_default_tilde_is_refused(world, sandbox):
    result = make_box(world, sandbox).run_command("ls ~")
    assert result.returncode != 0 and "tilde expansion is not performed" in (result.error or "")


def test_the_request_names_tilde_forbidden_unless_the_root_is_home():
    plain = command_request("How many files are in my home directory?", ["ls", "wc"], "./a")
    assert '"~"' in plain and "home directory:" not in plain
    home = command_request("How many files are in my home directory?", ["ls", "wc"], "./a", home_is_root=True)
    assert '"~" or' not in home and ', "~"' not in home
    assert 'The project root is the home directory: "~" and "$HOME" stand for it' in home
    writes = command_request("Make ~/out", ["ls", "mkdir"], "./a", home_is_root=True)
    assert '"~" (' not in writes and "stand for it" in writes


def test_the_config_key_takes_refused_or_project_only():
    assert parse_config({}).tools.home == "refused"
    assert parse_config({"tools": {"home": "project"}}).tools.home == "project"
    with pytest.raises(ConfigError, match=r"tools\.home"):
        parse_config({"tools": {"home": "/root"}})


@pytest.mark.parametrize("sandbox", sandboxes())
def test_a_dry_run_validates_the_command_as_it_would_run_and_non_text_is_refused(world, sandbox):
    from ragix_core.tools.preview import DryRunStop

    previews = []
    box = make_box(world, sandbox, home_is_root=True, previews=previews)
    with pytest.raises(DryRunStop):
        box.run_command("cat ~/README.md")
    assert previews[0].refused is None and previews[0].processes, previews[0].to_dict()
    refused = make_box(world, sandbox, home_is_root=True).run({"tool": "shell", "args": {"command": 42}})
    assert refused.returncode != 0 and refused.error and "internal error" not in refused.error, refused.error
