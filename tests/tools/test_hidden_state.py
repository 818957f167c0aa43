"""ragix's own state (.ragix: traces, experience) is never read back as project evidence."""

from pathlib import Path

import pytest

from ragix_core.tools import ToolBox
from ragix_core.tools.bwrap import find_bwrap


@pytest.fixture()
def project(tmp_path: Path) -> Path:
    (tmp_path / ".ragix" / "reasoning_traces").mkdir(parents=True)
    (tmp_path / ".ragix" / "reasoning_traces" / "s.jsonl").write_text('{"goal": "find def execute"}\n')
    (tmp_path / "a.py").write_text("def execute():\n    pass\n")
    return tmp_path


@pytest.mark.parametrize("sandbox", ["none", "bwrap"])
def test_naming_the_state_dir_is_refused(project, sandbox):
    if sandbox == "bwrap" and not find_bwrap():
        pytest.skip("bubblewrap not installed")
    tb = ToolBox(project, profile="reflect", sandbox=sandbox)
    for cmd in ("cat .ragix/reasoning_traces/s.jsonl", "grep -rn execute .ragix", "ls .ragix"):
        r = tb.run_command(cmd)
        assert r.refused and "ragix's own state" in r.error, cmd


@pytest.mark.skipif(not find_bwrap(), reason="bubblewrap not installed")
def test_recursive_search_does_not_see_the_state_dir_under_bwrap(project):
    tb = ToolBox(project, profile="reflect", sandbox="bwrap")
    out = tb.run_command("grep -rn execute .").stdout
    assert "a.py" in out and ".ragix" not in out
    assert tb.run_command("find . -type f").stdout.split() == ["./a.py"]


def test_xargs_wc_drops_the_per_batch_total_but_direct_wc_keeps_it(tmp_path):
    (tmp_path / "a.md").write_text("1\n2\n3\n")
    (tmp_path / "b.md").write_text("1\n")
    tb = ToolBox(tmp_path, profile="reflect", sandbox="none")
    out = tb.run_command("find . -name '*.md' | xargs wc -l | sort -nr").stdout
    assert out.split("\n")[0].strip() == "3 ./a.md" and "total" not in out
    assert "4 total" in tb.run_command("wc -l a.md b.md").stdout


def test_xargs_grep_names_the_file_of_a_one_item_batch(tmp_path):
    # GNU grep names files only when it has several; under xargs a batch of one printed bare lines
    # (measured, largest-md-headings: README.md's headings were put under another file).
    (tmp_path / "a.md").write_text("# A\n## One\n")
    (tmp_path / "b.md").write_text("## Two\n")
    tb = ToolBox(tmp_path, profile="reflect", sandbox="none")
    assert tb.run_command("find . -name 'a.md' | xargs grep -n '## '").stdout == "./a.md:2:## One\n"
    assert sorted(tb.run_command("find . -name '*.md' | xargs -n 1 grep '## '").stdout.splitlines()) == \
        ["./a.md:## One", "./b.md:## Two"]
    assert tb.run_command("find . -name 'a.md' | xargs grep -h '## '").stdout == "## One\n"  # names chosen off
    assert tb.run_command("find . -name 'a.md' | xargs grep -c '## '").stdout == "./a.md:1\n"
    assert tb.run_command("grep -n '## ' a.md").stdout == "2:## One\n"  # a direct grep runs as written


def test_xargs_awk_reads_every_found_file_and_no_file_named_dashes(tmp_path):
    # measured on AgentBench OS (a0b5077): the "--" ragix puts before xargs' items is a file to awk
    (tmp_path / "a.txt").write_text("1\n2\n")
    (tmp_path / "-b.txt").write_text("3\n")
    (tmp_path / "x=1.txt").write_text("4\n")
    tb = ToolBox(tmp_path, profile="reflect", sandbox="none")
    r = tb.run_command("find . -name '*.txt' | xargs awk '{sum += $1} END {print sum}'")
    assert r.ok and r.stdout == "10\n", (r.stdout, r.stderr)
    named = tb.run_command("ls | xargs awk 'END {print NR}'")  # bare names: -b.txt and x=1.txt read as files
    assert named.ok and named.stdout == "4\n", (named.stdout, named.stderr)
