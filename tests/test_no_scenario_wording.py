"""Our scenario sets are regression tests, not targets: nothing in ragix_core names them.

The vocabulary is read from the sets and their fixture, so a new scenario or fixture file is
checked without editing this test: every scenario id (with a ``-N`` run suffix too), every file
name of the fixture and every file name a scenario's input writes, the names the fixture's Python
defines (``ast``), and the distinctive keys and values of its data files and docs. A hit is a whole
token, case-sensitive, in any text file under ragix_core. Fix a hit by saying the same generically
(``FILE.py``, "a module", "a JSON record"), never by adding to the lists below.
"""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path
from typing import Dict, Iterator, List, Set, Tuple

import yaml

ROOT = Path(__file__).resolve().parents[1]
CORE = ROOT / "ragix_core"
SETS = ROOT / "tests" / "reasoning_v30" / "scenarios"
FIXTURE = ROOT / "tests" / "reasoning_v30" / "fixtures" / "mock_repo"
SCANNED = {".py", ".md", ".yaml", ".yml", ".json", ".txt", ".toml"}

# Scenario ids that are plain English words, not tokens of ours.
PLAIN_IDS = {
    "arithmetic",  # prompts say "arithmetic" of the questions a calculator answers
}
# File names every project has: naming them keys nothing to our fixture.
CONVENTIONAL_FILES = {
    "README.md": "every project's readme",
    "CHANGELOG.md": "every project's history",
    "__init__.py": "every Python package",
    "setup.py": "every setuptools project (a scenario asks for a missing one)",
}
# Fixture names that are generic programming words; their file names (cli.py, models.py, ...) stay checked.
GENERIC_NAMES = {
    "a": "the fixture's module a (a.py): the English article",
    "b": "the fixture's module b (b.py): a one-letter variable",
    "main": "every program's entry point",
    "load": "every storage layer's verb",
    "save": "every storage layer's verb",
    "add": "every container's verb",
    "execute": "every runner's verb (sqlite's db.execute, the graph's execute node)",
    "name": "every record's field",
    "quantity": "a unit conversion's field (chat/tools.py)",
    "Item": "the schema.org/NLWeb result type (research/items.py)",
    "cli": "every tool's command-line module (ragix_core/cli)",
    "api": "every service's module (api.openai.com)",
    "models": "every LLM project's word (llm/models.py)",
    "server": "a generic config key",
    "host": "a generic config key",
    "port": "a generic config key",
    "path": "a generic config key",
    "backup": "a generic config key",
    "127.0.0.1": "the loopback address",
    "INFO": "a log level every logger has",
}
# Code lines keyed to the fixture that this guard found and that a behaviour change must retire (path,
# the exact line, the token): a cleanup of wording may not change what ragix does.
KEYED_CODE = {
    # records.py reads "sku" as a record's key field, added with the JSON-records scenario (91f2d60)
    ("ragix_core/evidence/records.py", '_KEYS = ("id", "sku", "key")  # the fields a program calls it by', "sku"),
}
# What the vocabulary must keep catching, whatever the lists above say.
MUST_CATCH = {"dataclass-name", "maintainer-name", "storage.py", "inventory.json", "guide.md", "a.py",
              "Warehouse", "handle_get", "list_python_files", "B7", "inventory", "Lovelace"}

FILE_NAME = re.compile(r"(?<![\w/.-])(?:[\w.-]+/)*([\w-]+\.[A-Za-z0-9]{1,6})(?!\w)")


def scenario_ids() -> Set[str]:
    ids: Set[str] = set()
    for path in sorted(SETS.glob("*.yaml")):
        ids.update(s["id"] for s in yaml.safe_load(path.read_text(encoding="utf-8")))
    return ids


def fixture_files() -> Set[str]:
    """The fixture's file names, and the file names the scenarios' inputs write (``store.py``,
    ``docs/guides.md``: wrong names a scenario tries on purpose)."""
    names = {p.name for p in FIXTURE.rglob("*") if p.is_file()}
    for path in sorted(SETS.glob("*.yaml")):
        for s in yaml.safe_load(path.read_text(encoding="utf-8")):
            names.update(m.group(1) for m in FILE_NAME.finditer(s["input"]))
    return names


def _scalars(data) -> Iterator[str]:
    """Keys and values of a parsed data file; booleans and small numbers (counts) say nothing."""
    if isinstance(data, dict):
        for key, value in data.items():
            yield from _scalars(key)
            yield from _scalars(value)
    elif isinstance(data, list):
        for value in data:
            yield from _scalars(value)
    elif isinstance(data, str) or (isinstance(data, int) and not isinstance(data, bool) and data >= 100):
        yield str(data)


