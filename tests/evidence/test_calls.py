"""The call chain a goal asks to trace, walked in the project's Python source (evidence/calls.py)."""

from pathlib import Path

import pytest

from ragix_core.evidence.calls import MAX_FUNCTIONS, asks_call_trace, call_chain

CLI = '''import json
import sys

from .api import handle_get
from .storage import load


def execute(argv):
    if argv[0] == "list":
        return sorted(load("db").items)
    if argv[0] == "get":
        return handle_get("db", argv[1])
    raise SystemExit("unknown")
'''
API = '''from .storage import load


def handle_get(path, sku):
    return vars(load(path).items[sku])
'''
STORAGE = '''import json


def load(path):
    with open(path) as fh:
        return json.load(fh)
'''
OTHER = '''def load(path):
    return other_helper(path)


def other_helper(path):
    return path
'''


def _project(tmp_path: Path) -> Path:
    pkg = tmp_path / "src" / "app"
    pkg.mkdir(parents=True)
    for name, text in {"cli.py": CLI, "api.py": API, "storage.py": STORAGE}.items():
        (pkg / name).write_text(text)
    (tmp_path / "other.py").write_text(OTHER)  # a second `load`: the importer's module decides
    (tmp_path / "broken.py").write_text("def oops(:\n")  # a file that does not parse is skipped
    return tmp_path


@pytest.mark.parametrize("goal, asks", [
    ("Trace what happens for the cli command `get`: which functions are called?", True),
    ("What does `execute` call?", True),
    ("Show the call chain from execute down to storage", True),
    ("Which functions are defined in cli.py?", False),
    ("Who called the meeting?", False),
])
def test_goals_that_ask_for_a_call_trace(goal, asks):
    assert asks_call_trace(goal) is asks


def test_a_quoted_command_starts_at_the_branch_that_handles_it_and_follows_the_imported_names(tmp_path):
    trace = call_chain("Trace the cli command `get`: which functions are called?", _project(tmp_path))
    assert [(f.name, f.path) for f in trace.shown] == [
        ("execute", "src/app/cli.py"), ("handle_get", "src/app/api.py"), ("load", "src/app/storage.py")]
    assert trace.tokens == ("get",)
    execute = trace.shown[0]
    assert execute.callees == ("handle_get",)  # the `get` branch only: not the `list` branch's load
    assert (execute.start, execute.end) == (8, 13) and "handles 'get' at line 11" in execute.why
    assert trace.shown[2].callees == ()  # json.load is the json module's, not the project's load
    assert trace.summary().startswith("execute (src/app/cli.py) calls handle_get; handle_get (src/app/api.py) calls load")


def test_a_named_function_starts_the_walk_and_each_function_is_shown_once(tmp_path):
    trace = call_chain("What does execute() call?", _project(tmp_path))
    assert [f.name for f in trace.shown] == ["execute", "load", "handle_get"]  # load reached twice, shown once


def test_goals_naming_nothing_the_source_has_get_no_trace(tmp_path):
    root = _project(tmp_path)
    assert call_chain("Trace the command `delete`", root) is None
    assert call_chain("Which functions does cli.py define?", root) is None  # not a trace


def test_the_walk_is_bounded(tmp_path):
    chain = "\n\n".join(f"def f{i}():\n    return f{i + 1}()" for i in range(MAX_FUNCTIONS + 5))
    (tmp_path / "deep.py").write_text(chain + f"\n\n\ndef f{MAX_FUNCTIONS + 5}():\n    return 0\n")
    trace = call_chain("Trace what f0() calls", tmp_path)
    assert len(trace.shown) == MAX_FUNCTIONS and trace.shown[0].name == "f0"


def test_a_trace_answer_that_leaves_out_a_function_of_the_chain_gets_the_chain_added(tmp_path):
    from ragix_core.core.types import PlanStep, StepStatus, ToolCall, ToolResult
    from ragix_core.evidence.binding import bind_answer
    from ragix_core.evidence.calls import TRACE_ASIDE
    goal = "Trace the cli command `get`: which functions are called?"
    trace = call_chain(goal, _project(tmp_path))
    search = PlanStep(1, "search get (ragix)", ToolCall("shell", {"command": "grep -rnw get .",
                                                                   "aside": TRACE_ASIDE + trace.summary()}),
                      StepStatus.SUCCESS, ToolResult("shell", 0, stdout='./src/app/cli.py:11:    if argv[0] == "get":\n'))
    bound = bind_answer(goal, "`get` is handled in cli.py, which calls handle_get, then load.", [search])
    assert bound.corrected and bound.reason == "trace_added"
    assert bound.answer.endswith("(ragix: the calls followed in the source: " + trace.summary() + ".)")
    whole = "execute handles `get` and calls handle_get, which calls load."
    assert bind_answer(goal, whole, [search]).answer == whole  # every function named: kept as written
