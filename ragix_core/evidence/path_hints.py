"""Name the existing files a failed command probably meant.

A small model that writes `wc -l docs/FILES.md` and reads "No such file or
directory" tends to retry with another command on the same wrong path. Telling
it which files exist with a close name turns the recovery into a lookup: the
hint is computed from the project tree, never invented, and is marked as
ragix's note so the trace keeps the tool's own stderr distinguishable.
"""

from __future__ import annotations

import difflib
import itertools
import os
import re
from pathlib import Path
from typing import Dict, Iterator, List, Optional, Tuple

from ragix_core.core.text import bounded
from ragix_core.tools.grep_words import GREP_PROGRAMS, read_grep
from ragix_core.tools.lexer import split_pipeline
from ragix_core.tools.policy import NOT_PROJECT_DIRS
from ragix_core.tools.refusal import Refusal

__all__ = ["missing_paths", "diagnose", "project_files", "project_directories", "project_listing", "LISTING_DEPTH",
           "project_path", "FILE_LIKE", "stand_ins", "goal_files"]

MAX_FILES = 5000
MAX_SUGGESTIONS = 3
SKIP_DIRS = set(NOT_PROJECT_DIRS) | {"__pycache__", "node_modules", ".venv", "venv"}

# A file name as people write one in a goal: "docs/FILE.md", "setup.py" (no spaces, an extension).
FILE_LIKE = re.compile(r"(?<![\w/.-])([\w.-]+/)*[\w-]+\.[A-Za-z0-9]{1,6}(?![\w])")

# GNU coreutils / find / grep wordings of "this path does not exist"
_MISSING = [
    re.compile(r"^[\w./-]+: (?:cannot \w+:? )?['‘\"]?(?P<p>[^'’\"\n]+?)['’\"]?(?: for reading)?: No such file or directory$",
               re.MULTILINE),
]


def missing_paths(stderr: str) -> List[str]:
    found: List[str] = []
    for pattern in _MISSING:
        for m in pattern.finditer(stderr or ""):
            path = m.group("p").strip()
            if path and path not in found:
                found.append(path)
    return found


def _walk(root: Path, max_depth: Optional[int] = None) -> Iterator[Tuple[str, List[str], List[str]]]:
    """``(rel, dirnames, filenames)`` for each project directory, walked without following links and
    without ragix's state, VCS, caches or hidden directories; at most ``max_depth`` directories deep.
    ``dirnames`` are the subdirectories walked next, sorted."""
    for dirpath, dirnames, filenames in os.walk(root):
        rel = os.path.relpath(dirpath, root)
        depth = 0 if rel == "." else rel.count(os.sep) + 1
        dirnames[:] = [] if max_depth is not None and depth + 1 >= max_depth else \
            sorted(d for d in dirnames if d not in SKIP_DIRS and not d.startswith("."))
        yield rel, dirnames, sorted(filenames)


def project_path(path: str) -> str:
    """``path`` as a project-relative path: a leading ``./`` (as find and grep -r print it) off."""
    return path[2:] if path.startswith("./") else path


def _joined(rel: str, name: str) -> str:
    return name if rel == "." else f"{rel}/{name}"


LISTING_DEPTH = 3  # the project listing shown to the planner and the worker: files this deep


def project_listing(root: Path, limit: int) -> str:
    """The project's files as the planner and the worker are shown them: ``./path`` a line, sorted, at
    most LISTING_DEPTH deep, bounded to ``limit`` characters. Read by ragix (names only, links not
    followed), not by a tool call: context, not a command of the answer."""
    return bounded("\n".join(f"./{f}" for f in sorted(project_files(root, max_depth=LISTING_DEPTH))), limit)


def project_files(root: Path, max_depth: Optional[int] = None, limit: int = MAX_FILES) -> List[str]:
    """The project's files as relative paths, sorted (see ``_walk`` for what is left out)."""
    out: List[str] = []
    for rel, _, filenames in _walk(root, max_depth):
        for name in filenames:
            out.append(_joined(rel, name))
            if len(out) >= limit:
                return out
    return out


def _similar(missing: str, files: List[str]) -> List[str]:
    target = missing[2:] if missing.startswith("./") else missing
    name = Path(target).name
    names = difflib.get_close_matches(name, sorted({Path(f).name for f in files}), n=MAX_SUGGESTIONS, cutoff=0.75)
    by_name = [f for n in names for f in files if Path(f).name == n]  # same name first: a wrong directory
    by_path = difflib.get_close_matches(target, files, n=MAX_SUGGESTIONS, cutoff=0.85)
    out: List[str] = []
    for f in by_name + by_path:
        if f not in out:
            out.append(f)
    return out[:MAX_SUGGESTIONS]


