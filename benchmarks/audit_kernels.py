"""The audit kernels on real source trees, timed and checked against the tools they wrap or rival.

    python benchmarks/audit_kernels.py [--cache DIR] [--out FILE]

Trees: the sdists of sqlparse 0.6.1, jinja2 3.1.4 and pygments 2.18.0 (fetched once with
``pip download --no-deps --no-binary :all:`` into --cache, default .bench/audit), and ``ragix_core/`` of
this checkout (the one tree with git history, for churn; a subdirectory, so the downloads are not in it). On the same file list as the kernels read:
  lizard CLI (``-f LIST``): nloc, functions, mean CCN  — what the metrics kernel wraps
  radon cc (if installed): blocks and mean CCN          — a rival Python complexity analyser
  wc -l, cloc (if installed): physical / code lines
Times are wall-clock seconds per 10,000 physical lines, kernels uncached; ``all`` is run_all
(six kernels, one tree scan), ``cached`` the same run again from the kernel cache.
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path
from typing import Any, Dict, List, Optional

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from ragix_core.kernels.audit import run_all, run_kernel, scan_tree  # noqa: E402

SDISTS = [("sqlparse", "0.6.1"), ("jinja2", "3.1.4"), ("pygments", "2.18.0")]
REPO = Path(__file__).resolve().parents[1]


def fetch(name: str, version: str, cache: Path) -> Path:
    """The unpacked sdist's directory (downloaded and unpacked once)."""
    target = cache / f"{name}-{version}"
    if target.is_dir():
        return target
    cache.mkdir(parents=True, exist_ok=True)
    subprocess.run([sys.executable, "-m", "pip", "download", "--quiet", "--no-deps", "--no-binary", ":all:",
                    f"{name}=={version}", "-d", str(cache)], check=True)
    archive = next(p for p in cache.iterdir() if p.name.lower().startswith(f"{name}-{version}".lower())
                   and p.name.endswith(".tar.gz"))
    with tarfile.open(archive) as tar:
        tar.extractall(cache, filter="data")
    unpacked = next(p for p in cache.iterdir() if p.is_dir() and p.name.lower() == f"{name}-{version}".lower())
    if unpacked != target:
        unpacked.rename(target)
    return target


def timed(fn) -> tuple:
    start = time.perf_counter()
    value = fn()
    return time.perf_counter() - start, value


def _tool(argv: List[str]) -> tuple:
    start = time.perf_counter()
    proc = subprocess.run(argv, capture_output=True, text=True)
    return time.perf_counter() - start, proc


def lizard_cli(files: List[str]) -> Dict[str, Any]:
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as fh:
        fh.write("\n".join(files) + "\n")
    seconds, proc = _tool([sys.executable, "-m", "lizard", "-f", fh.name])
    Path(fh.name).unlink()
    # the totals line: "Total nloc   Avg.NLOC  AvgCCN  Avg.token   Fun Cnt  Warning cnt ..."
    lines = proc.stdout.strip().splitlines()
    head = next(i for i, line in enumerate(lines) if line.startswith("Total nloc"))
    values = lines[head + 2].split()
    return {"seconds": seconds, "nloc": int(values[0]), "ccn_mean": float(values[2]), "functions": int(values[4])}


def radon_cc(files: List[str]) -> Optional[Dict[str, Any]]:
    python = [f for f in files if f.endswith(".py")]
    if shutil.which("radon") is None and subprocess.run([sys.executable, "-m", "radon", "--version"],
                                                        capture_output=True).returncode != 0:
        return None
    seconds, proc = _tool([sys.executable, "-m", "radon", "cc", "-j", *python])
    blocks = [b for entry in json.loads(proc.stdout).values() if isinstance(entry, list) for b in entry]
    functions = [b for b in blocks if b.get("type") in ("function", "method")]
    mean = sum(b["complexity"] for b in functions) / len(functions) if functions else 0.0
    return {"seconds": seconds, "functions": len(functions), "ccn_mean": round(mean, 2)}


