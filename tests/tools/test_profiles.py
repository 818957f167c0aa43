"""Profiles enforced by the executor: safe, reflect, dev (approval), sovereign."""

from __future__ import annotations

import subprocess

import pytest

from ragix_core.core.events import EventBus, EventKind
from ragix_core.core.types import ToolCall
from ragix_core.tools import ToolBox
from tests.tools.conftest import HAS_BWRAP, TEST_LIMITS, make_box, sandboxes

needs_bwrap = pytest.mark.skipif(not HAS_BWRAP, reason="bubblewrap not installed")


def test_safe_starts_no_process(world, monkeypatch):
    def forbidden(*a, **k):
        raise AssertionError("safe started a process")

    monkeypatch.setattr(subprocess, "Popen", forbidden)
    box = ToolBox(world["proj"], profile="safe", sandbox="none")
    assert box.allowed_tools == []
    for call in [ToolCall("shell", {"command": "ls"}), ToolCall("ls", {}), ToolCall("python", {"code": "1"}),
                 ToolCall("operator", {"op": "evaluate", "expr": "1+1"})]:
        result = box.run(call)
        assert result.refused and "safe" in result.error


def test_reflect_is_read_only(world):
    box = make_box(world, "none")
    assert "shell" in box.allowed_tools and "ls" in box.allowed_tools
    assert not {"mkdir", "rm", "python", "write_file"} & set(box.allowed_tools)
    for cmd in ["mkdir x", "touch x", "rm README.md", "cp README.md x", "mv README.md x"]:
        result = box.run_command(cmd)
        assert result.refused, cmd
    assert box.run(ToolCall("python", {"code": "print(1)"})).refused
    assert box.run(ToolCall("write_file", {"path": "x", "content": "y"})).refused
    assert not (world["proj"] / "x").exists()


def test_unknown_tool_is_named(world):
    result = make_box(world, "none").run(ToolCall("rsync", {"args": ["-a"]}))
    assert result.refused and "'rsync'" in result.error


def test_dev_non_interactive_needs_yes(world):
    box = make_box(world, "none", profile="dev", interactive=False)
    result = box.run_command("mkdir newdir")
    assert result.refused and "--yes" in result.error
    assert not (world["proj"] / "newdir").exists()
    # reads need no approval
    assert box.run_command("wc -l README.md").ok


@pytest.mark.parametrize("sandbox", [pytest.param("none", id="layer1")] + sandboxes())
def test_dev_writes_with_yes(world, sandbox):
    box = make_box(world, sandbox, profile="dev", assume_yes=True)
    assert box.run_command("mkdir -p newdir/sub").ok
    assert box.run_command("cp README.md newdir/copy.md").ok
    assert (world["proj"] / "newdir" / "copy.md").read_text().startswith("# Demo")
    assert box.run(ToolCall("write_file", {"path": "newdir/w.txt", "content": "hi\n"})).ok
    assert (world["proj"] / "newdir" / "w.txt").read_text() == "hi\n"
    assert box.run_command("rm -r newdir").ok
    assert not (world["proj"] / "newdir").exists()


def test_dev_interactive_approval(world):
    asked = []
    box = make_box(world, "none", profile="dev", interactive=True, approver=lambda d: asked.append(d) or False)
    result = box.run_command("touch made.txt")
    assert result.refused and "not approved" in result.error and asked == ["touch made.txt"]
    box = make_box(world, "none", profile="dev", interactive=True, approver=lambda d: True)
    assert box.run_command("touch made.txt").ok and (world["proj"] / "made.txt").exists()


@pytest.mark.parametrize("target", [".git/hooks/pre-commit", ".git/config", "ragix.yaml", ".ragix/x", ".git",
                                    "../outside/new.txt", "link_secret", "linkdir/new.txt", "."])
def test_dev_protected_targets(world, target):
    (world["proj"] / ".git" / "hooks").mkdir(parents=True)
    box = make_box(world, "none", profile="dev", assume_yes=True)
    assert box.run(ToolCall("write_file", {"path": target, "content": "x"})).refused
    assert box.run_command(f"touch {target}").refused
    assert box.run_command(f"cp README.md {target}").refused
    assert not (world["outside"] / "new.txt").exists()


def test_dev_cannot_copy_a_hard_linked_secret(world):
    box = make_box(world, "none", profile="dev", assume_yes=True)
    assert box.run_command("cp hard_secret copy.txt").refused
    assert box.run_command("cp -r . ../outside/dup").refused


