"""What an audit kernel can fail with, besides a bad directory (tree.TreeError)."""

from __future__ import annotations

__all__ = ["KernelError", "MissingDependency"]


class KernelError(ValueError):
    """A kernel cannot run as asked (unknown name, a tool it needs missing); the message says why."""


class MissingDependency(KernelError):
    """A package of the ``audit`` extra is not installed."""
