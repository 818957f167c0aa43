"""The NL2Bash fixture tree (InterCode-ALFA's /testbed) on the host: built, copied, compared.

The package ships no files for the tree, only the shell script its Dockerfile runs
as root to create /testbed. That script is not run as shipped: every line is
checked first (known commands only, no expansion or chaining, every path under
/testbed) and a line that writes elsewhere is dropped, as it is not part of the
tree (fs_1 writes /index.html). Bash then runs the rest with /testbed meaning a
temporary directory. fs_5's script is written for Alpine's sh; its lines
(``echo -e``, ``chmod +x``) mean the same under bash.

The tree is built once per load and copied with its modes and mtimes, so the gold
command and the agent see the same timestamps (``ls -l``, ``find -mmin``).
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import stat
import subprocess
import tempfile
from pathlib import Path
from typing import Dict, List, Sequence, Tuple

from ragix_core.eval.benchmarks.errors import BenchmarkError
from ragix_core.eval.workspace import pack_directory, unpack_directory
from ragix_core.tools.policy import RAGIX_STATE_DIR

__all__ = ["TESTBED", "Fixture", "shell_words", "under_testbed", "vet_setup", "run_bash", "snapshot", "tree_diff",
           "normalize", "squash"]

TESTBED = "/testbed"
_TESTBED_WORD = re.compile(r"/testbed(?![\w.-])")
_SETUP_COMMANDS = frozenset({"mkdir", "touch", "echo", "chmod", "gzip", "rm"})
_TIMEOUT = 20  # seconds for the setup script or a gold command
# Only PATH and HOME (the agent's tools get an empty environment): no LANG, so the gold command
# sorts in the C locale as the agent does (and as the container did).
_PATH = "/usr/local/bin:/usr/bin:/bin"

Entry = Tuple  # ("dir", mode) | ("file", mode, content) | ("link", target)


def shell_words(line: str) -> List[str]:
    """The words of a command line as bash splits them (quotes removed, operators apart);
    ValueError when a quote is unbalanced."""
    lex = shlex.shlex(line, posix=True, punctuation_chars=True)
    lex.whitespace_split = True
    lex.commenters = ""  # bash decides what a comment is; a word is checked either way
    return list(lex)


def under_testbed(path: str) -> bool:
    return (path == TESTBED or path.startswith(TESTBED + "/")) and ".." not in path.split("/")


def vet_setup(script: str) -> Tuple[List[str], List[str]]:
    """(lines to run, lines dropped because they write outside /testbed). A line this adapter
    cannot run safely (another command, ``$``, a pipe, a ``;``) is a BenchmarkError."""
    keep: List[str] = []
    dropped: List[str] = []
    for n, line in enumerate(script.splitlines(), 1):
        text = line.strip()
        if not text or text.startswith("#"):
            continue
        try:
            words = shell_words(text)
        except ValueError as exc:
            raise BenchmarkError(f"setup script line {n}: cannot parse {text[:60]!r}: {exc}") from None
        operators = [w for w in words if w and set(w) <= set("();<>|&") and w != ">"]
        if words[0] not in _SETUP_COMMANDS or operators or "$" in text or "`" in text:
            raise BenchmarkError(f"setup script line {n}: unsupported command {text[:60]!r}")
        if all(under_testbed(w) for w in words if w.startswith("/")):
            keep.append(text)
        else:
            dropped.append(text)
    return keep, dropped


def run_bash(command: str, root: Path, timeout: float = _TIMEOUT) -> subprocess.CompletedProcess:
    """``command`` with /testbed meaning ``root``, run from root's parent (the container's
    working directory is /, the parent of /testbed). Raises subprocess.TimeoutExpired."""
    code = _TESTBED_WORD.sub(lambda _: str(root), command)
    return subprocess.run(["bash", "-c", code], cwd=root.parent, env={"PATH": _PATH, "HOME": str(root.parent)},
                          capture_output=True, encoding="utf-8", errors="replace", timeout=timeout,
                          stdin=subprocess.DEVNULL)


class Fixture:
    """One built tree, in a temporary directory that lives as long as a scenario refers to it."""

    def __init__(self, script: str, name: str):
        lines, self.dropped = vet_setup(script)
        self._tmp = tempfile.TemporaryDirectory(prefix=f"ragix-nl2bash-{name}-")
        self.root = Path(self._tmp.name).resolve() / "testbed"
        try:
            p = run_bash("set -e\n" + "\n".join(lines), self.root)
        except subprocess.TimeoutExpired:
            raise BenchmarkError(f"{name} setup script timed out") from None
        if p.returncode != 0 or not self.root.is_dir():
            raise BenchmarkError(f"{name} setup script failed ({p.returncode}): {p.stderr.strip()[:200]}")
        self.snapshot = snapshot(self.root)

    def copy_to(self, dest: Path) -> None:
        # symlinks=True: a link is copied as a link, never followed out of the tree
        shutil.copytree(self.root, dest, symlinks=True, dirs_exist_ok=True)

    def __reduce__(self):
        # Sent to a worker process (ragix eval --jobs) as the tree's bytes, rebuilt there in a temporary
        # directory of its own: the driver's directory may be on another machine, or gone.
        return _unpacked_fixture, (pack_directory(self.root), self.dropped, self.snapshot)


def _unpacked_fixture(data: bytes, dropped, tree) -> Fixture:
    """A Fixture rebuilt from ``Fixture.__reduce__``'s bytes (never run again: the script ran on the driver)."""
    fixture = Fixture.__new__(Fixture)
    fixture.dropped, fixture.snapshot = dropped, tree
    fixture._tmp = tempfile.TemporaryDirectory(prefix="ragix-nl2bash-sent-")
    fixture.root = unpack_directory(data, Path(fixture._tmp.name).resolve() / "testbed")
    # The unpacker clears setuid/setgid/sticky bits (safe for any archive); the fixture's own bits are part of
    # the tree a write task is judged against (fs_1 has a file of mode 1553), so they are set back.
    for rel, entry in tree.items():
        if entry[0] != "link":
            os.chmod(fixture.root / rel, entry[1])
    return fixture


