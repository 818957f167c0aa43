r"""Whether the evidence covers the files a goal asks about: counts of the files it names, and the
contents of the file it asks about.

A small planner answers "compare the line counts of README.md and CHANGELOG.md" with
``find . -name '*.md' | xargs wc -l | sort -n | head -n 1``: one row, for another file
(measured, three-set run of 5ae6fa5). The writer then states counts for the two named
files that no output shows ("README.md is 6, CHANGELOG.md is 10"), and nothing is left to
bind them to. A person would count the named files before answering; ragix does the same,
without a model: when a goal asks about line counts of files it names, and a named file
exists but no successful step printed a count row for it, ``wc -l`` runs on the named files
as one more step (then binding.py checks the answer against that table).

The same for a file whose contents the goal asks about ("the functions defined in a.py", "what
is in config.yaml"): measured (functions-in-a, targeted run of ecc4ea4), the plan was
``grep -rl '.*\.py'``, whose output names a.py among other files but shows none of its lines,
and the writer answered "a.py". When no successful step read such a file (named it as an
operand, or printed ``a.py:N:`` lines), ragix reads it (``cat``, small text files only).
A file is taken as the goal's subject only after "in", "of" or "inside": after "from", "on" or
"import" a named file is a search's target ("which modules depend on models.py?"), and
reading it would put its name in front of a writer that lists what it is shown.

And for a file the goal names that does not exist: measured (missing-test-api, three-set run of
5ae6fa5), "What does tests/test_api.py test?" was searched for by name, then with
``find . -name 'tests/test_api.py'``, and answered "0". Its directory exists; ragix lists it
(``ls tests``) with a note that the named file does not exist, so the writer sees what is there
(tests/test_models.py) and the user is told.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import List, Optional, Sequence, Tuple

from ragix_core.core.types import PlanStep, StepStatus

from .path_hints import goal_files, project_files, similar_paths, small_text_files
from .steps import found_nothing

__all__ = ["asks_line_counts", "directory_entries", "goal_files_to_count", "goal_files_to_read", "goal_stand_ins_to_read",
           "missing_goal_files", "only_sibling"]

# "how many lines", "line count(s)", "number of lines", and comparisons of length.
_LINE_COUNT = re.compile(r"\b(how many lines|line counts?|number of lines|longer|shorter|more lines|fewer lines)\b",
                         re.IGNORECASE)
MAX_NOTED_ENTRIES = 8  # a missing file's note names what its directory holds, when that is this short
MAX_FILE_BYTES = 1 << 20  # wc reads any size; the cap only keeps odd files (devices, huge logs) out


def asks_line_counts(goal: str) -> bool:
    return bool(_LINE_COUNT.search(goal or ""))


def _counted(name: str, steps: Sequence[PlanStep]) -> bool:
    """A successful step printed a ``<number> <name>`` row (wc -l) for ``name``."""
    for step in steps:
        if step.status != StepStatus.SUCCESS or step.result is None:
            continue
        for line in (step.result.stdout or "").splitlines():
            words = line.split()
            if len(words) == 2 and words[0].isdigit() and words[1] in (name, f"./{name}"):
                return True
    return False


def goal_files_to_count(goal: str, steps: Sequence[PlanStep], root: Path) -> List[str]:
    """Every existing file a line-count ``goal`` names, in the goal's order, when a successful step's
    output counted not all of them; [] otherwise and for other goals. All of them, so that the
    counts end up in one table (binding.py compares the rows of one output)."""
    if not asks_line_counts(goal):
        return []
    named = small_text_files(goal_files(goal), root, max_bytes=MAX_FILE_BYTES)
    return named if any(not _counted(name, steps) for name in named) else []


def _subject(goal: str, name: str) -> bool:
    """The goal asks about the file's content: "defined in X", "the lines of X", "what does X test"."""
    return re.search(rf"\b(?:in|of|inside|does|do)\s+(?:the\s+)?(?:file\s+)?[`'\"]?{re.escape(name)}", goal,
                     re.IGNORECASE) is not None


def _read(name: str, steps: Sequence[PlanStep]) -> bool:
    """A successful step named ``name`` as a word of its command (a grep pattern spelling it counts too:
    the rule errs towards not reading), or printed lines of it (``name:N:``)."""
    for step in steps:
        if step.status != StepStatus.SUCCESS or step.result is None:
            continue
        if name in _command_words(step):
            return True
        if re.search(rf"^(?:\./)?{re.escape(name)}:\d+:", step.result.stdout or "", re.MULTILINE):
            return True
    return False


# "open the cli file", "in the storage module": a file the goal calls by its name without the extension.
_BY_STEM = re.compile(r"\b(?:open|read|show|in|of|inside)\s+the\s+([A-Za-z_][\w-]{0,40})\s+(?:file|module|script)\b",
                      re.IGNORECASE)


def goal_files_by_stem(goal: str, root: Path) -> List[str]:
    """The project files ``goal`` asks about as "the NAME file" (or module, script): for each such NAME,
    the one file whose name is NAME plus an extension; none when no file or several have it."""
    stems = [m.group(1).lower() for m in _BY_STEM.finditer(goal or "")]
    if not stems:
        return []
    files = project_files(root)
    found = []
    for stem in stems:
        hits = [f for f in files if Path(f).suffix and Path(f).stem.lower() == stem]
        if len(hits) == 1:
            found.append(hits[0])
    return found


# "according to the configuration file", "what log level is it configured with": the project's settings.
_ABOUT_CONFIG = re.compile(r"\b(configured|configuration|config files?|settings files?)\b", re.IGNORECASE)
_CONFIG_SUFFIXES = (".yaml", ".yml", ".toml", ".ini", ".cfg", ".conf", ".env")
MAX_CONFIG_FILES = 2  # more than this and which one the goal means is the model's question


