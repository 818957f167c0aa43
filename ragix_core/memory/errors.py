"""Errors of the experience corpus and trace files.

Every message names the file involved and the cause, so a CLI or an engine
can print it as is: the user must learn *which* file and *why*, never a
traceback.
"""

from __future__ import annotations

import errno
import os
from typing import Optional

__all__ = ["CorpusError", "CorpusWriteError", "CorpusReadError", "InvalidSessionId"]


class CorpusError(Exception):
    """Base class for corpus and trace errors."""


def _describe(cause: Optional[BaseException]) -> str:
    if cause is None:
        return "unknown cause"
    if isinstance(cause, OSError) and cause.errno is not None:
        name = errno.errorcode.get(cause.errno, str(cause.errno))
        return f"{name}: {os.strerror(cause.errno)}"
    return str(cause) or type(cause).__name__


class CorpusWriteError(CorpusError):
    """A write to a corpus or trace file failed; the file was restored to its previous size."""

    def __init__(self, path: "os.PathLike[str] | str", cause: "BaseException | str | None" = None) -> None:
        self.path = str(path)
        self.cause = cause
        why = cause if isinstance(cause, str) else _describe(cause)
        super().__init__(f"cannot write to {self.path}: {why}")

    @property
    def errno(self) -> Optional[int]:
        return getattr(self.cause, "errno", None)


class CorpusReadError(CorpusError):
    """A corpus or trace file exists but cannot be read."""

    def __init__(self, path: "os.PathLike[str] | str", cause: "BaseException | str | None" = None) -> None:
        self.path = str(path)
        self.cause = cause
        why = cause if isinstance(cause, str) else _describe(cause)
        super().__init__(f"cannot read {self.path}: {why}")


class InvalidSessionId(CorpusError, ValueError):
    """A session id that cannot be used as a file name."""
