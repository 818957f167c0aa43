import json
import os
import pickle
import subprocess
import zipfile
from pathlib import Path

import pytest

from ragix_core.core.types import ToolResult
from ragix_core.eval.benchmarks import BenchmarkError, benchmark_scenarios
from ragix_core.eval.benchmarks.nl2bash import find_wheel, nl2bash_scenarios, rewrite_task
from ragix_core.eval.benchmarks.nl2bash_gold import unsafe
from ragix_core.eval.benchmarks.nl2bash_tree import run_bash, snapshot, vet_setup
from ragix_core.eval.evaluate import evaluate_run
from ragix_core.eval.scenario import checker_takes_outputs
from ragix_core.eval.workspace import working_copy
from tests.eval.fakes import make_result

ASSETS = "icalfa/assets/"
HINT = "pip download --no-deps icalfa==0.3.6 -d .bench"


def make_wheel(tmp_path, tasks, script):
    d = tmp_path / "bench"
    d.mkdir(exist_ok=True)
    with zipfile.ZipFile(d / "icalfa-0.0.0-py3-none-any.whl", "w") as zf:
        zf.writestr(ASSETS + "datasets/nl2bash_fs_1.json", tasks if isinstance(tasks, str) else json.dumps(tasks))
        zf.writestr(ASSETS + "docker/setup_nl2b_fs_1.sh", script)
    return d


SCRIPT = """#!/bin/bash
rm -rf /testbed/
mkdir -p /testbed/dir1
echo -e 'a\\nb' > /testbed/dir1/ab.txt
echo 'hello' > /testbed/top.txt
echo '<html></html>' > /index.html
"""
TASKS = [
    {"query": "list files in the current directory", "gold": "ls"},  # not about /testbed: not a task here
    {"query": "Print the lines of /testbed/dir1/ab.txt", "gold": "cat /testbed/dir1/ab.txt"},
    {"query": "Copy /testbed/top.txt to /testbed/dir1", "gold": "cp /testbed/top.txt /testbed/dir1/"},
    {"query": "Who owns the testbed directory?", "gold": "chown nobody /testbed/top.txt"},
    {"query": "x", "gold": "cat /testbed/missing.txt"},
    {"query": "x", "gold": "find /testbed -type l"},
    {"query": "x", "gold": "echo $RANDOM > /testbed/r.txt"},
    {"query": "x", "gold": "tar -cf /testbed/t.tar /testbed/top.txt"},
    {"query": "x", "gold": "cp /testbed/top.txt ."},
    {"query": "x", "gold": "ls /etc > /testbed/etc.txt"},
]


@pytest.fixture(params=["here", "sent"])
def small(request, tmp_path, monkeypatch):
    """The scenarios as loaded, and as a worker process gets them (``ragix eval --jobs``: pickled, the
    fixture tree sent as bytes and rebuilt in a directory of its own)."""
    monkeypatch.setenv("RAGIX_BENCH_DIR", str(make_wheel(tmp_path, TASKS, SCRIPT)))
    skipped = []
    scenarios = nl2bash_scenarios(("fs_1",), skipped=skipped)
    if request.param == "sent":
        sent = pickle.loads(pickle.dumps(scenarios))
        assert sent[0].setup.fixture.root != scenarios[0].setup.fixture.root
        assert snapshot(sent[0].setup.fixture.root) == scenarios[0].setup.fixture.snapshot  # modes, mtimes too
        scenarios = sent
    return scenarios, dict(skipped)


def test_a_fixture_sent_to_a_worker_keeps_its_special_mode_bits(tmp_path, monkeypatch):
    # fs_1 has a file of mode 1553; the unpacker clears sticky/setuid/setgid bits unless they are set back.
    script = SCRIPT + "echo 'sticky' > /testbed/dir1/sticky.txt\nchmod 1553 /testbed/dir1/sticky.txt\n"
    monkeypatch.setenv("RAGIX_BENCH_DIR", str(make_wheel(tmp_path, TASKS, script)))
    fixture = nl2bash_scenarios(("fs_1",))[0].setup.fixture
    assert fixture.snapshot["dir1/sticky.txt"][1] == 0o1553
    sent = pickle.loads(pickle.dumps(fixture))
    assert snapshot(sent.root) == fixture.snapshot