@pytest.mark.parametrize("sandbox", sandboxes())
def test_dev_python_cannot_touch_git_hooks(world, sandbox):
    hooks = world["proj"] / ".git" / "hooks"
    hooks.mkdir(parents=True)
    box = make_box(world, sandbox, profile="dev", assume_yes=True)
    code = "open('.git/hooks/pre-commit', 'w').write('#!/bin/sh\\nid\\n')"
    result = box.run(ToolCall("python", {"code": code}))
    assert result.returncode != 0 and ("Read-only file system" in result.stderr or "Permission denied" in result.stderr)
    assert not (hooks / "pre-commit").exists()
    ok = box.run(ToolCall("python", {"code": "open('src/made_by_python.txt','w').write('ok')"}))
    assert ok.ok, ok
    assert (world["proj"] / "src" / "made_by_python.txt").read_text() == "ok"


@pytest.mark.parametrize("sandbox", sandboxes())
def test_dev_python_cannot_plant_a_ragix_config(world, sandbox):
    box = make_box(world, sandbox, profile="dev", assume_yes=True)
    result = box.run(ToolCall("python", {"code": "open('ragix.yaml', 'w').write('profile: sovereign\\n')"}))
    assert not result.ok
    assert not (world["proj"] / "ragix.yaml").exists()


def test_sovereign_needs_an_os_sandbox(world):
    box = make_box(world, "none", profile="sovereign")
    result = box.run_command("echo hi")
    assert result.refused and "sandbox" in result.error


@pytest.mark.parametrize("sandbox", sandboxes())
def test_sovereign_any_command_still_confined(world, sandbox):
    box = make_box(world, sandbox, profile="sovereign")
    assert box.run_command("echo hi").stdout == "hi\n"
    result = box.run_command(f"cat {world['secret']}")
    assert result.returncode != 0 and "S3CRET" not in result.stdout
    result = box.run_command(f"sh -c 'echo x > {world['outside']}/new.txt'")
    assert result.returncode != 0 and not (world["outside"] / "new.txt").exists()


@pytest.mark.parametrize("sandbox", sandboxes())
def test_sovereign_has_no_network_by_default(world, sandbox):
    # A listener on the host's loopback: reachable from any process that shares the host's
    # network, unreachable from a sandbox with its own (empty) network namespace or a
    # Landlock network rule. No traffic ever leaves the machine.
    import socket

    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(1)
    port = listener.getsockname()[1]
    try:
        box = make_box(world, sandbox, profile="sovereign")
        code = (f"import socket\ntry:\n    socket.create_connection(('127.0.0.1', {port}), timeout=1)\n"
                "    print('CONNECTED')\nexcept OSError as e:\n    print('blocked', e.errno)")
        result = box.run(ToolCall("python", {"code": code}))
        assert result.ok and "blocked" in result.stdout and "CONNECTED" not in result.stdout
    finally:
        listener.close()


def test_bad_construction_is_a_clear_error(world):
    with pytest.raises(ValueError, match="unknown profile"):
        ToolBox(world["proj"], profile="root")
    with pytest.raises(ValueError, match="not a directory"):
        ToolBox(world["proj"] / "README.md")
    with pytest.raises(ValueError, match="system directory"):
        ToolBox("/")
    with pytest.raises(ValueError, match="unknown sandbox"):
        ToolBox(world["proj"], sandbox="docker")


def test_events_for_runs_and_refusals(world):
    bus, events = EventBus(), []
    bus.subscribe(events.append)
    box = ToolBox(world["proj"], sandbox="none", events=bus, session_id="s1", limits=TEST_LIMITS)
    box.run_command("find . -name '*.md' | xargs wc -l")
    box.run_command("cat /etc/shadow")
    assert all(e.kind is EventKind.TOOL_CALL and e.session_id == "s1" for e in events)
    ran = [e.data for e in events if not e.data["refused"]]
    assert [d["tool"] for d in ran] == ["find", "wc"]
    assert ran[1]["argv"][0] == "/usr/bin/wc" and "--" in ran[1]["argv"] and "./README.md" in ran[1]["command"]
    refused = [e.data for e in events if e.data["refused"]]
    assert len(refused) == 1 and refused[0]["command"] == "cat /etc/shadow" and "outside" in refused[0]["reason"]
    for d in ran + refused:
        assert {"tool", "command", "argv", "returncode", "refused", "reason", "duration", "truncated", "profile"} <= set(d)
