"""Importers of a module: which goals ask, the search for import lines, the closure, the binding."""

import pytest

from ragix_core.core.types import PlanStep, StepStatus, ToolCall, ToolResult
from ragix_core.evidence.binding import bind_answer
from ragix_core.evidence.imports import asked_module, importers, module_of

MODELS = ("./src/inventory/storage.py:6:from .models import Item, Warehouse\n"
          "./src/inventory/api.py:3:from .models import Item\n"
          "./tests/test_models.py:1:from inventory.models import Item\n")
STORAGE = "./src/inventory/cli.py:6:from .storage import load\n./src/inventory/api.py:4:from .storage import load, save\n"
API = "./src/inventory/cli.py:5:from .api import handle_get\n"


@pytest.mark.parametrize("goal,expected", [
    ("Which modules depend on models.py, directly or through another module?", ("models", True)),
    ("Which modules import from the storage module?", ("storage", False)),
    ("Which file imports module a?", ("a", False)),
    ("Which files use the json module?", ("json", False)),
    ("What does the execute function do?", None),
    ("Count the lines of storage.py", None),  # no import or dependency asked
    ("What does a.py import?", None),  # what it imports, not who imports it
    ("Which module uses the cache, and what are the dependents of storage.py?", ("storage", False)),
    ("Which module defines execute?", None),
])
def test_the_module_a_goal_asks_the_importers_of(goal, expected):
    assert asked_module(goal) == expected


def test_importers_are_read_from_import_lines_level_by_level():
    outputs = [MODELS, STORAGE, API]
    assert importers("models", outputs, transitive=False) == [
        "src/inventory/api.py", "src/inventory/storage.py", "tests/test_models.py"]
    assert importers("models", outputs, transitive=True) == [
        "src/inventory/api.py", "src/inventory/cli.py", "src/inventory/storage.py", "tests/test_models.py"]
    # lines that mention the module but import nothing are not imports
    assert importers("storage", ['./src/inventory/__init__.py:1:"""storage and models."""\n'], False) == []
    assert importers("os", ["./a.py:3:import os, sys\n", "./b.py:2:import os.path as p\n"], False) == ["a.py", "b.py"]
    assert importers("x", ["./p/__init__.py:1:from . import x\n"], False) == ["p/__init__.py"]
    assert module_of("src/inventory/__init__.py") == "inventory" and module_of("a/b.py") == "b"


def step(stdout, command):
    return PlanStep(1, "s", ToolCall("shell", {"command": command}), StepStatus.SUCCESS,
                    ToolResult("shell", 0, stdout=stdout))


def test_an_answer_must_name_every_importer_the_outputs_show():
    goal = "Which modules depend on models.py, directly or through another module?"
    ev = [step(MODELS, "grep models"), step(STORAGE, "grep storage"), step(API, "grep api")]
    b = bind_answer(goal, "storage.py and api.py", ev)
    assert b.corrected and b.reason == "importers_added"
    assert "src/inventory/cli.py, tests/test_models.py" in b.answer and b.answer.startswith("storage.py and api.py")
    none = bind_answer(goal, "No module depends on it.", ev)
    assert none.corrected and none.reason == "importers" and none.answer.startswith("src/inventory/api.py")
    full = "storage.py, api.py, cli.py and tests/test_models.py"
    assert not bind_answer(goal, full, ev).corrected
    direct = bind_answer("Which modules import from the storage module?", "cli.py and api.py", ev)
    assert not direct.corrected  # test_models.py imports models, not storage
