"""Where downloaded benchmark data is looked for (one rule for every adapter)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import List

__all__ = ["bench_dirs"]


def bench_dirs() -> List[Path]:
    """$RAGIX_BENCH_DIR when set, then ./.bench, then the checkout's .bench (scripts/test.sh fills it)."""
    dirs = [Path(os.environ["RAGIX_BENCH_DIR"])] if os.environ.get("RAGIX_BENCH_DIR") else []
    return dirs + [Path(".bench"), Path(__file__).resolve().parents[3] / ".bench"]