def fixture_names() -> Set[str]:
    """What the fixture defines and holds: module and package names, functions, classes, methods,
    class fields and module-level names of its Python (with their string values); keys and values
    of its JSON and YAML; the maintainer the docs name."""
    names: Set[str] = set()
    for path in FIXTURE.rglob("*.py"):
        names.add(path.stem)
        if path.name == "__init__.py":
            names.add(path.parent.name)
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                names.add(node.name)
                names.update(f.target.id for f in node.body
                             if isinstance(f, ast.AnnAssign) and isinstance(f.target, ast.Name))
        for node in tree.body:
            if isinstance(node, ast.Assign):
                names.update(t.id for t in node.targets if isinstance(t, ast.Name))
                if isinstance(node.value, ast.Constant) and isinstance(node.value.value, str):
                    names.add(node.value.value)
    for path in FIXTURE.rglob("*.json"):
        names.update(_scalars(json.loads(path.read_text(encoding="utf-8"))))
    for path in list(FIXTURE.rglob("*.yaml")) + list(FIXTURE.rglob("*.yml")):
        names.update(_scalars(yaml.safe_load(path.read_text(encoding="utf-8"))))
    maintainers = [m for path in FIXTURE.rglob("*.md") for m in
                   re.findall(r"Maintainer: ([^(\n]+?) \(([^)\s]+)\)", path.read_text(encoding="utf-8"))]
    assert maintainers, "the fixture's docs name no maintainer any more: update fixture_names()"
    for person, email in maintainers:
        names.update({person, person.split()[-1], email})
    return {n for n in names if not (n.startswith("__") and n.endswith("__"))}  # Python's own dunders


def vocabulary() -> Dict[str, re.Pattern]:
    """Token -> the pattern of its whole-token occurrences."""
    out: Dict[str, re.Pattern] = {}
    for sid in scenario_ids() - PLAIN_IDS:  # `maintainer-name-3`: the id of one run
        out[sid] = re.compile(r"(?<![\w-])" + re.escape(sid) + r"(?:-\d+)?(?![\w-])")
    for name in fixture_files() - set(CONVENTIONAL_FILES):  # src/pkg/storage.py holds storage.py
        out[name] = re.compile(r"(?<![\w.-])" + re.escape(name) + r"(?!\w)")
    for name in fixture_names() - set(GENERIC_NAMES) - set(out):
        out[name] = re.compile(r"(?<![\w])" + re.escape(name) + r"(?![\w])")
    return out


def hits_in(text: str, vocab: Dict[str, re.Pattern]) -> List[Tuple[int, str]]:
    return [(n, token) for n, line in enumerate(text.splitlines(), 1)
            for token, pattern in sorted(vocab.items()) if pattern.search(line)]


def test_the_vocabulary_still_catches_the_names_it_is_for():
    vocab = vocabulary()
    assert MUST_CATCH <= set(vocab), sorted(MUST_CATCH - set(vocab))
    found = {t for _, t in hits_in("Measured (maintainer-name-3): `grep -rl B7 src/inventory/storage.py` "
                                   "and Warehouse.handle_get", vocab)}
    assert {"maintainer-name", "B7", "storage.py", "inventory", "Warehouse", "handle_get"} <= found
    # whole tokens only: another project's names that contain ours pass
    assert hits_in("my_storage.py data.py B72 Warehouses ragix-dataclass-name-x", vocab) == []


def test_every_exception_names_something_the_vocabulary_would_check():
    """An exception that names nothing of the sets or the fixture any more is stale: remove it."""
    assert PLAIN_IDS <= scenario_ids()
    assert set(GENERIC_NAMES) <= fixture_names(), sorted(set(GENERIC_NAMES) - fixture_names())
    assert set(CONVENTIONAL_FILES) <= fixture_files(), sorted(set(CONVENTIONAL_FILES) - fixture_files())


def test_ragix_core_names_no_scenario_and_no_fixture():
    vocab = vocabulary()
    found, keyed = [], set()
    for path in sorted(CORE.rglob("*")):
        if path.suffix not in SCANNED or "__pycache__" in path.parts or not path.is_file():
            continue
        rel = path.relative_to(ROOT).as_posix()
        lines = path.read_text(encoding="utf-8").splitlines()
        for n, token in hits_in("\n".join(lines), vocab):
            known = (rel, lines[n - 1].strip(), token)
            if known in KEYED_CODE:
                keyed.add(known)
            else:
                found.append(f"{rel}:{n}: {token}")
    assert keyed == KEYED_CODE, f"KEYED_CODE names lines that are gone: remove {sorted(KEYED_CODE - keyed)}"
    assert not found, (f"{len(found)} mentions of our scenario sets or their fixture in ragix_core "
                       "(say it generically; see this test's docstring):\n" + "\n".join(found))