def test_small_fixture_tasks_and_skips(small):
    scen, skipped = small
    assert [s.id for s in scen] == ["nl2bash-fs_1-1", "nl2bash-fs_1-2"]
    assert scen[0].input == "Print the lines of ./dir1/ab.txt" and "read task" in scen[0].description
    assert "write task" in scen[1].description
    assert set(skipped) == {f"nl2bash-fs_1-{i}" for i in range(3, 10)}
    assert "chown" in skipped["nl2bash-fs_1-3"]
    assert "fails" in skipped["nl2bash-fs_1-4"] and "missing.txt" in skipped["nl2bash-fs_1-4"]
    assert "prints nothing" in skipped["nl2bash-fs_1-5"]
    assert "RANDOM" in skipped["nl2bash-fs_1-6"]
    assert "nondeterministic" in skipped["nl2bash-fs_1-7"]  # tar stores the copy's own path
    assert "writes outside /testbed" in skipped["nl2bash-fs_1-8"]
    assert "/etc" in skipped["nl2bash-fs_1-9"]


def test_setup_builds_the_tree_without_what_is_outside_testbed(small):
    scen, _ = small
    with working_copy(None) as work:
        scen[0].setup(work)
        assert (work / "dir1" / "ab.txt").read_text() == "a\nb\n"
        assert sorted(p.name for p in work.iterdir()) == ["dir1", "top.txt"]  # no index.html
    assert not Path("/index.html").exists() or Path("/index.html").read_text() != "<html></html>\n"


def test_read_task_passes_on_the_printed_lines_or_the_answer(small):
    read = small[0][0]
    with working_copy(None) as work:
        read.setup(work)
        assert read.checker("The file holds:\na\nb", work, outputs=[])[0]
        assert read.checker("done", work, outputs=["a\nb\n"])[0]
        assert read.checker("b", work, outputs=["a\n"])[0]  # one line printed, the other said
        ok, detail = read.checker("a", work, outputs=["ab\n"])  # "b" is neither a line printed nor a word said
        assert not ok and "'b'" in detail
        assert not read.checker("The file has 2 lines.", work)[0]


def test_write_task_passes_on_the_gold_tree_only(small):
    write = small[0][1]
    with working_copy(None) as work:
        write.setup(work)
        ok, detail = write.checker("Copied.", work)
        assert not ok and "dir1/top.txt missing" in detail
        (work / "dir1" / "top.txt").write_text("hello\n")
        assert write.checker("Copied.", work)[0]
        (work / "dir1" / "top.txt").chmod(0o600)
        assert "mode 600, expected 644" in write.checker("Copied.", work)[1]


def test_the_harness_hands_the_step_outputs_to_the_checker(small):
    read = small[0][0]
    with working_copy(None) as work:
        read.setup(work)
        res = make_result("Printed above.", ["cat dir1/ab.txt"])
        res.state.executed_steps[0].result = ToolResult(tool="shell", returncode=0, stdout="a\nb\n")
        assert evaluate_run(read, res, workdir=work).passed
        assert not evaluate_run(read, make_result("Printed above.", ["cat dir1/ab.txt"]), workdir=work).passed