def diagnose(command: str, stderr: str, root: Path) -> Tuple[str, Optional[Tuple[str, str]]]:
    """For a failed ``command``: one "[ragix] ..." hint line per missing path named in ``stderr``
    ("" when none), and the command re-aimed at the one existing file of a close name with a note
    saying so (None unless that replacement is unambiguous). The tree is walked once."""
    missing = missing_paths(stderr)[:3]
    if not missing:
        return "", None
    moved = _directory_elsewhere(command, missing, root)
    if moved is not None:
        return moved
    files = project_files(root)
    directories: Optional[List[str]] = None
    close, kind = {}, {}
    for path in missing:
        # A path read as a directory is matched with directories: measured on the paraphrase set at 529b167,
        # `find ./sqlparse/engine/filters -name '*.py'` was re-aimed at the file engine/filter_stack.py, and the
        # run summed one file's lines, while the package directory sqlparse/filters exists.
        if _read_as_directory(command, path):
            directories = directories if directories is not None else project_directories(root)
            close[path], kind[path] = _similar(path, directories), "director"
        else:
            close[path], kind[path] = _similar(path, files), "file"
    lines = [f"[ragix] {path} does not exist; existing {_plural(kind[path])} with a similar name: {', '.join(near)}"
             if near else f"[ragix] {path} does not exist and no {_one(kind[path])} in the project has a similar name"
             for path, near in close.items()]
    return "\n".join(lines), _re_aimed(command, missing, close, _one(kind[missing[0]]))


def _plural(kind: str) -> str:
    return "directories" if kind == "director" else "files"


def _one(kind: str) -> str:
    return "directory" if kind == "director" else "file"


def project_directories(root: Path, limit: int = MAX_FILES) -> List[str]:
    """The project's directories as relative paths, walked as ``project_files`` walks them."""
    out: List[str] = []
    for rel, dirnames, _ in _walk(root):
        out.extend(_joined(rel, d) for d in dirnames)
        if len(out) >= limit:
            return out[:limit]
    return out


def _read_as_directory(command: str, path: str) -> bool:
    """``path`` (no file extension) stands where a directory is read: a starting point of find, an operand of ls,
    du or tree, or of a recursive grep."""
    if FILE_LIKE.fullmatch(project_path(path)):
        return False
    try:
        stages = split_pipeline(command)
    except Refusal:
        return False
    target = project_path(path).rstrip("/")
    for stage in stages:
        words = [str(w) for w in stage]
        program = os.path.basename(words[0]) if words else ""
        if program == "find":
            operands = list(itertools.takewhile(lambda w: not w.startswith("-") and w not in ("(", "!"), words[1:]))
        elif program in ("ls", "du", "tree"):
            operands = [w for w in words[1:] if not w.startswith("-")]
        elif program in GREP_PROGRAMS:
            g = read_grep(words[1:])
            recursive = set(g.flags) & set("rR") or {"--recursive", "--dereference-recursive"} & set(g.long_names)
            operands = [str(w) for w in g.operands] if recursive else []
        else:
            continue
        if any(project_path(w).rstrip("/") == target for w in operands):
            return True
    return False


def _directory_elsewhere(command: str, missing: List[str], root: Path) -> Optional[Tuple[str, Tuple[str, str]]]:
    """When every missing path starts with the same directory name D that does not exist at the top
    while exactly one directory of the project is called D (``PKG`` for ``src/PKG``), the hint
    names it and the command is re-aimed there. Measured on the regression set (three-set run of
    5ae6fa5): `find PKG -name '*.py' | wc -l PKG/*.py` got "similar: PKG.json" and two top-level
    modules, and the reflection planned `mkdir PKG`. The paths are replaced only
    where they stand as whole words, and only when every such word is one of the missing paths."""
    root = Path(root)  # the tool box's root may be a str
    cleaned = [m[2:] if m.startswith("./") else m for m in missing]
    heads = {m.split("/", 1)[0] for m in cleaned}
    if len(heads) != 1:
        return None
    head = heads.pop()
    if not head or head in (".", "..") or (root / head).exists():
        return None
    where = re.compile(r"(?<![\w./-])(\./)?" + re.escape(head) + r"(?=/|[\s'\"|]|$)")
    try:
        stages = split_pipeline(command)
    except Refusal:
        return None
    # Used as a directory: a path under it, or a tool that takes directories. `cat PKG` may
    # mean PKG.json; the close-name hints below handle that.
    if not any(m.startswith(head + "/") for m in cleaned) and \
            not any(stage and os.path.basename(str(stage[0])) in ("find", "ls", "du") for stage in stages):
        return None
    words = [str(w) for stage in stages for w in stage]
    words = [w[2:] if w.startswith("./") else w for w in words]
    paths = [w for w in words if w == head or w.startswith(head + "/")]
    if not paths or any(w not in cleaned for w in paths) or len(where.findall(command)) != len(paths):
        return None
    homes: List[str] = []  # walked last, after the checks that need no walk; as bounded as project_files
    for seen, (rel, dirnames, _) in enumerate(_walk(root)):
        homes.extend(_joined(rel, d) for d in dirnames if d == head)
        if len(homes) > 1 or seen >= MAX_FILES:
            return None
    if len(homes) != 1:
        return None
    home = homes[0]
    fixed = where.sub(lambda _m: home, command)
    hint = f"[ragix] {head} does not exist at the top of the project; the project's one directory of that name is {home}"
    return hint, (fixed, f"{head} does not exist; ran it on {home}, the project's one directory of that name")


