"""`ragix exec` exit codes and output; the operator executor; structured arguments."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from ragix_core.cli import app
from ragix_core.core.types import ToolCall
from tests.tools.conftest import make_box

runner = CliRunner()


def _exec(world, *args):
    return runner.invoke(app, ["exec", "--root", str(world["proj"]), *args])


def test_cli_runs_a_pipeline(world):
    res = _exec(world, "find . -name '*.py' | sort")
    assert res.exit_code == 0 and res.stdout.splitlines() == ["./src/a.py", "./src/b.py"]


def test_cli_json(world):
    res = _exec(world, "--json", "wc -l README.md")
    data = json.loads(res.stdout)
    assert res.exit_code == 0 and data["stdout"] == "3 README.md\n" and data["refused"] is False
    assert data["command"].endswith("wc -l README.md")


def test_cli_argv_form(world):
    res = _exec(world, "--", "ls", "-d", "src")
    assert res.exit_code == 0 and res.stdout == "src\n"


def test_cli_refusal_is_json_and_exit_3(world):
    res = _exec(world, "ls && cat /etc/shadow")
    assert res.exit_code == 3
    data = json.loads(res.stdout)
    assert data["refused"] is True and "chaining" in data["reason"]


def test_cli_an_answer_in_exit_1_is_exit_0_and_named_in_the_json(world):
    res = _exec(world, "--json", "diff src/a.py src/b.py")
    data = json.loads(res.stdout)
    assert res.exit_code == 0 and data["returncode"] == 1 and data["answer_exit"] is True and data["stdout"]
    assert _exec(world, "diff src/a.py no-such-file").exit_code == 1


def test_cli_failed_command_exit_1(world):
    assert _exec(world, "ls no-such-file").exit_code == 1


@pytest.mark.parametrize("args", [["--profile", "root", "ls"], ["--sandbox", "docker", "ls"], ["--timeout", "-1", "ls"]])
def test_cli_usage_errors_exit_2(world, args):
    res = _exec(world, *args)
    assert res.exit_code == 2 and "Traceback" not in res.output


def test_cli_bad_root_exit_2(world):
    res = runner.invoke(app, ["exec", "--root", str(world["proj"] / "nope"), "ls"])
    assert res.exit_code == 2 and "not a directory" in res.output


def test_cli_safe_profile_refuses(world):
    assert _exec(world, "--profile", "safe", "ls").exit_code == 3


@pytest.mark.parametrize("args,expected", [
    ({"op": "solve", "expr": "x**2 - 4", "var": "x"}, "[-2, 2]"),
    ({"op": "diff", "expr": "sin(x)*x", "var": "x"}, "x*cos(x) + sin(x)"),
    ({"op": "integrate", "expr": "x**2", "var": "x", "lower": 0, "upper": 3}, "9"),
    ({"op": "factor", "expr": "x**2 - 1"}, "(x - 1)*(x + 1)"),
    ({"op": "evaluate", "expr": "sqrt(2)", "digits": 5}, "1.4142"),
    ({"op": "logic_simplify", "expr": "(a & b) | (a & ~b)"}, "a"),
    ({"op": "convert", "quantity": "3 km", "to": "m"}, "3000.0 meter"),
])
def test_operator(world, args, expected):
    # a generous wall clock: importing sympy/pint cold on a loaded machine takes seconds (no timing is tested)
    from ragix_core.tools import Limits

    result = make_box(world, "none", limits=Limits(timeout=60)).run(ToolCall("operator", args))
    assert result.ok, result
    assert result.stdout.strip() == expected


@pytest.mark.parametrize("args", [
    {"op": "evaluate", "expr": "__import__('os').system('id')"},
    {"op": "evaluate", "expr": "x.__class__"},
    {"op": "evaluate", "expr": "(lambda: 1)()"},
    {"op": "simplify", "expr": "open('/etc/passwd')"},
    {"op": "evaluate", "expr": "2**10**10"},
    {"op": "convert", "quantity": "3 parsecs of cheese", "to": "m"},
    {"op": "nuke"},
])
def test_operator_rejects_code_and_nonsense(world, args):
    result = make_box(world, "none").run(ToolCall("operator", args))
    assert not result.ok and result.error and "uid=" not in result.stdout


def test_operator_bad_args_refused(world):
    box = make_box(world, "none")
    assert box.run(ToolCall("operator", {"expr": "1"})).refused
    assert box.run(ToolCall("operator", {"op": "evaluate", "expr": ["1"]})).refused


def test_structured_grep_pattern_cannot_become_an_option(world):
    box = make_box(world, "none")
    result = box.run(ToolCall("grep", {"pattern": "--files0-from=/etc/passwd", "path": "README.md"}))
    assert not result.refused and result.returncode == 1  # searched literally, no match


def test_structured_unknown_keys_refused(world):
    box = make_box(world, "none")
    assert "unknown argument" in box.run(ToolCall("cat", {"path": "README.md", "sudo": True})).error
    assert box.run(ToolCall("grep", {"path": "."})).refused  # no pattern
    assert box.run(ToolCall("shell", {"command": "ls", "argv": ["ls"]})).refused


def test_doctor_check_reports_layers(monkeypatch):
    from ragix_core.cli import exec_cmd
    from ragix_core.cli.doctor_cmd import CHECKS

    assert exec_cmd.check_sandbox in CHECKS
    report = exec_cmd.check_sandbox(None)
    assert report["name"] == "tool sandbox" and report["layer1"] is True
    monkeypatch.setattr("ragix_core.tools.bwrap.find_bwrap", lambda: None)
    monkeypatch.setattr("ragix_core.tools.landlock.landlock_abi", lambda: 0)
    report = exec_cmd.check_sandbox(None)
    assert report["ok"] is None and report["summary"].startswith("WARNING")


def test_run_accepts_a_planner_dict(world):
    box = make_box(world, "none")
    assert box.run({"tool": "wc", "args": {"args": ["-l", "README.md"]}}).stdout == "3 README.md\n"
    assert box.run({"args": {}}).refused
    assert box.run({"tool": "ls", "args": "not-a-dict"}).refused
