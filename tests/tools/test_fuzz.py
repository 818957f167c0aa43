"""Hypothesis: the validator never raises anything but Refusal and never admits a path outside the root."""

from __future__ import annotations

import os

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ragix_core.core.types import ToolCall, ToolResult
from ragix_core.tools import Refusal, ToolBox
from ragix_core.tools.paths import PathGuard
from ragix_core.tools.validate import Validator
from ragix_core.tools.profiles import PROFILES

SETTINGS = settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])

PARTS = ["..", ".", "src", "docs", "README.md", "link_secret", "linkdir", "hard_secret", "fifo", "outside",
         "secret.txt", "", "/", "proc", "self", "environ", "etc", "passwd", "~", "*", "a b", "-", "--", "\\"]
paths = st.lists(st.sampled_from(PARTS), min_size=1, max_size=6).map(lambda xs: "/".join(xs))
abs_paths = paths.map(lambda p: "/" + p)
any_path = st.one_of(paths, abs_paths)
# Flags that take no value in every tool here, so every other word is an operand (a path),
# except after find's own value-taking predicates, handled in _operands.
FLAGS = ["-l", "-r", "-R", "-L", "-a", "-1", "-5", "--", "-F", "--follow", "--files0-from", "-print0", "-delete",
         "-exec", "-newer", "-samefile", "-H", "-P", "-print", "-empty"]
TOOLS = ["cat", "head", "tail", "wc", "ls", "stat", "sort", "uniq", "find", "grep", "sh", "env", "xargs"]
word = st.one_of(any_path, st.sampled_from(FLAGS))


def _operands(tool, args):
    """The words of ``args`` that ``tool`` opens as files."""
    out, i, end = [], 0, False
    if tool == "find":
        while i < len(args) and not (args[i].startswith("-") or args[i] in ("(", ")", "!", ",")):
            out.append(args[i])
            i += 1
        while i < len(args):
            if args[i] in ("-newer", "-samefile", "-anewer", "-cnewer") and i + 1 < len(args):
                out.append(args[i + 1])
                i += 1
            i += 1
        return out
    if tool == "grep":
        args = args[2:]  # "-e x"
    for a in args:
        if end or a == "-" or not a.startswith("-"):
            out.append(a)
        elif a == "--":
            end = True
    return out


def _validator(root):
    guard = PathGuard(str(root))
    p = PROFILES["reflect"]
    return guard, Validator(guard, p.tools, writes_allowed=False, any_command=False)


def _inside(guard, arg):
    real = os.path.realpath(os.path.join(guard.root, arg))
    return real == guard.root or real.startswith(guard.root + os.sep)


@SETTINGS
@given(text=st.text(max_size=300))
def test_arbitrary_text_never_raises(world, text):
    # Validator.command turns an internal error into a Refusal reading "validation failed (...)";
    # catching every Refusal would hide exactly the bugs this test looks for.
    _, validator = _validator(world["proj"])
    try:
        validator.command(text)
    except Refusal as exc:
        assert not exc.reason.startswith("validation failed"), exc.reason


@SETTINGS
@given(tool=st.sampled_from(TOOLS), words=st.lists(word, max_size=8), pipe=st.booleans())
def test_admitted_commands_stay_inside(world, tool, words, pipe):
    guard, validator = _validator(world["proj"])
    argv = [tool] + (["-e", "x"] if tool == "grep" else []) + words
    try:
        stages = validator.command(" ".join(_quote(w) for w in argv) + (" | wc -l" if pipe else ""))
    except Refusal:
        return
    for stage in stages:
        for arg in _operands(stage.tool, stage.argv[1:]):
            if arg == "-":
                continue  # standard input
            assert _inside(guard, arg), (stage.argv, arg)
            real = os.path.realpath(os.path.join(guard.root, arg))
            if os.path.exists(real):
                assert os.path.isdir(real) or (os.path.isfile(real) and os.stat(real).st_nlink == 1), arg


@SETTINGS
@given(p=any_path)
def test_path_guard(world, p):
    guard, _ = _validator(world["proj"])
    try:
        real = guard.read(p)
    except Refusal:
        return
    assert _inside(guard, p) and (real == guard.root or real.startswith(guard.root + os.sep))
    if os.path.exists(real):
        assert os.path.isdir(real) or (os.path.isfile(real) and os.stat(real).st_nlink == 1), p


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(tool=st.sampled_from(TOOLS + ["shell", "python", "operator", "write_file", "", "xargs"]),
       args=st.dictionaries(st.sampled_from(["args", "argv", "path", "pattern", "command", "lines", "code", "zzz"]),
                            st.one_of(st.text(max_size=10), st.integers(), st.lists(st.text(max_size=5), max_size=3),
                                      st.none()), max_size=3))
def test_run_never_raises(world, tool, args):
    box = ToolBox(world["proj"], profile="reflect", sandbox="none")
    result = box.run(ToolCall(tool, args))
    assert isinstance(result, ToolResult) and isinstance(result.returncode, int)
    assert "internal error" not in (result.error or ""), result.error  # a bug, not a refusal
    if result.refused:
        assert result.returncode == 126 and result.error.startswith("refused: ") and len(result.error) > 9
        assert not result.error.startswith("refused: validation failed"), result.error
    else:
        assert result.error is None or result.error.strip(), result
    assert "S3CRET" not in result.stdout + result.stderr


def _quote(word: str) -> str:
    return "'" + word.replace("'", "") + "'"


def test_exception_inside_validation_means_refuse(world, monkeypatch):
    from ragix_core.tools import argcheck

    def boom(*a, **k):
        raise RuntimeError("bug")

    monkeypatch.setattr(argcheck.PathGuard, "read", boom)
    box = ToolBox(world["proj"], profile="reflect", sandbox="none")
    result = box.run_command("cat README.md")
    assert result.refused and "validation failed" in result.error and result.stdout == ""


def test_structured_bad_values_refused(world):
    box = ToolBox(world["proj"], profile="reflect", sandbox="none")
    assert box.run(ToolCall("head", {"path": "README.md", "lines": "ten"})).refused
