"""A failed command on a missing path gets the existing files with a close name."""

import pytest

from ragix_core.evidence.path_hints import diagnose, missing_paths

# stderr as GNU tools print it (coreutils 9, findutils 4.9, grep 3)
STDERRS = [
    "wc: docs/guides.md: No such file or directory",
    "cat: docs/guides.md: No such file or directory",
    "head: cannot open 'docs/guides.md' for reading: No such file or directory",
    "find: ‘docs/guides.md’: No such file or directory",
    "ls: cannot access 'docs/guides.md': No such file or directory",
    "stat: cannot statx 'docs/guides.md': No such file or directory",
    "sort: cannot read: docs/guides.md: No such file or directory",
    "/usr/bin/wc: docs/guides.md: No such file or directory",  # ragix runs tools by absolute path
]


@pytest.mark.parametrize("stderr", STDERRS)
def test_missing_path_is_read_from_each_tools_wording(stderr):
    assert missing_paths(stderr) == ["docs/guides.md"]


@pytest.fixture
def repo(tmp_path):
    for rel in ("docs/guide.md", "docs/notes.md", "config/settings.yaml", "src/pkg/storage.py", "src/pkg/api.py",
                ".ragix/experience/events.jsonl", ".git/HEAD"):
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text("x\n")
    return tmp_path


def _hint(stderr, root):
    return diagnose("", stderr, root)[0]


def _near(missing, root):
    """The close names the hint for a missing ``missing`` suggests, best first."""
    hint = _hint(f"cat: {missing}: No such file or directory", root)
    return hint.split("similar name: ", 1)[1].split(", ") if "similar name: " in hint else []


def test_close_names_prefer_the_same_name_elsewhere_then_close_paths(repo):
    assert _near("docs/guides.md", repo) == ["docs/guide.md"]
    assert _near("storage.py", repo) == ["src/pkg/storage.py"]
    assert _near("./config/settings.yml", repo) == ["config/settings.yaml"]
    assert _near("events.jsonl", repo) == []  # ragix's own state and .git are never suggested
    assert _near("setup.py", repo) == []


def test_hint_lines_are_marked_as_ragix_and_empty_when_nothing_is_missing(repo):
    hint = _hint(STDERRS[0], repo)
    assert hint == "[ragix] docs/guides.md does not exist; existing files with a similar name: docs/guide.md"
    assert "no file in the project has a similar name" in _hint("cat: setup.py: No such file or directory", repo)
    assert _hint("grep: invalid option -- 'Q'", repo) == ""


@pytest.mark.parametrize("command,fixed", [
    ("grep -rn version setup.py", "grep -rn version ."),
    ("grep version setup.py", "grep -r version ."),
    ("grep -n version setup.py | head -n 1", "grep -r -n version . | head -n 1"),
    ("grep 'a b' setup.py", "grep -r 'a b' ."),
    ("grep -e version setup.py", None),  # a pattern given by option: not the simple shape
    ("grep version setup.py other.py", None),  # another file was named too
    ("grep 'a|b' setup.py", None),
    ("cat setup.py", None),  # nothing to search for
])
def test_a_search_in_a_file_with_no_close_name_is_re_aimed_at_the_whole_project(tmp_path, command, fixed):
    from ragix_core.evidence.path_hints import diagnose

    (tmp_path / "pyproject.toml").write_text("version = '0.3.0'\n")
    hint, fix = diagnose(command, "grep: setup.py: No such file or directory\n", tmp_path)
    assert "setup.py does not exist and no file in the project has a similar name" in hint
    assert (fix[0] if fix else None) == fixed
    if fix:
        assert "searched the whole project instead" in fix[1]


def test_a_missing_path_named_twice_is_re_aimed_everywhere_it_stands(repo):
    command = "find . -name docs/guides.md | wc -l docs/guides.md"
    hint, fix = diagnose(command, "wc: docs/guides.md: No such file or directory\n", repo)
    assert fix[0] == "find . -name docs/guide.md | wc -l docs/guide.md"
    assert fix[1].startswith("docs/guides.md does not exist; ran it on docs/guide.md")
    # a longer word that only contains the path is not the path
    _, fix = diagnose("wc -l docs/guides.md old/docs/guides.md.bak", "wc: docs/guides.md: No such file or directory\n", repo)
    assert fix[0] == "wc -l docs/guide.md old/docs/guides.md.bak"


def test_a_directory_named_without_its_parent_is_found_and_the_command_re_aimed(tmp_path):
    # measured (ambiguous-execute at 5ae6fa5): the hints named inventory.json and b.py, a.py, and the
    # reflection planned `mkdir inventory`
    for rel in ("src/inventory/cli.py", "src/inventory/api.py", "inventory.json", "a.py"):
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text("x\n")
    command = "find inventory -name '*.py' | wc -l inventory/*.py"
    stderr = ("find: 'inventory': No such file or directory\n"
              "wc: 'inventory/*.py': No such file or directory\n")
    hint, aimed = diagnose(command, stderr, str(tmp_path))  # a tool box's root may be a str
    assert "src/inventory" in hint and "inventory.json" not in hint
    assert aimed[0] == "find src/inventory -name '*.py' | wc -l src/inventory/*.py"
    assert "ran it on src/inventory" in aimed[1]
    # a search pattern spelled like the directory is not a path: not re-aimed at the directory
    _, aimed = diagnose("grep -rn inventory inventory/", "grep: inventory/: No such file or directory\n", tmp_path)
    assert aimed is None or "src/inventory" not in aimed[0]
    # not used as a directory (`cat inventory` may mean inventory.json): the usual close-name hints
    hint, aimed = diagnose("cat inventory", "cat: inventory: No such file or directory\n", tmp_path)
    assert "inventory.json" in hint and (aimed is None or aimed[0] == "cat inventory.json")
    # two directories of that name: ambiguous, the usual close-name hints
    (tmp_path / "lib" / "inventory").mkdir(parents=True)
    hint, aimed = diagnose(command, stderr, tmp_path)
    assert aimed is None and "src/inventory" not in hint