def normalize(text: str, roots: Sequence[Path]) -> str:
    """Paths made relative to the tree: "ROOT/a", "/testbed/a" and "./a" become "a", ROOT alone
    ".", so the gold run's copy, the agent's working copy and a relative ``find .`` print alike."""
    for root in roots:
        text = text.replace(str(root) + "/", "").replace(str(root), ".")
    text = text.replace(TESTBED + "/", "")
    text = _TESTBED_WORD.sub(".", text)
    return re.sub(r"(?<![\w./])\./", "", text)  # "../" is kept


def squash(line: str) -> str:
    """A line with runs of blanks made one space (``wc`` pads its columns)."""
    return re.sub(r"[ \t]+", " ", line).strip()


def _content(path: Path, roots: Sequence[Path]):
    data = path.read_bytes()
    try:
        return normalize(data.decode("utf-8"), roots)  # a listing of paths saved to a file
    except UnicodeDecodeError:
        return data


def snapshot(root: Path) -> Dict[str, Entry]:
    """{relative path: entry} for everything under root (not root itself, nor ragix's own state
    at the top). Compared: kind, permission bits, file contents, link targets; not owners or
    times (a copy cannot keep them all, and no task asks for them)."""
    root = Path(root)
    roots = (root, root.resolve())
    out: Dict[str, Entry] = {}
    for dirpath, dirnames, filenames in os.walk(root):
        if Path(dirpath) == root and RAGIX_STATE_DIR in dirnames:
            dirnames.remove(RAGIX_STATE_DIR)
        for name in dirnames + filenames:
            p = Path(dirpath) / name
            rel = str(p.relative_to(root))
            st = p.lstat()
            if stat.S_ISLNK(st.st_mode):
                out[rel] = ("link", normalize(os.readlink(p), roots))
            elif stat.S_ISDIR(st.st_mode):
                out[rel] = ("dir", stat.S_IMODE(st.st_mode))
            else:
                out[rel] = ("file", stat.S_IMODE(st.st_mode), _content(p, roots))
    return out


def tree_diff(want: Dict[str, Entry], got: Dict[str, Entry], limit: int = 3) -> str:
    """"" when equal, else the first differences in words."""
    problems = []
    for rel in sorted(set(want) | set(got)):
        w, g = want.get(rel), got.get(rel)
        if w == g:
            continue
        if g is None:
            problems.append(f"{rel} missing")
        elif w is None:
            problems.append(f"{rel} not expected")
        elif w[0] != g[0]:
            problems.append(f"{rel} is a {g[0]}, expected a {w[0]}")
        elif w[0] == "link":
            problems.append(f"{rel} points to {g[1]!r}, expected {w[1]!r}")
        elif w[1] != g[1]:
            problems.append(f"{rel} has mode {g[1]:o}, expected {w[1]:o}")
        else:
            problems.append(f"{rel} has other contents")
    more = f" (+{len(problems) - limit} more)" if len(problems) > limit else ""
    return "; ".join(problems[:limit]) + more
