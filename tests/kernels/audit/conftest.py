"""Small real trees for the audit kernels: files written in tmp_path, and a real git repository whose
commits come from two authors (the churn kernel reads it with the real git, confined)."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path
from typing import Dict

import pytest

COMPLEX = '''def route(kind, size, urgent, retry):
    if kind == "a":
        return 1
    if kind == "b" and size > 3:
        return 2
    for _ in range(retry):
        if urgent:
            return 3
    while size:
        size -= 1
    return 0
'''  # lizard: 1 + if + if + and + for + if + while = 7


def write(root: Path, files: Dict[str, str]) -> None:
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")


def git(root: Path, *args: str, author: str = "Alice") -> None:
    email = f"{author.lower()}@example.org"
    env = {"PATH": os.environ["PATH"], "HOME": str(root), "GIT_CONFIG_NOSYSTEM": "1",
           "GIT_AUTHOR_NAME": author, "GIT_AUTHOR_EMAIL": email,
           "GIT_COMMITTER_NAME": author, "GIT_COMMITTER_EMAIL": email}
    subprocess.run(["git", *args], cwd=root, env=env, check=True, capture_output=True)


def commit(root: Path, files: Dict[str, str], author: str, message: str = "change") -> None:
    write(root, files)
    git(root, "add", "-A", author=author)
    git(root, "commit", "-q", "-m", message, author=author)


@pytest.fixture(autouse=True)
def _home(tmp_path, monkeypatch):
    monkeypatch.setenv("RAGIX_HOME", str(tmp_path / "home"))


@pytest.fixture()
def history(tmp_path) -> Path:
    """src/core.py: 3 commits (Alice twice, Bob once), complex; src/util.py: 1 commit (Bob), simple;
    tests/test_util.py tests util; README.md is not source."""
    root = tmp_path / "proj"
    root.mkdir()
    git(root, "init", "-q", "-b", "main")
    commit(root, {"src/core.py": COMPLEX, "README.md": "# proj\n"}, "Alice")
    commit(root, {"src/core.py": COMPLEX + "\n\ndef extra():\n    return 1\n"}, "Alice")
    commit(root, {"src/core.py": COMPLEX + "\n\ndef extra():\n    return 2  # TODO: real value\n",
                  "src/util.py": "def add(a, b):\n    return a + b\n",
                  "tests/test_util.py": "from src.util import add\n\n\ndef test_add():\n    assert add(1, 2) == 3\n"},
           "Bob")
    return root
