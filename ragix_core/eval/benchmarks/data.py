"""Where downloaded benchmark data is looked for (one rule for every adapter)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import List, Optional

from ragix_core.eval.benchmarks.errors import BenchmarkError

__all__ = ["bench_dirs", "find_download"]


def bench_dirs() -> List[Path]:
    """$RAGIX_BENCH_DIR when set, then ./.bench, then the checkout's .bench (scripts/test.sh fills it)."""
    dirs = [Path(os.environ["RAGIX_BENCH_DIR"])] if os.environ.get("RAGIX_BENCH_DIR") else []
    return dirs + [Path(".bench"), Path(__file__).resolve().parents[3] / ".bench"]


def find_download(glob: str, what: str, hint: str, explicit: Optional[Path] = None) -> Path:
    """``explicit`` when given (it must exist), else the newest file matching ``glob`` in the first
    benchmark directory that has one; a BenchmarkError naming ``what`` and the ``hint`` command otherwise."""
    if explicit is not None:
        if Path(explicit).is_file():
            return Path(explicit)
        raise BenchmarkError(f"{explicit}: {what} not found")
    dirs = bench_dirs()
    for d in dirs:
        found = sorted(d.glob(glob))
        if found:
            return found[-1]
    raise BenchmarkError(f"{what} not found: no {glob} in {', '.join(str(d) for d in dirs)}; get it with: {hint}")
