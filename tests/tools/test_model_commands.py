"""Commands designed for the model (tools/model_commands.py), run through the real tool box: the
same validation as any command, files read through the path guard, and the traps of the test
world (links out, a hard link to a secret, a FIFO) never read."""

from __future__ import annotations

from pathlib import Path

import pytest

from ragix_core.tools import ToolBox
from tests.tools.conftest import SECRET_TOKEN, TEST_LIMITS


@pytest.fixture()
def box(world) -> ToolBox:
    proj: Path = world["proj"]
    (proj / "src" / "pkg").mkdir()
    (proj / "src" / "pkg" / "__init__.py").write_text("")
    (proj / "src" / "pkg" / "store.py").write_text(
        "from .models import Item\n\n\nclass Store:\n    def load(self, path):\n        return read(path)\n\n\n"
        "def read(path):\n    return open(path).read()\n")
    (proj / "src" / "pkg" / "models.py").write_text("from dataclasses import dataclass\n\n\n@dataclass\nclass Item:\n"
                                                   "    sku: str\n")
    (proj / "src" / "pkg" / "api.py").write_text("from pkg.store import Store\nimport pkg.models\n\n\n"
                                                "def get(path):\n    return Store().load(path)\n")
    (proj / "src" / "broken.py").write_text("def (:\n")
    return ToolBox(proj, profile="reflect", sandbox="none", limits=TEST_LIMITS)


def run(box, command):
    r = box.run_command(command)
    assert SECRET_TOKEN not in (r.stdout or "") + (r.stderr or "")
    return r


def test_defs_lists_a_files_definitions_nested_with_line_numbers_and_decorators(box):
    r = run(box, "defs src/pkg/store.py src/pkg/models.py")
    assert r.ok and r.stdout.splitlines() == [
        "src/pkg/store.py:", "  4: class Store", "    5: def load(self, path)", "  9: def read(path)",
        "src/pkg/models.py:", "  5: @dataclass class Item"]


def test_defs_of_a_tree_skips_what_does_not_parse_and_says_so(box):
    r = run(box, "defs src")
    assert r.ok and "src/pkg/api.py:\n  5: def get(path)" in r.stdout
    assert "src/broken.py: not valid Python (line 1)" in r.stderr


def test_defs_n_says_where_a_name_is_defined(box):
    r = run(box, "defs -n read .")
    assert r.stdout == "./src/pkg/store.py:9: def read(path)\n"
    assert run(box, "defs -n Store .").stdout == "./src/pkg/store.py:4: class Store\n"


def test_importers_finds_every_form_of_import_by_module_or_by_path(box):
    expected = ["./src/pkg/store.py:1: from .models import Item", "./src/pkg/api.py:2: import pkg.models"]
    assert sorted(run(box, "importers models").stdout.splitlines()) == sorted(expected)
    assert sorted(run(box, "importers src/pkg/models.py").stdout.splitlines()) == sorted(expected)
    assert run(box, "importers store").stdout.splitlines() == ["./src/pkg/api.py:1: from pkg.store import Store"]


def test_callers_and_calls(box):
    # by name: a method called read is a call of `read` too (no types are inferred)
    assert run(box, "callers read").stdout.splitlines() == ["./src/pkg/store.py:6: in Store.load: read(path)",
                                                            "./src/pkg/store.py:10: in read: open(path).read()"]
    out = run(box, "calls get").stdout.splitlines()
    assert out[0] == "./src/pkg/api.py:5: def get calls:"
    assert "  6: Store  (defined at ./src/pkg/store.py:4)" in out and "  6: load  (defined at ./src/pkg/store.py:5)" in out


def test_lines_ranks_files_without_a_total_line(box):
    out = run(box, "lines -g '*.md'").stdout.splitlines()
    assert out == ["4 ./docs/guide.md", "3 ./README.md"]
    smallest = run(box, "lines -r src/pkg").stdout.splitlines()
    assert smallest[0] == "0 src/pkg/__init__.py" and smallest[-1].endswith("store.py")
    assert run(box, "lines | head -n 1").stdout == "10000 ./big.txt\n"  # a pipe works as with any command


def test_tree_is_bounded_and_says_what_it_cut(box):
    out = run(box, "tree -L 1 src").stdout.splitlines()
    assert out == ["src/", "  a.py", "  b.py", "  broken.py", "  pkg/ (4 files below, not shown: `tree src/pkg`)"]
    full = run(box, "tree").stdout
    assert "  src/\n" in full and "linkdir" not in full and "fifo" not in full  # links and FIFOs are not walked


def test_tree_d_lists_directories_only(box):
    out = run(box, "tree -d -L 1 src").stdout.splitlines()
    assert out == ["src/", "  pkg/ (4 files below, not shown: `tree src/pkg`)"]
    assert run(box, "tree -d src").stdout.splitlines() == ["src/", "  pkg/"]


def test_nothing_found_is_no_match_and_a_missing_path_is_named_as_coreutils_do(box):
    r = run(box, "importers nowhere")
    assert r.returncode == 1 and r.no_match and not r.stdout  # an answer, like grep's
    r = run(box, "defs src/pkg/nope.py")
    assert r.returncode == 2 and "defs: src/pkg/nope.py: No such file or directory" in r.stderr
    assert "[ragix] skipped" not in run(box, "defs README.md").stderr
    assert "README.md: not a .py file" in run(box, "defs README.md").stderr


def test_the_traps_are_refused_or_never_read(box, world):
    for command in ("defs ../outside", "lines link_secret", "tree linkdir", "defs hard_secret", "lines fifo"):
        assert run(box, command).refused, command
    r = run(box, "lines")  # the whole tree: the hard-linked secret is skipped and said
    assert "hard_secret" not in r.stdout and "[ragix] skipped 1 multiply-linked file: ./hard_secret" in r.stderr
    assert run(box, "find src -name '*.py' | xargs defs").stdout.count(":\n") >= 3  # fed by xargs


def test_options_are_checked_like_any_tools(box):
    for command in ("defs --all .", "lines -x", "tree -L deep", "importers"):
        assert run(box, command).refused, command


def test_a_command_that_writes_says_so_in_its_result(world):
    box = ToolBox(world["proj"], profile="dev", sandbox="none", limits=TEST_LIMITS, assume_yes=True)
    assert box.run_command("mkdir newdir").changed and (world["proj"] / "newdir").is_dir()
    assert box.run_command("ls > listing.txt").changed
    assert not box.run_command("ls").changed


def test_tree_piped_into_another_stage_is_refused_saying_what_its_lines_are(box):
    # Measured on the three sets at bd99fa4: every `tree` was piped (`tree -d | wc -l`); 5 of 17 such runs passed.
    piped = box.run_command("tree -d | wc -l")
    assert piped.refused and "outline" in piped.error and "find" in piped.error and piped.stdout == ""
    assert not box.run_command("tree -d").refused  # alone it is the view it was made for
    assert not box.run_command("lines -g '*.py' . | head -n 1").refused  # other commands' lines are their rows
