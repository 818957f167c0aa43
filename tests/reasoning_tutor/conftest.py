"""A small project for the proof game's tests, and the helpers that run moves against it."""

from __future__ import annotations

from pathlib import Path
from typing import Any, List

import pytest

from ragix_core.reasoning_tutor.actions import Executor
from ragix_core.reasoning_tutor.graph import ProofGraph
from ragix_core.reasoning_tutor.moves import MoveReply
from ragix_core.reasoning_tutor.tutor import Tutor, TutorSettings
from ragix_core.reasoning_tutor.claims import parse_pattern
from ragix_core.tools import ToolBox

FILES = {
    "README.md": "# Demo\nA small demo service.\nRun it with make run.\n",
    "config/app.ini": "[server]\nport = 8080\nworkers = 4\n# threads per worker\nthreads = 6\n",
    "src/app.py": "import os\nfrom demo import payments\n\n\ndef main():\n    return os.getcwd()\n",
    "src/util.py": "def helper(x):\n    return x * 2\n",
    "logs/app.log": "INFO start\nERROR missing key 'payment_key'\nINFO retry\nERROR missing key 'payment_key'\n",
    "tmp/cache.tmp": "scratch\n",
}


@pytest.fixture()
def project(tmp_path: Path) -> Path:
    root = tmp_path / "project"
    for rel, text in FILES.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return root


def move(**data: Any) -> Any:
    """A move as the player would send it (validated by the same model the game uses)."""
    return MoveReply.model_validate(data).root


def propose(command: str, mode: str = "read") -> Any:
    return move(move="PROPOSE", intent="test", command=command, mode=mode)


def assert_(predicate: str, *args: str) -> Any:
    return move(move="ASSERT", claim={"predicate": predicate, "args": list(args)})


def respond(answer: str, *claims: tuple) -> Any:
    return move(move="RESPOND", answer=answer, claims=[{"predicate": c[0], "args": list(c[1:])} for c in claims])


def make_tutor(project: Path, goal: str = "goal", accept: List[str] = (), writes: bool = False,
               truths_before_write: int = 2, log: bool = True, **kw: Any) -> Tutor:
    read_box = ToolBox(project, profile="reflect")
    write_box = ToolBox(project, profile="dev", assume_yes=True) if writes else None
    executor = Executor(read_box, write_box)
    graph = ProofGraph(project.parent / "graph.jsonl" if log else None)
    settings = TutorSettings(accept=[parse_pattern(a) for a in accept], writes_allowed=executor.writes_possible,
                             truths_before_write=truths_before_write, **kw)
    return Tutor(goal, graph, executor.run, settings)
