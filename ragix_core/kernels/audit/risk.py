"""risk: one documented 0-100 score per file, and its nloc-weighted mean per directory.

    risk = 100 × (0.30·H + 0.25·C + 0.15·S + 0.20·T + 0.10·D)

    H  hotspot score from the hotspots kernel, in [0, 1] (0 for every file when there is no git history)
    C  min(1, ccn_max / 20): the file's most complex function; McCabe's 10 is "moderate", 20 saturates
    S  min(1, nloc / 1000): size, lines of code without comments and blanks
    T  1 when the file is not a test and no test file names it or imports it, else 0
    D  min(1, todo per 100 nloc / 2): TODO/FIXME/XXX density, saturating at 2 markers per 100 lines

The weights put change-and-complexity first (hotspots predict defects best in Tornhill's and
Nagappan's studies), then missing tests, then size and markers. Every component is kept in the row, so a
sentence citing a score can cite why. "Tested" is a name match, not coverage: a test file tests
``foo.py`` when its name contains ``foo`` as a word (``test_foo.py``, ``foo_test.go``, ``FooTest.java``,
``foo.test.js``) or one of its imports names ``foo``; the report says so.

A test file (under a ``test``/``tests``/``__tests__`` directory, or named as above) gets T = 0.
Directory rows: each file's parent directory ("." for the root), risk weighted by nloc, and the maximum.
"""

from __future__ import annotations

import os
import re
from dataclasses import asdict, dataclass
from typing import Any, Dict, List, Set, Tuple

from ragix_core.kernels.audit.tree import SourceTree

__all__ = ["FileRisk", "DirectoryRisk", "compute", "is_test_path", "WEIGHTS"]

WEIGHTS = {"hotspot": 0.30, "complexity": 0.25, "size": 0.15, "untested": 0.20, "todo": 0.10}
CCN_SATURATION, NLOC_SATURATION, TODO_PER_100_SATURATION = 20, 1000, 2.0

_TEST_DIRS = {"test", "tests", "__tests__", "testing", "spec"}
_TEST_NAME = re.compile(r"(^test_|_test$|^test$|Test$|Tests$|\.test$|\.spec$|_spec$)")
_NAME = re.compile(r"[A-Za-z0-9_]+")


@dataclass
class FileRisk:
    path: str
    risk: float
    hotspot: float
    complexity: float
    size: float
    untested: int
    todo: float
    test: bool
    nloc: int
    ccn_max: int
    todo_markers: int


@dataclass
class DirectoryRisk:
    path: str
    risk: float  # nloc-weighted mean of its files
    risk_max: float
    files: int
    nloc: int


def _stem(path: str) -> str:
    name = os.path.basename(path)
    stem = name.split(".", 1)[0] if not name.startswith(".") else name
    if stem in ("__init__", "index", "mod", "lib", "main") and "/" in path:
        stem = path.rsplit("/", 2)[-2]  # a package's file stands for the package
    return stem


def is_test_path(path: str) -> bool:
    parts = path.split("/")
    if any(p in _TEST_DIRS for p in parts[:-1]):
        return True
    name = parts[-1]
    return bool(_TEST_NAME.search(name.rsplit(".", 1)[0]))


def _tested_name(path: str) -> str:
    """The name a test file is about: test_foo_bar.py, foo_bar_test.go → foo_bar; FooTest.java → foo."""
    name = os.path.basename(path).split(".", 1)[0]
    for affix in (r"^test_", r"_test$", r"_spec$", r"Tests?$"):
        name = re.sub(affix, "", name)
    return name.lower()


def _test_mentions(scan: Dict[str, Any], paths: List[str]) -> Set[str]:
    """The names test files are about: from their file names and from every import they make."""
    imports = {f["path"]: f.get("imports", []) for f in scan["files"]}
    mentioned: Set[str] = set()
    for path in paths:
        if not is_test_path(path):
            continue
        mentioned.add(_tested_name(path))
        for imp in imports.get(path, []):
            for text in [imp["module"]] + list(imp.get("names", [])):
                mentioned.update(t.lower() for t in _NAME.findall(text))
    return mentioned


def compute(tree: SourceTree, inputs: Dict[str, Any]) -> Tuple[Dict[str, Any], List[str]]:
    hot = {h["path"]: h["score"] for h in inputs["hotspots"]["files"]}
    metrics = inputs["metrics"]["files"]
    mentioned = _test_mentions(inputs["ast_scan"], [m["path"] for m in metrics])
    rows: List[FileRisk] = []
    for m in metrics:
        test = is_test_path(m["path"])
        stem = _stem(m["path"]).lower()
        untested = 0 if test or stem in mentioned else 1
        c = min(1.0, m["ccn_max"] / CCN_SATURATION)
        s = min(1.0, m["nloc"] / NLOC_SATURATION)
        d = min(1.0, (100.0 * m["todo"] / m["nloc"]) / TODO_PER_100_SATURATION) if m["nloc"] else 0.0
        h = hot.get(m["path"], 0.0)
        risk = 100 * (WEIGHTS["hotspot"] * h + WEIGHTS["complexity"] * c + WEIGHTS["size"] * s
                      + WEIGHTS["untested"] * untested + WEIGHTS["todo"] * d)
        rows.append(FileRisk(m["path"], round(risk, 1), h, round(c, 3), round(s, 3), untested, round(d, 3), test,
                             m["nloc"], m["ccn_max"], m["todo"]))
    rows.sort(key=lambda r: (-r.risk, r.path))
    by_dir: Dict[str, List[FileRisk]] = {}
    for r in rows:
        by_dir.setdefault(os.path.dirname(r.path) or ".", []).append(r)
    dirs = []
    for path, members in sorted(by_dir.items()):
        nloc = sum(r.nloc for r in members)
        mean = sum(r.risk * r.nloc for r in members) / nloc if nloc else sum(r.risk for r in members) / len(members)
        dirs.append(DirectoryRisk(path, round(mean, 1), max(r.risk for r in members), len(members), nloc))
    dirs.sort(key=lambda d: (-d.risk, d.path))
    notes = [] if inputs["hotspots"]["available"] else ["no git history: the hotspot term is 0 for every file"]
    return {"formula": "100 × (0.30·hotspot + 0.25·min(1, ccn_max/20) + 0.15·min(1, nloc/1000) "
                       "+ 0.20·untested + 0.10·min(1, todo per 100 nloc / 2))",
            "weights": WEIGHTS, "files": [asdict(r) for r in rows], "directories": [asdict(d) for d in dirs]}, notes