def goal_config_files(goal: str, root: Path) -> List[str]:
    """The project's configuration files (by extension) when ``goal`` asks about its configuration
    without naming a file, and it has one or two of them; [] otherwise."""
    if not _ABOUT_CONFIG.search(goal or "") or goal_files(goal):
        return []
    found = [f for f in project_files(root) if f.lower().endswith(_CONFIG_SUFFIXES)]
    return found if len(found) <= MAX_CONFIG_FILES else []


def goal_files_to_read(goal: str, steps: Sequence[PlanStep], root: Path, max_bytes: int) -> List[str]:
    """The small existing text files ``goal`` asks about (named after "in", "of", "inside", "does",
    called "the NAME file", or its configuration files when it asks about its configuration) that no
    successful step read, in the goal's order."""
    named = [name for name in goal_files(goal) if _subject(goal, name)]
    named += [f for f in goal_files_by_stem(goal, root) + goal_config_files(goal, root) if f not in named]
    return [name for name in small_text_files(named, root, max_bytes=max_bytes) if not _read(name, steps)]


def goal_stand_ins_to_read(goal: str, steps: Sequence[PlanStep], root: Path, max_bytes: int
                           ) -> List[Tuple[str, str, str]]:
    """``(named, stand-in, why)`` for each file ``goal`` asks about that does not exist while one
    existing small text file stands in for it, which no successful step read: the one file of a
    close name, or else the only file of its type in its directory. Measured (wrong-module-store at
    571bb74): "the functions defined in src/inventory/store.py" was planned as `find src/inventory`
    and `grep -rl def src/inventory`; no step opened storage.py, and the answer named files, not
    functions. And (missing-test-api at f04ae2c, 2 of 3 runs failed): "What does tests/test_api.py
    test?" replanned `touch tests/test_api.py` and `ls tests/test_api.py` while tests/ holds one test
    file, test_models.py, which a person would open."""
    out: List[Tuple[str, str, str]] = []
    root = Path(root)
    for name in goal_files(goal):
        if not _subject(goal, name) or (root / name).exists():
            continue
        close = similar_paths(name, root)
        why = f"{close[0]} has the closest name" if len(close) == 1 else ""
        if not close:
            sibling = only_sibling(name, root)
            close, why = ([sibling], f"{sibling} is the only {Path(name).suffix} file in "
                                     f"{Path(name).parent}/") if sibling else ([], "")
        if len(close) == 1 and small_text_files(close, root, max_bytes=max_bytes) and not _read(close[0], steps):
            out.append((name, close[0], why))
    return out


def only_sibling(named: str, root: Path) -> Optional[str]:
    """The one file with ``named``'s suffix in ``named``'s directory (not the project root), as a
    project path; None when there are none or several, or the directory is not there."""
    named = named[2:] if named.startswith("./") else named
    parent, suffix = Path(named).parent, Path(named).suffix
    if str(parent) in (".", "") or not suffix:
        return None
    try:
        with os.scandir(Path(root) / parent) as it:
            same = [e.name for e in it if e.is_file(follow_symlinks=False) and e.name.endswith(suffix)
                    and not e.name.startswith(".")]
    except OSError:
        return None
    return str(parent / same[0]) if len(same) == 1 else None


def missing_goal_files(goal: str, steps: Sequence[PlanStep], root: Path) -> List[Tuple[str, str]]:
    """``(named, directory)`` for each file ``goal`` names that does not exist while its directory
    (not the project root) does, and no successful step's command named that directory or a path
    in it."""
    out: List[Tuple[str, str]] = []
    root = Path(root)  # a tool box's root may be a str
    base = root.resolve()
    for named in goal_files(goal):
        named = named[2:] if named.startswith("./") else named
        parent = str(Path(named).parent)
        try:
            real = (root / parent).resolve()
            if parent in (".", "") or (root / named).exists() or not real.is_dir() or not real.is_relative_to(base):
                continue
        except (OSError, ValueError):
            continue
        if any(_names_dir(step, parent, named) for step in steps) or any(parent == d for _, d in out):
            continue
        out.append((named, parent))
    return out


def directory_entries(root: Path, directory: str, limit: int = MAX_NOTED_ENTRIES) -> List[str]:
    """The names in a project directory (subdirectories with a trailing /, hidden ones left out),
    sorted; [] when there are more than ``limit`` or it cannot be read: a note names a short list."""
    try:
        with os.scandir(Path(root) / directory) as it:
            names = sorted(e.name + ("/" if e.is_dir() else "") for e in it if not e.name.startswith("."))
    except OSError:
        return []
    return names if len(names) <= limit else []


def _names_dir(step: PlanStep, directory: str, missing: str) -> bool:
    """A successful step's command named ``directory`` or a path in it other than the ``missing`` file,
    and printed something: a search of the directory that found nothing showed none of its files
    (measured, missing-test-api at fc92558: `grep -rn test_api.py ./tests` came back empty, so no
    listing, and the answer never named test_models.py)."""
    if step.status != StepStatus.SUCCESS or found_nothing(step):
        return False
    return any(w == directory or (w.startswith(f"{directory}/") and w != missing) for w in _command_words(step))


def _command_words(step: PlanStep) -> List[str]:
    """The words of a step's command as paths are compared: quotes, a leading ./ and a trailing / off.
    Split on blanks, not by the lexer: a word is only looked up, never run."""
    command = str(step.tool_call.args.get("command") or "") if step.tool_call else ""
    words = [w.strip("'\"").rstrip("/") for w in command.split()]
    return [w[2:] if w.startswith("./") else w for w in words]