@pytest.mark.parametrize("text, want", [
    ("create a copy of /testbed/hello.php named /testbed/hello-COPY.php",
     "create a copy of ./hello.php named ./hello-COPY.php"),
    ("Count files in the entire testbed directory", "Count files in the entire current directory"),
    ("files under the directory /testbed", "files under the current directory"),
    ("under the '/testbed' directory to '/testbed/dir3/tmp'", "under the current directory to './dir3/tmp'"),
    ("paths under \"testbed/dir1\"", "paths under \"./dir1\""),
    ("in /testbed folder and sub folders", "in the current directory and sub folders"),
    ("files in testbed.", "files in the current directory."),
])
def test_task_text_calls_the_tree_the_current_directory(text, want):
    assert rewrite_task(text) == want


def test_unsafe_gold_commands():
    assert unsafe("ls -d /testbed/*/ | grep -v /subdir1/") == ""  # a pattern, not a path
    assert unsafe("awk '/[a-z]/ {i++}' /testbed/x") == ""
    assert "outside" in unsafe("awk '/x/ {print > \"/etc/y\"}' /testbed/x")
    assert unsafe("find /testbed -exec /bin/echo {} \\; 2>/dev/null") == ""
    assert "outside" in unsafe("ln /testbed/x -s /") and "outside" in unsafe("cat /testbed/../etc/passwd")
    assert "hostname" in unsafe('awk -v h="$(hostname)" 1 /testbed/x')


def test_setup_script_lines_are_vetted():
    keep, dropped = vet_setup("mkdir -p /testbed/a\necho 'x' > /index.html\n# comment\n")
    assert keep == ["mkdir -p /testbed/a"] and dropped == ["echo 'x' > /index.html"]
    for bad in ("curl http://x > /testbed/a", "echo $HOME > /testbed/a", "echo x; rm -rf /", "ls | tee /testbed/a"):
        with pytest.raises(BenchmarkError, match="unsupported command"):
            vet_setup(bad)


@pytest.mark.parametrize("tasks, fragment", [
    ({"query": "x"}, "expected a list of tasks"),
    ([{"query": "x", "gold": 3}], "task #0 is not a mapping with a string query and gold"),
    ("not json", "cannot read NL2Bash data"),
])
def test_malformed_data_is_a_benchmark_error(tasks, fragment, tmp_path, monkeypatch):
    monkeypatch.setenv("RAGIX_BENCH_DIR", str(make_wheel(tmp_path, tasks, SCRIPT)))
    with pytest.raises(BenchmarkError, match=fragment):
        nl2bash_scenarios(("fs_1",))


def test_missing_file_bad_script_and_bad_spec_are_benchmark_errors(tmp_path, monkeypatch):
    monkeypatch.setenv("RAGIX_BENCH_DIR", str(make_wheel(tmp_path, TASKS, SCRIPT + "curl http://x\n")))
    with pytest.raises(BenchmarkError, match="setup script line 7: unsupported command 'curl"):
        nl2bash_scenarios(("fs_1",))
    with pytest.raises(BenchmarkError, match="cannot read NL2Bash data.*nl2bash_fs_5.json"):  # not in this wheel
        nl2bash_scenarios(("fs_5",))
    with pytest.raises(BenchmarkError, match=r"expected bench:nl2bash\[:fs_1\|fs_5\]"):
        benchmark_scenarios("bench:nl2bash:fs_2")


def test_missing_wheel_says_how_to_get_it(no_bench_data):
    with pytest.raises(BenchmarkError, match="pip download --no-deps icalfa==0.3.6"):
        find_wheel()


# The real package (scripts/test.sh downloads it to .bench).

def real_wheel() -> Path:
    try:
        wheel = find_wheel()
    except BenchmarkError:
        pytest.skip(f"icalfa wheel not in .bench ({HINT})")
    if "0.0.0" in wheel.name:
        pytest.skip("test wheel")
    return wheel


@pytest.fixture(scope="module")
def real():
    wheel = real_wheel()
    skipped = []
    scen = benchmark_scenarios("bench:nl2bash", skipped=skipped)
    with zipfile.ZipFile(wheel) as zf:
        gold = {f"nl2bash-{name}-{i}": rec["gold"] for name in ("fs_1", "fs_5")
                for i, rec in enumerate(json.loads(zf.read(f"{ASSETS}datasets/nl2bash_{name}.json")))}
    return {s.id: s for s in scen}, dict(skipped), gold


