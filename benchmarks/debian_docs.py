"""A Debian ``*-doc`` package's manual as a document collection, fetched once into the benchmark cache.

    fetch_package_docs("git-doc", "1:2.39.5-0+deb12u3", "usr/share/doc/git-doc", ["*.html"]) -> Path

``apt-get download PACKAGE=VERSION`` (no system install, no root needed) and ``dpkg-deb -x`` into a
scratch directory, then the pages under ``doc_root`` that match ``include`` are copied to
``<bench>/docsets/<package>_<version>/docs``. The exact version is pinned because frozen answers hold
for that build only. Symlinks are not copied: a package's ``index.html -> git.html`` would index one
page twice and split its citations. Idempotent: a finished copy carries a marker and is reused; a
half-finished one (interrupted) is rebuilt. Where the data lives follows the other benchmark data
(``ragix_core.eval.benchmarks.data.bench_dirs``: $RAGIX_BENCH_DIR, ./.bench, the checkout's .bench).
"""

from __future__ import annotations

import fnmatch
import os
import shutil
import subprocess
import tempfile
from pathlib import Path
from typing import List, Optional, Sequence

from ragix_core.eval.benchmarks.data import bench_dirs
from ragix_core.eval.benchmarks.errors import BenchmarkError

__all__ = ["fetch_package_docs", "find_package_docs", "docs_home", "COMPLETE"]

COMPLETE = ".complete"  # written last: its presence means every page was copied


def _slot(package: str, version: str) -> str:
    return f"docsets/{package}_{version.replace(':', '%3a')}/docs"


def find_package_docs(package: str, version: str) -> Optional[Path]:
    """The finished copy of this package version in the first benchmark directory that has one."""
    for d in bench_dirs():
        docs = d / _slot(package, version)
        if (docs / COMPLETE).is_file():
            return docs.resolve()
    return None


def docs_home() -> Path:
    """Where a new copy is written: $RAGIX_BENCH_DIR when set, else the checkout's .bench (never the
    current directory, so that running from elsewhere does not scatter copies)."""
    env = os.environ.get("RAGIX_BENCH_DIR")
    return Path(env) if env else bench_dirs()[-1]


def _run(cmd: List[str], cwd: Path, what: str) -> subprocess.CompletedProcess:
    try:
        return subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, timeout=600)
    except OSError as exc:
        raise BenchmarkError(f"{what}: cannot run {cmd[0]}: {exc.strerror or exc}") from None
    except subprocess.TimeoutExpired:
        raise BenchmarkError(f"{what}: {cmd[0]} did not finish in 10 minutes") from None


def _download(package: str, version: str, scratch: Path) -> Path:
    if shutil.which("apt-get") is None or shutil.which("dpkg-deb") is None:
        raise BenchmarkError(f"{package} {version}: apt-get and dpkg-deb are needed to fetch it (a Debian or "
                             f"Ubuntu machine); elsewhere put the extracted pages in {docs_home() / _slot(package, version)} "
                             f"and create {COMPLETE} there")
    spec = f"{package}={version}"
    r = _run(["apt-get", "download", spec], scratch, spec)
    if r.returncode != 0 and os.geteuid() == 0:
        # A fresh machine has no package lists yet: refresh them once, then try again.
        _run(["apt-get", "update", "-qq"], scratch, "apt-get update")
        r = _run(["apt-get", "download", spec], scratch, spec)
    debs = sorted(scratch.glob(f"{package}_*.deb"))
    if r.returncode != 0 or not debs:
        tail = " ".join((r.stderr or r.stdout).strip().splitlines()[-2:])
        raise BenchmarkError(f"apt-get download {spec} failed: {tail or 'no .deb written'} (the frozen questions hold "
                             f"for this version only; `apt-cache policy {package}` shows what the archive has)")
    return debs[-1]


def _copy_pages(src: Path, dest: Path, include: Sequence[str]) -> int:
    count = 0
    for dirpath, dirnames, filenames in os.walk(src):
        dirnames.sort()
        for name in sorted(filenames):
            path = Path(dirpath) / name
            rel = path.relative_to(src).as_posix()
            if path.is_symlink() or not any(fnmatch.fnmatch(rel, g) or fnmatch.fnmatch(name, g) for g in include):
                continue
            target = dest / rel
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(path, target)
            count += 1
    return count


def fetch_package_docs(package: str, version: str, doc_root: str, include: Sequence[str] = ("*.html",)) -> Path:
    """The collection directory of ``package`` at ``version`` (fetched now unless already there)."""
    found = find_package_docs(package, version)
    if found is not None:
        return found
    docs = docs_home() / _slot(package, version)
    with tempfile.TemporaryDirectory(prefix="ragix-deb-") as tmp:
        scratch = Path(tmp)
        deb = _download(package, version, scratch)
        tree = scratch / "tree"
        r = _run(["dpkg-deb", "-x", str(deb), str(tree)], scratch, f"dpkg-deb -x {deb.name}")
        if r.returncode != 0:
            raise BenchmarkError(f"dpkg-deb -x {deb.name} failed: {r.stderr.strip()}")
        src = tree / doc_root.strip("/")
        if not src.is_dir():
            raise BenchmarkError(f"{deb.name} has no {doc_root}: the set's doc_root is wrong for this package")
        if docs.exists():
            shutil.rmtree(docs)  # an interrupted copy: its pages may be partial
        docs.mkdir(parents=True)
        if not _copy_pages(src, docs, include):
            raise BenchmarkError(f"{deb.name}: no page under {doc_root} matches {', '.join(include)}")
    (docs / COMPLETE).write_text(f"{package} {version}\n", encoding="utf-8")
    return docs.resolve()
