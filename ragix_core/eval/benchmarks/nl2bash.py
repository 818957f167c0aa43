"""InterCode-ALFA NL2Bash tasks (the ``icalfa`` wheel) as harness scenarios.

The wheel is read as a zip (``pip download --no-deps icalfa==0.3.6 -d .bench``);
icalfa and its dependencies (docker, gymnasium, ...) are never installed or
imported. Of its fixtures, fs_1 and fs_5 are used, and of their tasks those whose
gold command names /testbed: the others ask about the container itself (``ls /``,
``lsof``) or about ``testbed`` relative to its root.

A task runs in an empty working copy that stands for /testbed: setup copies the
fixture tree there (nl2bash_tree), the checker compares with what the gold command
printed or did to the tree (nl2bash_gold). A task that does not qualify is skipped
with the reason (``nl2bash_scenarios(..., skipped=[])`` collects them).

The agent is in the tree, so the task text calls it the current directory; in order:
"/testbed/X" and "testbed/X" become "./X"; "/testbed" or "testbed" (maybe quoted,
maybe after "the", "the entire" or "the directory", maybe followed by "directory" or
"folder") becomes "the current directory" ("the entire current directory"). The gold command
keeps /testbed: it runs with /testbed meaning a copy of the tree.
"""

from __future__ import annotations

import json
import re
import zipfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any, List, Optional, Tuple

from ragix_core.eval.benchmarks.data import find_download
from ragix_core.eval.benchmarks.errors import BenchmarkError
from ragix_core.eval.benchmarks.nl2bash_gold import judge
from ragix_core.eval.benchmarks.nl2bash_tree import TESTBED, Fixture
from ragix_core.eval.scenario import Scenario

__all__ = ["nl2bash_scenarios", "find_wheel", "rewrite_task", "WHEEL_HINT", "FIXTURES"]

FIXTURES = ("fs_1", "fs_5")
_ASSETS = "icalfa/assets/"
WHEEL_HINT = "pip download --no-deps icalfa==0.3.6 -d .bench"

_TREE_PATH = re.compile(r"(?<![\w./-])/?testbed/")
_TREE = re.compile(r"(?:\bthe\s+(entire\s+)?(?:(?:directory|folder)\s+)?)?(['\"]?)(?<![\w.-])/?testbed\2"
                   r"(?:\s+(?:directory|folder))?(?![\w/-])")


def rewrite_task(text: str) -> str:
    """The task text with the tree called the current directory (see the module docstring)."""
    text = _TREE_PATH.sub("./", text)
    return _TREE.sub(lambda m: f"the {m.group(1) or ''}current directory", text)


def find_wheel(explicit: Optional[Path] = None) -> Path:
    return find_download("icalfa-*.whl", "NL2Bash data (the icalfa wheel)", WHEEL_HINT, explicit)


def _records(zf: zipfile.ZipFile, name: str) -> List[Tuple[str, str]]:
    """(query, gold) of every task of a fixture; a malformed task is a BenchmarkError."""
    data: Any = json.loads(zf.read(f"{_ASSETS}datasets/nl2bash_{name}.json"))
    if not isinstance(data, list):
        raise BenchmarkError(f"nl2bash_{name}.json: expected a list of tasks, got {type(data).__name__}")
    out = []
    for i, rec in enumerate(data):
        if not (isinstance(rec, dict) and isinstance(rec.get("query"), str) and isinstance(rec.get("gold"), str)):
            raise BenchmarkError(f"nl2bash_{name}.json: task #{i} is not a mapping with a string query and gold")
        out.append((rec["query"], rec["gold"]))
    return out


@dataclass(frozen=True)
class FixtureSetup:
    """A run's working copy is the fixture tree (an object, not a closure: it is sent to workers with --jobs)."""
    fixture: Fixture

    def __call__(self, work: Path) -> None:
        self.fixture.copy_to(work)


def _fixture_scenarios(zf: zipfile.ZipFile, name: str,
                       skipped: Optional[List[Tuple[str, str]]]) -> List[Scenario]:
    records = _records(zf, name)
    fixture = Fixture(zf.read(f"{_ASSETS}docker/setup_nl2b_{name}.sh").decode("utf-8", "replace"), name)
    out: List[Scenario] = []
    for i, (query, gold) in enumerate(records):
        if TESTBED not in gold:
            continue
        sid = f"nl2bash-{name}-{i}"
        kind, checker, why = judge(gold, fixture)
        if kind is None:
            if skipped is not None:
                skipped.append((sid, why))
            continue
        out.append(Scenario(
            id=sid,
            input=rewrite_task(query),
            description=f"InterCode-ALFA NL2Bash {name} ({kind} task; gold: {gold})",
            max_steps=10,
            source=f"icalfa NL2Bash {name}",
            category="nl2bash",
            empty_workdir=True,
            setup=FixtureSetup(fixture),
            checker=checker,
        ))
    return out


def nl2bash_scenarios(fixtures: Tuple[str, ...] = FIXTURES, wheel: Optional[Path] = None,
                      skipped: Optional[List[Tuple[str, str]]] = None) -> List[Scenario]:
    unknown = [f for f in fixtures if f not in FIXTURES]
    if unknown:
        raise BenchmarkError(f"NL2Bash fixture must be one of {', '.join(FIXTURES)}, got {unknown[0]!r}")
    path = find_wheel(wheel)
    try:
        with zipfile.ZipFile(path) as zf:
            return [s for name in fixtures for s in _fixture_scenarios(zf, name, skipped)]
    except BenchmarkError:
        raise
    except (zipfile.BadZipFile, KeyError, OSError, ValueError) as exc:
        raise BenchmarkError(f"{path}: cannot read NL2Bash data: {exc}") from None