def line_counters(files: List[str]) -> Dict[str, Any]:
    seconds, proc = _tool(["wc", "-l", *files])
    out: Dict[str, Any] = {"wc_seconds": seconds, "wc_lines": int(proc.stdout.strip().splitlines()[-1].split()[0])}
    if shutil.which("cloc"):
        with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as fh:
            fh.write("\n".join(files) + "\n")
        seconds, proc = _tool(["cloc", "--json", "--quiet", f"--list-file={fh.name}"])
        Path(fh.name).unlink()
        total = json.loads(proc.stdout)["SUM"]
        out.update(cloc_seconds=seconds, cloc_code=total["code"], cloc_lines=total["code"] + total["comment"] + total["blank"])
    return out


def measure(label: str, root: Path) -> Dict[str, Any]:
    tree = scan_tree(str(root))
    files = [str(Path(tree.root) / f.path) for f in tree.files]
    t_scan, _ = timed(lambda: scan_tree(str(root)))
    t_ast, _ = timed(lambda: run_kernel("ast_scan", str(root), cache_dir=None))
    t_metrics, metrics = timed(lambda: run_kernel("metrics", str(root), cache_dir=None))
    t_churn, churn = timed(lambda: run_kernel("churn", str(root), cache_dir=None))
    with tempfile.TemporaryDirectory() as cache:
        t_all, docs = timed(lambda: run_all(str(root), cache_dir=cache))
        t_cached, _ = timed(lambda: run_all(str(root), cache_dir=cache))
    totals = metrics["data"]["totals"]
    return {"tree": label, "files": totals["files"], "lines": totals["lines"], "nloc": totals["nloc"],
            "functions": totals["functions"], "ccn_mean": totals["ccn_mean"],
            "commits": churn["data"]["totals"]["commits"],
            "seconds": {"scan": t_scan, "ast_scan": t_ast, "metrics": t_metrics, "churn": t_churn, "all": t_all,
                        "cached": t_cached},
            "recommendations": len(docs["recommendations"]["data"]["items"]),
            "lizard": lizard_cli(files), "radon": radon_cc(files), **line_counters(files)}


def per10k(seconds: float, lines: int) -> str:
    return f"{seconds * 10_000 / lines:.2f}" if lines else "-"


def show(rows: List[Dict[str, Any]]) -> str:
    out = ["| tree | files | lines (ours / wc -l / cloc) | nloc (ours / lizard CLI / cloc code) | functions "
           "(ours / lizard / radon) | mean CCN (ours / lizard / radon) | commits |",
           "| --- | ---: | --- | --- | --- | --- | ---: |"]
    for r in rows:
        radon = r["radon"] or {}
        out.append(f"| {r['tree']} | {r['files']} | {r['lines']} / {r['wc_lines']} / {r.get('cloc_lines', '-')} | "
                   f"{r['nloc']} / {r['lizard']['nloc']} / {r.get('cloc_code', '-')} | "
                   f"{r['functions']} / {r['lizard']['functions']} / {radon.get('functions', '-')} | "
                   f"{r['ccn_mean']} / {r['lizard']['ccn_mean']} / {radon.get('ccn_mean', '-')} | {r['commits']} |")
    out += ["", "seconds per 10k lines:", "",
            "| tree | scan | ast_scan | metrics | churn | all six | all, cached | lizard CLI | radon cc | wc -l | cloc |",
            "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"]
    for r in rows:
        s, n = r["seconds"], r["lines"]
        radon = r["radon"] or {}
        out.append(f"| {r['tree']} | {per10k(s['scan'], n)} | {per10k(s['ast_scan'], n)} | {per10k(s['metrics'], n)} | "
                   f"{per10k(s['churn'], n)} | {per10k(s['all'], n)} | {per10k(s['cached'], n)} | "
                   f"{per10k(r['lizard']['seconds'], n)} | "
                   f"{per10k(radon['seconds'], n) if radon else '-'} | {per10k(r['wc_seconds'], n)} | "
                   f"{per10k(r['cloc_seconds'], n) if 'cloc_seconds' in r else '-'} |")
    return "\n".join(out)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--cache", type=Path, default=Path(".bench/audit"))
    parser.add_argument("--out", type=Path, default=None, help="also write the rows as JSON here")
    args = parser.parse_args()
    trees = [(f"{n} {v}", fetch(n, v, args.cache)) for n, v in SDISTS] + [("ragix_core (git)", REPO / "ragix_core")]
    rows = [measure(label, root) for label, root in trees]
    print(show(rows))
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(json.dumps(rows, indent=2) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
