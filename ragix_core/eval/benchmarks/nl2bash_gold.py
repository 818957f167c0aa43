"""NL2Bash gold commands: which are kept, what they do to the tree, and the checkers they give.

A gold command is first read, not run: one that reaches the machine rather than
the tree (users, processes, network, the host's identity), depends on the time or
randomness, or names a path outside /testbed is skipped. The others are run on two
fresh copies of the tree at two different paths. A command that fails, times out,
writes outside the copy, or does not give the same output and tree both times
(time, process ids, the copy's own path stored in a file) is skipped. Then:

- a *write* task (the tree changed) passes when the agent's tree equals the gold
  tree (kinds, permission bits, contents, link targets; see nl2bash_tree.snapshot);
- a *read* task passes when every line the gold command printed is a whole line of
  some step's stdout, or stands as a word in the final answer, paths made relative
  to the tree on both sides (nl2bash_tree.normalize). A read task that prints
  nothing is skipped: any answer would pass.
"""

from __future__ import annotations

import os
import re
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any, List, Optional, Sequence, Tuple

from ragix_core.eval.benchmarks.nl2bash_tree import (Fixture, normalize, run_bash, shell_words, snapshot, squash,
                                                     tree_diff, under_testbed)
from ragix_core.eval.scenario import Checker

__all__ = ["unsafe", "judge", "ReadChecker", "WriteChecker"]

_HOST = re.compile(
    r"(?<![-\w./])(sudo|su|chown|chgrp|useradd|userdel|usermod|groupadd|passwd|id|whoami|who|groups|hostname|"
    r"uname|ps|pgrep|kill|pkill|killall|lsof|top|crontab|mount|umount|ping|curl|wget|ssh|scp|nc|dig|nslookup|"
    r"ifconfig|netstat|ip|date|uptime|shuf|mktemp|sleep)\b"
    r"|\$\$|\$\{?(RANDOM|PPID|BASHPID|HOSTNAME|USER)\b"
)
# Programs named by their path (find -exec /bin/echo) only read the system; /dev/null is harmless.
_SYSTEM_OK = re.compile(r"/dev/null|/(usr/)?bin/[\w.-]+")
# Their first word after the options is a pattern or a program, which may start with "/".
_PATTERN_TAKERS = frozenset({"grep", "egrep", "fgrep", "awk", "sed"})
_INNER_PATH = re.compile(r"""[\s"'>]/""")  # a path inside that program (awk's print > "/x") is not exempt


def unsafe(gold: str) -> str:
    """Why ``gold`` must not run here or means nothing outside its container ("" when it may)."""
    m = _HOST.search(gold)
    if m:
        return f"uses {m.group(0)!r}: about the machine (users, processes, network, host) or the moment, not the tree"
    try:
        words = shell_words(gold)
    except ValueError as exc:
        return f"cannot parse the gold command: {exc}"
    for i, word in enumerate(words):
        if word == ".." or word.startswith("../"):
            return "uses a parent directory of /testbed"
        if not word.startswith("/") or under_testbed(word) or _SYSTEM_OK.fullmatch(word):
            continue
        program = next((w for w in reversed(words[:i]) if not w.startswith("-")), "")
        if program in _PATTERN_TAKERS and not _INNER_PATH.search(word[1:]):
            continue  # the pattern or program of grep/awk/sed ("grep -v /subdir1/", "awk '/x/ {...}'")
        return f"touches {word} outside /testbed"
    return ""


def _lines(text: str, roots: Sequence[Path]) -> List[str]:
    return [squash(line) for line in normalize(text, roots).splitlines() if line.strip()]


def _roots(workdir: Path) -> Tuple[Path, ...]:
    """The directory as given and as resolved: a command may print either."""
    return tuple(dict.fromkeys((Path(workdir), Path(workdir).resolve())))


def _said(line: str, answer: str) -> bool:
    """``line`` as a word of the answer: "3" is in "There are 3 files." but not in "dir3" or "13"."""
    return re.search(r"(?<![\w/.-])" + re.escape(line) + r"(?![\w/-])", answer) is not None


@dataclass(frozen=True)
class ReadChecker:
    """A read task passes when every line the gold command printed was printed by the agent's commands or
    stated in its answer. An object, not a closure, so a run can be sent to a worker process (--jobs)."""
    lines: Tuple[str, ...]

    def __call__(self, answer: str, workdir: Path, outputs: Sequence[str] = ()) -> Tuple[bool, str]:
        roots = _roots(workdir)
        printed = {line for out in outputs for line in _lines(out, roots)}
        said = "\n".join(_lines(answer or "", roots))
        missing = [line for line in self.lines if line not in printed and not _said(line, said)]
        if missing:
            return False, (f"{len(missing)} of the gold command's {len(self.lines)} lines neither printed nor in the "
                           f"answer, e.g. {missing[0][:80]!r}")
        return True, f"all {len(self.lines)} lines of the gold output found"


@dataclass(frozen=True)
class WriteChecker:
    """A write task passes when the tree after the run is the tree after the gold command."""
    tree: Any

    def __call__(self, answer: str, workdir: Path) -> Tuple[bool, str]:
        diff = tree_diff(self.tree, snapshot(workdir))
        return not diff, (f"the tree differs from the gold command's: {diff}" if diff
                          else "the tree is the gold command's")


def judge(gold: str, fixture: Fixture) -> Tuple[Optional[str], Optional[Checker], str]:
    """(kind "read"/"write", checker, "") for a task kept, (None, None, why) for one skipped."""
    why = unsafe(gold)
    if why:
        return None, None, why
    runs = []
    with tempfile.TemporaryDirectory(prefix="ragix-nl2bash-gold-") as tmp:
        # Two paths of different lengths: a result that holds the copy's path (tar) differs.
        for sub in ("a", "second-copy"):
            root = Path(tmp) / sub / "testbed"
            fixture.copy_to(root)
            try:
                p = run_bash(gold, root)
            except subprocess.TimeoutExpired:
                return None, None, "the gold command times out"
            if p.returncode != 0:
                first = (p.stderr.strip().splitlines() or [""])[0]
                first = normalize(first, _roots(root))[:80]
                return None, None, f"the gold command fails (exit {p.returncode}: {first})"
            if os.listdir(root.parent) != ["testbed"]:
                return None, None, "the gold command writes outside /testbed"
            runs.append((_lines(p.stdout, _roots(root)), snapshot(root)))
    (lines, tree), (lines2, tree2) = runs
    if lines != lines2 or tree != tree2:
        part = "output" if lines != lines2 else "tree (" + tree_diff(tree, tree2, limit=1) + ")"
        return None, None, f"nondeterministic: the {part} differs between two fresh copies"
    if tree != fixture.snapshot:
        return "write", WriteChecker(tree), ""
    if not lines:
        return None, None, "prints nothing and changes nothing: any answer would pass"
    return "read", ReadChecker(tuple(lines)), ""
