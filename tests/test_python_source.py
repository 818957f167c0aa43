"""What a Python file defines, imports and calls (ragix_core/python_source.py), on small sources written here."""

from __future__ import annotations

import pytest

from ragix_core.python_source import (Import, SourceError, calls_in, calls_of, definitions, imports,
                                              imports_module, parse)

SOURCE = '''\
from typing import TYPE_CHECKING
import os.path
from .store import load as read_all, save
from . import models
from pkg.sub import helpers

if TYPE_CHECKING:
    class Hint:
        pass


@dataclass(frozen=True)
class Item(Base, metaclass=Meta):
    def total(self, n=2):
        def inner():
            return price(n)
        return inner() + price(1)

    @property
    async def fetch(self):
        return await load(self)


def main(argv):
    read_all(argv)
    return Item().total()


main([])
'''


def test_definitions_in_order_with_depth_signature_and_decorators():
    found = [(d.line, d.kind, d.qualname, d.depth, d.signature, d.decorators) for d in definitions(parse(SOURCE))]
    assert found == [
        (8, "class", "Hint", 0, "", []),  # under `if TYPE_CHECKING:`
        (13, "class", "Item", 0, "(Base, metaclass=Meta)", ["dataclass(frozen=True)"]),
        (14, "def", "Item.total", 1, "(self, n=2)", []),
        (15, "def", "Item.total.inner", 2, "()", []),
        (20, "async def", "Item.fetch", 1, "(self)", ["property"]),
        (24, "def", "main", 0, "(argv)", []),
    ]


def test_imports_and_which_module_they_import():
    found = imports(parse(SOURCE))
    assert [(i.line, i.module, i.names) for i in found] == [
        (1, "typing", ["TYPE_CHECKING"]), (2, "os.path", []), (3, ".store", ["load", "save"]),
        (4, ".", ["models"]), (5, "pkg.sub", ["helpers"])]
    by_line = {i.line: i for i in found}
    assert imports_module(by_line[3], "store") and imports_module(by_line[3], "app.store") is False
    assert imports_module(by_line[4], "models") and imports_module(by_line[5], "helpers")
    assert imports_module(by_line[5], "pkg.sub.helpers") and imports_module(by_line[5], "sub")
    assert imports_module(by_line[2], "path") and not imports_module(by_line[2], "os.pathlib")
    # a name that only starts like the module is another module
    assert not imports_module(Import(1, "storage_utils", [], ""), "storage")
    assert not imports_module(Import(1, "x", ["storage_helper"], ""), "storage")
    assert not imports_module(Import(1, "x", ["*"], ""), "*")


def test_calls_are_given_to_the_innermost_function_and_the_module():
    tree = parse(SOURCE)
    assert [(where, c.line) for where, c in calls_of(tree, "price")] == [("Item.total.inner", 16), ("Item.total", 17)]
    assert [(where, c.text) for where, c in calls_of(tree, "main")] == [("<module>", "main([])")]
    assert [(where, c.line) for where, c in calls_of(tree, "load")] == [("Item.fetch", 21)]  # an awaited call


def test_calls_in_a_function_list_what_its_body_calls():
    tree = parse(SOURCE)
    ((qual, line), calls), = calls_in(tree, "main").items()
    assert (qual, line) == ("main", 24) and [c.name for c in calls] == ["read_all", "Item", "total"]
    assert calls_in(tree, "nothing") == {}


def test_a_file_that_does_not_parse_says_where():
    with pytest.raises(SourceError, match=r"broken.py: not valid Python \(line 2\)"):
        parse("x = 1\ndef (:\n", "broken.py")
