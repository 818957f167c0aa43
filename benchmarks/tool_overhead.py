"""Per-command overhead of each confinement layer, on the same benign commands.

    .venv/bin/python benchmarks/tool_overhead.py [--reps 30] [--root DIR]

Measures, per command (median over --reps runs):
  validate_us      layer 1 alone: parse + validate, no process (µs)
  subprocess_ms    the reference: subprocess.run(argv) with no confinement at all
  layer1_ms        ToolBox(sandbox="none"): validation + limits + empty env + capped I/O
  layer1_bwrap_ms  ToolBox(sandbox="bwrap")
  layer1_landlock_ms ToolBox(sandbox="landlock")
  bwrap_alone_ms   ToolBox(sandbox="bwrap", validate=False): layer 2 without layer 1
and prints one JSON object (ratios are against subprocess_ms).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from ragix_core.tools import Limits, ToolBox  # noqa: E402
from ragix_core.tools.bwrap import find_bwrap  # noqa: E402
from ragix_core.tools.landlock import landlock_abi  # noqa: E402

COMMANDS = [
    "ls -la",
    "wc -l README.md",
    "head -n 2 README.md",
    "grep -n def src/a.py",
    "find . -name '*.py'",
    "cat data.csv",
    "stat -c %s README.md",
    "sort -t, -k2 -n data.csv",
]


def make_project(root: Path) -> None:
    (root / "src").mkdir(parents=True, exist_ok=True)
    (root / "README.md").write_text("# Demo\nhello world\nTODO: more\n")
    (root / "src" / "a.py").write_text("def foo():\n    return 1\n")
    (root / "src" / "b.py").write_text("def bar():\n    return 2\n")
    (root / "data.csv").write_text("name,score\nann,30\nbob,7\ncid,30\n")


def median_of(fn, reps: int) -> float:
    fn()  # warm-up (page cache, first exec)
    samples = []
    for _ in range(reps):
        t0 = time.perf_counter()
        fn()
        samples.append(time.perf_counter() - t0)
    return statistics.median(samples)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reps", type=int, default=30)
    parser.add_argument("--root", type=Path, default=None, help="project to run in (default: a generated one)")
    args = parser.parse_args()
    tmp = None
    if args.root is None:
        tmp = tempfile.TemporaryDirectory(prefix="ragix-bench-")
        root = Path(tmp.name)
        make_project(root)
    else:
        root = args.root
    limits = Limits(timeout=30)
    boxes = {"layer1_ms": ToolBox(root, sandbox="none", limits=limits)}
    if find_bwrap():
        boxes["layer1_bwrap_ms"] = ToolBox(root, sandbox="bwrap", limits=limits)
        boxes["bwrap_alone_ms"] = ToolBox(root, sandbox="bwrap", limits=limits, validate=False)
    if landlock_abi():
        boxes["layer1_landlock_ms"] = ToolBox(root, sandbox="landlock", limits=limits)
    validator = boxes["layer1_ms"].validator

    per_command = {}
    for cmd in COMMANDS:
        stages = validator.command(cmd)
        argv = stages[0].argv
        row = {"validate_us": median_of(lambda: validator.command(cmd), args.reps * 10) * 1e6}
        row["subprocess_ms"] = median_of(
            lambda: subprocess.run(argv, cwd=root, capture_output=True, stdin=subprocess.DEVNULL), args.reps) * 1e3
        for name, box in boxes.items():
            result = box.run_command(cmd)
            if not result.ok:
                raise SystemExit(f"benchmark command failed under {name}: {cmd!r}: {result}")
            row[name] = median_of(lambda: box.run_command(cmd), args.reps) * 1e3
        per_command[cmd] = {k: round(v, 3) for k, v in row.items()}

    def med(key: str) -> float:
        return statistics.median(r[key] for r in per_command.values())

    summary = {k: round(med(k), 3) for k in next(iter(per_command.values()))}
    ref = summary["subprocess_ms"]
    ratios = {f"{k}/subprocess": round(v / ref, 2) for k, v in summary.items() if k.endswith("_ms") and k != "subprocess_ms"}
    overhead = {f"{k}_minus_subprocess": round(v - ref, 3) for k, v in summary.items() if k.endswith("_ms") and k != "subprocess_ms"}
    print(json.dumps({
        "benchmark": "tool_overhead",
        "reps": args.reps,
        "machine": {"cpus": os.cpu_count(), "kernel": platform.release(), "python": platform.python_version(),
                    "bwrap": find_bwrap(), "landlock_abi": landlock_abi()},
        "median_over_commands": summary,
        "ratios": ratios,
        "overhead_ms": overhead,
        "validate_us_vs_subprocess": round(summary["validate_us"] / (ref * 1000), 4),
        "per_command": per_command,
    }, indent=2))
    if tmp is not None:
        tmp.cleanup()


if __name__ == "__main__":
    main()