def test_real_task_count_and_skips(real):
    scen, skipped, gold = real
    assert len([g for g in gold.values() if "/testbed" in g]) == 66 == len(scen) + len(skipped)
    assert len(scen) == 55 and sum("read task" in s.description for s in scen.values()) == 42
    assert sorted(skipped) == sorted(["nl2bash-fs_1-43", "nl2bash-fs_1-62", "nl2bash-fs_1-63", "nl2bash-fs_1-64",
                                      "nl2bash-fs_1-111", "nl2bash-fs_1-120", "nl2bash-fs_1-139", "nl2bash-fs_1-150",
                                      "nl2bash-fs_5-4", "nl2bash-fs_5-9", "nl2bash-fs_5-12"])
    assert "test.txt" in skipped["nl2bash-fs_1-64"]  # made by another task (fs_1-4)
    assert "/var/log/" in skipped["nl2bash-fs_1-139"]
    assert not [s.id for s in scen.values() if "testbed" in s.input]
    assert [s.id for s in benchmark_scenarios("bench:nl2bash:fs_5")] == [i for i in scen if "fs_5" in i]


def test_every_real_task_passes_with_its_gold_command_and_fails_without(real):
    scen, _, gold = real
    for sid, s in scen.items():
        with working_copy(None) as work:
            s.setup(work)
            reads = checker_takes_outputs(s.checker)
            assert reads == ("read task" in s.description), sid
            assert not s.checker("I could not do it.", work, **({"outputs": []} if reads else {}))[0], sid
            p = run_bash(gold[sid], work)  # the gold command run by the agent, in its working copy
            ok, detail = s.checker("Done.", work, **({"outputs": [p.stdout]} if reads else {}))
            assert ok, f"{sid}: {detail}"


def test_real_read_task_with_relative_commands(real):
    scen = real[0]
    s = scen["nl2bash-fs_1-125"]  # md5sum of the *.py files
    with working_copy(None) as work:
        s.setup(work)
        here = dict(cwd=work, capture_output=True, text=True)
        right = subprocess.run("find . -type f -name '*.py' -exec md5sum {} +", shell=True, **here).stdout
        wrong = subprocess.run("find . -type f -name '*.sh' -exec md5sum {} +", shell=True, **here).stdout
        assert "  ./dir" in right and s.checker("Done.", work, outputs=[right])[0]  # relative, gold's absolute
        assert not s.checker("Done.", work, outputs=[wrong])[0]
    count = scen["nl2bash-fs_5-0"]  # find /testbed | wc -l
    with working_copy(None) as work:
        count.setup(work)
        n = sum(1 for _ in os.walk(work)) + sum(len(f) for _, _, f in os.walk(work))
        assert count.checker(f"There are {n} files and directories.", work)[0]
        assert not count.checker(f"There are {n + 1} files and directories.", work)[0]


def test_real_write_tasks(real):
    scen = real[0]
    link = scen["nl2bash-fs_1-61"]  # ln -s /testbed/hello.php /testbed/link
    with working_copy(None) as work:
        link.setup(work)
        assert not link.checker("Done.", work)[0]
        os.symlink("hello.php", work / "link")  # relative, where the gold link is absolute: the same link
        assert link.checker("Done.", work)[0]
    sed = scen["nl2bash-fs_5-16"]  # Hello -> Hi in place
    with working_copy(None) as work:
        sed.setup(work)
        assert not sed.checker("Done.", work)[0]
        for p in work.rglob("*"):
            if p.is_file() and "Hello" in p.read_text():
                p.write_text(p.read_text().replace("Hello", "Hi"))
        assert sed.checker("Done.", work)[0]
