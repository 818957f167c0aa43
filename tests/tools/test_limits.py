"""Limits: timeout kills the whole tree (setsid included), output cap, file size, CPU."""

from __future__ import annotations

import os

import pytest

from ragix_core.core.types import ToolCall
from ragix_core.tools import Limits
from tests.tools.conftest import make_box, sandboxes
from tests.tools.helpers import survivors, wait_no_survivors


def test_output_cap_marks_truncated(world, layer1):
    result = layer1.run_command("cat big.txt")
    assert result.truncated and len(result.stdout) == layer1.limits.output_bytes
    assert result.returncode == 0  # drained to the end: the real exit code


def test_small_output_not_truncated(layer1):
    result = layer1.run_command("head -n 3 big.txt")
    assert not result.truncated and result.stdout.count("\n") == 3


def test_pipeline_cap_between_stages(world):
    box = make_box(world, "none", limits=Limits(timeout=5, pipe_bytes=1000, drain_bytes=1 << 20))
    result = box.run_command("cat big.txt | wc -c")
    assert result.stdout.strip() == "1000" and result.truncated


@pytest.mark.parametrize("sandbox", sandboxes())
def test_timeout_kills_setsid_children(world, sandbox):
    box = make_box(world, sandbox, profile="sovereign", limits=Limits(timeout=1.0))
    result = box.run_command("sh -c 'setsid sleep 987101 & setsid -f sleep 987102; sleep 987103'")
    assert result.error and "timed out" in result.error
    for marker in ("987101", "987102", "987103"):
        assert wait_no_survivors(marker) == [], marker


@pytest.mark.parametrize("sandbox", sandboxes())
def test_orphans_killed_after_normal_exit(world, sandbox):
    box = make_box(world, sandbox, profile="sovereign")
    result = box.run_command("sh -c 'setsid -f sleep 987201; echo done'")
    assert result.stdout == "done\n" and result.error is None and result.returncode == 0
    assert wait_no_survivors("987201") == []


@pytest.mark.parametrize("sandbox", sandboxes())
def test_background_child_holding_stdout_does_not_hang(world, sandbox):
    box = make_box(world, sandbox, profile="sovereign", limits=Limits(timeout=20))
    result = box.run_command("sh -c 'sleep 987401 & echo hi'")
    assert result.stdout == "hi\n" and result.error is None
    assert wait_no_survivors("987401") == []


@pytest.mark.parametrize("sandbox", sandboxes())
def test_python_limits(world, sandbox):
    box = make_box(world, sandbox, profile="sovereign", limits=Limits(timeout=10, cpu_seconds=1, memory_bytes=512 << 20))
    spin = box.run(ToolCall("python", {"code": "while True: pass"}))
    assert spin.returncode != 0 and spin.error
    hog = box.run(ToolCall("python", {"code": "x = bytearray(2 << 30)"}))
    assert hog.returncode != 0 and "MemoryError" in hog.stderr


@pytest.mark.parametrize("sandbox", sandboxes())
def test_python_sees_no_environment_or_outside(world, sandbox):
    box = make_box(world, sandbox, profile="sovereign")
    # Landlock does not hide that a path exists (stat is not restricted), only its content.
    code = (f"import os\nprint(sorted(os.environ))\ntry:\n    print(open({str(world['secret'])!r}).read())\n"
            "except OSError as e:\n    print('denied', type(e).__name__)")
    result = box.run(ToolCall("python", {"code": code}))
    assert result.ok, result
    assert "RAGIX_TEST_SECRET" not in result.stdout
    assert "S3CRET" not in result.stdout and "denied" in result.stdout


def test_python_refused_without_os_sandbox(world):
    box = make_box(world, "none", profile="dev", assume_yes=True)
    result = box.run(ToolCall("python", {"code": "print(1)"}))
    assert result.refused and "sandbox" in result.error


def test_no_survivors_helper_sees_processes():
    import subprocess

    import time

    proc = subprocess.Popen(["/usr/bin/sleep", "987301"])
    try:
        for _ in range(50):  # until the child has exec'd
            if survivors("987301"):
                break
            time.sleep(0.05)
        assert survivors("987301") == [proc.pid]
    finally:
        proc.kill()
        proc.wait()


@pytest.mark.parametrize("sandbox", sandboxes())
def test_python_has_a_private_temp_dir(world, sandbox):
    box = make_box(world, sandbox, profile="sovereign")
    code = "import tempfile\nwith tempfile.TemporaryFile() as f:\n    f.write(b'ok'); f.seek(0); print(f.read().decode())"
    result = box.run(ToolCall("python", {"code": code}))
    assert result.ok and result.stdout == "ok\n", result


def test_recursive_grep_skips_fifos_in_the_tree(world):
    """grep -r skips FIFOs met while recursing (only operands are read), so layer 1
    needs to refuse FIFOs as operands, not inside searched trees."""
    sub = world["proj"] / "withfifo"
    sub.mkdir()
    os.mkfifo(sub / "pipe")
    (sub / "f.txt").write_text("needle\n")
    box = make_box(world, "none", limits=Limits(timeout=10))
    result = box.run_command("grep -r needle withfifo")
    assert result.ok and result.stdout == "withfifo/f.txt:needle\n" and result.error is None
