"""Runners the executor tests send to their workers (by reference: this module is on the workers' path).

The s0 baseline through the real runtime (run_goal, the confined tools, the judge) with a scripted model: two
replies, the command in a code block and the answer. The others break in the ways a run breaks: its runner
raises, its worker process is killed while it runs (once, or every time); the last one tells what it was given.
"""

from __future__ import annotations

import hashlib
import os
import signal
import time
from pathlib import Path
from typing import Dict, List

from ragix_core.runtime.run import run_goal
from tests.scripted_llm import ScriptedLLM


def fenced(command: str) -> str:
    return f"This command answers it:\n```sh\n{command}\n```\nIt prints the result."


class ScriptedS0:
    """run_goal with strategy s0 and a scripted model whose replies are looked up by goal."""

    def __init__(self, replies: Dict[str, List[str]]) -> None:
        self.replies = replies

    def __call__(self, goal: str, **kw):
        if goal not in self.replies:
            raise RuntimeError(f"no script for goal {goal!r}")
        llm = ScriptedLLM(list(self.replies[goal]))
        kw["strategy"] = "s0"
        return run_goal(goal, client_factory=lambda settings: llm, **kw)


class RaisesFor(ScriptedS0):
    """A runner that raises for one goal (a broken engine) and runs the others."""

    def __init__(self, replies: Dict[str, List[str]], broken_goal: str) -> None:
        super().__init__(replies)
        self.broken_goal = broken_goal

    def __call__(self, goal: str, **kw):
        if goal == self.broken_goal:
            raise RuntimeError("the engine broke")
        return super().__call__(goal, **kw)


def marker(directory: Path, goal: str, suffix: str) -> Path:
    return Path(directory) / (hashlib.sha256(goal.encode()).hexdigest()[:12] + suffix)


class KilledOnce(ScriptedS0):
    """For ``victim``: the first attempt writes its pid and waits to be killed (by the test); a later attempt
    runs normally. The other goals run normally."""

    def __init__(self, replies: Dict[str, List[str]], victim: str, directory: Path) -> None:
        super().__init__(replies)
        self.victim, self.directory = victim, Path(directory)

    def __call__(self, goal: str, **kw):
        if goal == self.victim:
            pid_file = marker(self.directory, goal, ".pid")
            with open(marker(self.directory, goal, ".attempts"), "a") as f:
                f.write(f"{os.getpid()}\n")
            if not pid_file.exists():
                pid_file.write_text(str(os.getpid()))
                time.sleep(120)  # killed long before this ends
                raise RuntimeError("the test did not kill this worker")
        return super().__call__(goal, **kw)


class DiesEveryTime(ScriptedS0):
    """For ``victim``: every attempt kills its own worker process (SIGKILL, as the OOM killer does)."""

    def __init__(self, replies: Dict[str, List[str]], victim: str, directory: Path) -> None:
        super().__init__(replies)
        self.victim, self.directory = victim, Path(directory)

    def __call__(self, goal: str, **kw):
        if goal == self.victim:
            with open(marker(self.directory, goal, ".attempts"), "a") as f:
                f.write(f"{os.getpid()}\n")
            os.kill(os.getpid(), signal.SIGKILL)
        return super().__call__(goal, **kw)


class TellsItsThreads:
    """A runner that reports, as its error, the embedded model's threads its configuration gives it."""

    def __call__(self, goal: str, **kw):
        raise RuntimeError(f"threads={kw['config'].llm.default.threads}")
