"""Resource limits applied to every process a tool starts."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

__all__ = ["Limits"]


@dataclass(frozen=True)
class Limits:
    timeout: float = 30.0  # wall clock, seconds; the whole process tree is killed after it
    cpu_seconds: int = 30  # RLIMIT_CPU per process
    memory_bytes: int = 2 << 30  # RLIMIT_AS per process
    # RLIMIT_FSIZE. None = the profile decides: 0 when the project is read-only.
    file_size_bytes: Optional[int] = None
    output_bytes: int = 64 * 1024  # stdout returned to the caller; beyond it: truncated=True
    stderr_bytes: int = 16 * 1024
    pipe_bytes: int = 8 << 20  # data carried between pipeline stages
    # Output read and discarded after the cap before the process is killed: a
    # command with long output still ends normally with its real exit code,
    # while an endless producer (`cat /dev/zero`) is stopped.
    drain_bytes: int = 32 << 20
    network: bool = False  # only honoured by profiles that allow it (sovereign)

    def validate(self) -> "Limits":
        for name in ("timeout", "cpu_seconds", "memory_bytes", "output_bytes", "stderr_bytes", "pipe_bytes", "drain_bytes"):
            value = getattr(self, name)
            if not isinstance(value, (int, float)) or value <= 0:
                raise ValueError(f"Limits.{name} must be a positive number, got {value!r}")
        if self.file_size_bytes is not None and self.file_size_bytes < 0:
            raise ValueError("Limits.file_size_bytes must be >= 0")
        return self
