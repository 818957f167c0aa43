"""Lazy package exports (PEP 562): a package names its public objects and the module each lives in;
a module is imported on first use of one of its names, so importing the package stays cheap."""

from __future__ import annotations

import importlib
import sys
from typing import Any, Callable, Mapping

__all__ = ["lazy_exports"]


def lazy_exports(package: str, exports: Mapping[str, str]) -> Callable[[str], Any]:
    """The package's module-level ``__getattr__``: ``exports`` maps a name to its submodule."""

    def __getattr__(name: str) -> Any:
        module = exports.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(f"{package}.{module}"), name)
        setattr(sys.modules[package], name, value)  # found directly next time
        return value

    return __getattr__
