"""The packages that export names lazily (core/lazy.py): every exported name resolves to the object
in the module it is mapped to, nothing loads before it is used, and an unknown name is an AttributeError."""

import importlib
import subprocess
import sys

import pytest

PACKAGES = ["ragix_core.reasoning_v30", "ragix_core.reasoning_slim", "ragix_core.chat"]


@pytest.mark.parametrize("package", PACKAGES)
def test_every_exported_name_resolves(package):
    mod = importlib.import_module(package)
    assert sorted(mod.__all__) == sorted(mod._EXPORTS)
    for name, where in mod._EXPORTS.items():
        assert getattr(mod, name) is getattr(importlib.import_module(f"{package}.{where}"), name), (package, name)
    with pytest.raises(AttributeError, match="no attribute 'NoSuchName'"):
        getattr(mod, "NoSuchName")


@pytest.mark.parametrize("package, submodule, name", [
    ("ragix_core.chat", "ragix_core.chat.store", "ChatStore"),
    ("ragix_core.reasoning_slim", "ragix_core.reasoning_slim.engine", "ContractiveReasoner"),
    ("ragix_core.reasoning_v30", "ragix_core.reasoning_v30.graph", "ReasoningGraph"),
])
def test_a_submodule_loads_on_first_use_only(package, submodule, name):
    code = (f"import sys, {package} as p; before = {submodule!r} in sys.modules; p.{name}; "
            f"print(before, {submodule!r} in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.split() == ["False", "True"]
