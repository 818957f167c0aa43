"""ragix's own state (.ragix: traces, experience) is never read back as project evidence."""

from pathlib import Path

import pytest

from ragix_core.tools import ToolBox
from ragix_core.tools.bwrap import find_bwrap
from ragix_core.tools.find_exec import find_exec_as_xargs


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


def test_xargs_wc_prints_one_total_over_the_input_like_bash(tmp_path):
    # One batch is what bash runs: its total covers the input, and `| tail -n 1` is how a model sums
    # lines (NL2Bash fs_1-124: with the total dropped, the writer answered "1 total" for 4 lines).
    (tmp_path / "a.md").write_text("1\n2\n3\n")
    (tmp_path / "b.md").write_text("1\n")
    tb = ToolBox(tmp_path, profile="reflect", sandbox="none")
    assert tb.run_command("find . -name '*.md' | xargs wc -l | tail -n 1").stdout.split() == ["4", "total"]
    out = tb.run_command("find . -name '*.md' | xargs wc -l").stdout.splitlines()
    assert sorted(line.split()[1] for line in out[:-1]) == ["./a.md", "./b.md"] and len(out) == 3


def test_xargs_wc_over_several_batches_ends_with_one_total_of_all(tmp_path):
    for i in range(5):
        (tmp_path / f"f{i}.md").write_text("x y\n" * (i + 1))  # 1..5 lines, 15 in all
    tb = ToolBox(tmp_path, profile="reflect", sandbox="none")
    out = tb.run_command("find . -name '*.md' | xargs -n 2 wc -l").stdout.splitlines()
    assert [line for line in out if "total" in line] == ["15 total"] and out[-1] == "15 total"
    assert len(out) == 6  # five files, one total: no batch's own total is left
    assert tb.run_command("find . -name '*.md' | xargs -n 2 wc -lw").stdout.splitlines()[-1].split() == \
        ["15", "30", "total"]
    assert "total" not in tb.run_command("find . -name '*.md' | xargs -n 1 wc -l").stdout  # bash prints none
    assert "total" not in tb.run_command("find . -name '*.md' | xargs -n 2 wc -L").stdout  # a maximum, not a sum


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
    # head/tail pick lines by position: the reader still sees grep's lines, named
    assert tb.run_command("find . -name 'a.md' | xargs grep -n '## ' | head -n 1").stdout == "./a.md:2:## One\n"


def test_xargs_grep_piped_on_prints_the_bare_lines_gnu_prints(tmp_path):
    # A later stage was written for GNU's output: measured on AgentBench OS (aad8506),
    # `find sample_files -type f -exec grep -oP IP {} \; | sort | uniq | wc -l` counted FILE:IP pairs
    # (4) where the files held 3 addresses, and `| awk '{sum += $1}'` over named matches sums 0.
    (tmp_path / "a.log").write_text("10.0.0.1 up\n10.0.0.2 up\n")
    (tmp_path / "b.log").write_text("10.0.0.1 down\n")
    tb = ToolBox(tmp_path, profile="reflect", sandbox="none")
    ip = r"'[0-9]+\.[0-9]+\.[0-9]+\.[0-9]+'"
    as_written = f"find . -name '*.log' -exec grep -oE {ip} {{}} \\; | sort | uniq | wc -l"
    for cmd in (f"find . -name '*.log' -print0 | xargs -0 -n 1 grep -oE {ip} | sort | uniq | wc -l",
                find_exec_as_xargs(as_written)[0]):  # what the engine runs for the -exec
        r = tb.run_command(cmd)
        assert r.ok and r.stdout.strip() == "2", (cmd, r.stdout, r.stderr)
    summed = tb.run_command("find . -name 'b.log' | xargs grep -oE '^[0-9]+' | awk '{sum += $1} END {print sum}'")
    assert summed.stdout == "10\n", summed.stdout
    assert tb.run_command("find . -name 'a.log' | xargs grep -c up | head -c 3").stdout == "2\n"  # bytes: read on
    writer = ToolBox(tmp_path, profile="dev", sandbox="none", assume_yes=True)
    assert writer.run_command("find . -name 'a.log' | xargs grep -c up > counts.txt").ok
    assert (tmp_path / "counts.txt").read_text() == "2\n"  # the file holds what bash would have written


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