def _re_aimed(command: str, missing: List[str], close: Dict[str, List[str]],
              kind: str = "file") -> Optional[Tuple[str, str]]:
    if len(missing) != 1:
        return None
    if not close[missing[0]]:
        return _searched_everywhere(command, missing[0])
    if len(close[missing[0]]) != 1:
        return None
    wrong, right = missing[0], close[missing[0]][0]
    # Replace the path where it stands in the model's command line, keeping its quoting and pipes;
    # everywhere it stands (measured: `find . -name docs/FILES.md | wc -l docs/FILES.md`, planned
    # to count the lines of a misspelt file, kept failing when only a lone mention was re-aimed).
    where = re.compile(r"(?<![\w./-])" + re.escape(wrong) + r"(?![\w./-])")
    if not where.search(command) or any(c in right for c in "'\"\\ "):
        return None
    fixed = where.sub(lambda _m: right, command)
    return fixed, f"{wrong} does not exist; ran it on {right}, the existing {kind} with the closest name"


def _searched_everywhere(command: str, wrong: str) -> Optional[Tuple[str, str]]:
    """``grep [options] PATTERN WRONG [| ...]``, where WRONG exists under no close name either, as
    the same search over the whole project: what the goal looked for may be in another file
    (measured: the project version asked from setup.py, where it is in pyproject.toml, ended
    no_evidence). Only that exact shape; the note tells the user the file is missing."""
    head, bar, tail = command.partition("|")
    try:
        words = [str(w) for w in split_pipeline(head)[0]]
    except (Refusal, IndexError):
        return None
    if not words or os.path.basename(words[0]) not in ("grep", "egrep", "fgrep") or words[-1] != wrong:
        return None
    operands = [w for w in words[1:] if not w.startswith("-")]
    if len(operands) != 2 or any(w in ("-e", "-f", "--regexp", "--file") for w in words):
        return None
    where = re.compile(r"(?<![\w./-])" + re.escape(wrong) + r"(?![\w./-])\s*$")
    if not where.search(head):
        return None
    recursive = any(w in ("-r", "-R", "--recursive") or (re.fullmatch(r"-[A-Za-z]+", w) and ("r" in w or "R" in w))
                    for w in words[1:])
    search = where.sub(". ", head).rstrip()
    if not recursive:
        search = re.sub(r"^(\s*\S+)", r"\1 -r", search, count=1)
    fixed = f"{search} {bar}{tail}".rstrip() if bar else search
    return fixed, f"{wrong} does not exist and no file has a similar name; searched the whole project instead"


def stand_ins(goal: str, commands: List[str], root: Path) -> List[Tuple[str, str]]:
    """``(named, used)`` for each file the goal names that does not exist while a command ran on an
    existing file of a close name instead: the model corrected the path silently, and the user
    must be told the answer is about another file."""
    pairs: List[Tuple[str, str]] = []
    files: Optional[List[str]] = None
    for named in goal_files(goal):
        if (root / named).exists():
            continue
        files = files if files is not None else project_files(root)
        for near in _similar(named, files):
            where = re.compile(r"(?<![\w/-])(\./)?" + re.escape(near) + r"(?![\w/-])")
            if any(where.search(c) for c in commands):
                pairs.append((named, near))
                break
    return pairs


def goal_files(goal: str) -> List[str]:
    """The file names a goal writes out ("docs/FILE.md", "setup.py"), existing or not."""
    return [m.group(0).rstrip(".") for m in FILE_LIKE.finditer(goal)]
