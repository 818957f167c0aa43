"""What a benchmark report says about the code it measured: the commit the run started from."""

from __future__ import annotations

from pathlib import Path

from ragix_core.core.provenance import code_commit

__all__ = ["commit"]

ROOT = Path(__file__).resolve().parent.parent


def commit() -> str:
    """HEAD of the checkout, "+dirty" when tracked files differ from it; read it before the run starts
    (the tree may change while a long run goes on)."""
    return code_commit(ROOT)
