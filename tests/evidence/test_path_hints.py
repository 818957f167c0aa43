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
    # a search pattern spelled like the directory is not a path: only the operand is re-aimed (a directory,
    # since grep -r reads one), the pattern stays
    _, aimed = diagnose("grep -rn inventory inventory/", "grep: inventory/: No such file or directory\n", tmp_path)
    assert aimed is None or aimed[0] == "grep -rn inventory src/inventory"
    # not used as a directory (`cat inventory` may mean inventory.json): the usual close-name hints
    hint, aimed = diagnose("cat inventory", "cat: inventory: No such file or directory\n", tmp_path)
    assert "inventory.json" in hint and (aimed is None or aimed[0] == "cat inventory.json")
    # two directories of that name: ambiguous, not re-aimed; the hint names both (find reads a directory)
    (tmp_path / "lib" / "inventory").mkdir(parents=True)
    hint, aimed = diagnose(command, stderr, tmp_path)
    assert aimed is None and "existing directories with a similar name: lib/inventory, src/inventory" in hint


@pytest.fixture
def package(tmp_path):
    for d in ("sqlparse/engine", "sqlparse/filters"):
        (tmp_path / d).mkdir(parents=True)
    for f in ("sqlparse/engine/filter_stack.py", "sqlparse/engine/grouping.py", "sqlparse/filters/others.py"):
        (tmp_path / f).write_text("x = 1\n")
    return tmp_path


@pytest.mark.parametrize("command, wrong, fixed", [
    # paraphrase set at 529b167: re-aimed at engine/filter_stack.py, the run summed one file's lines
    ("find ./sqlparse/engine/filters -type f -name '*.py'", "./sqlparse/engine/filters",
     "find sqlparse/filters -type f -name '*.py'"),
    ("ls -l sqlparse/filter", "sqlparse/filter", "ls -l sqlparse/filters"),
    ("grep -rn import sqlparse/filtrs", "sqlparse/filtrs", "grep -rn import sqlparse/filters"),
])
def test_a_path_read_as_a_directory_is_matched_with_directories(package, command, wrong, fixed):
    hint, aimed = diagnose(command, f"x: '{wrong}': No such file or directory", package)
    assert "existing directories with a similar name: sqlparse/filters" in hint
    assert aimed == (fixed, f"{wrong} does not exist; ran it on sqlparse/filters, the existing directory with the "
                            "closest name")


@pytest.mark.parametrize("command, wrong", [
    ("wc -l sqlparse/engine/filterstack.py", "sqlparse/engine/filterstack.py"),  # read as a file
    ("find sqlparse/engine/filterstack.py -type f", "sqlparse/engine/filterstack.py"),  # a file's name, by its suffix
    ("grep -n import sqlparse/engine/filterstack", "sqlparse/engine/filterstack"),  # no -r: grep reads a file
])
def test_a_path_read_as_a_file_is_still_matched_with_files(package, command, wrong):
    hint, aimed = diagnose(command, f"x: '{wrong}': No such file or directory", package)
    assert "existing files with a similar name: sqlparse/engine/filter_stack.py" in hint
    assert aimed is not None and "sqlparse/engine/filter_stack.py, the existing file" in aimed[1]
