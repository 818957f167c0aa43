"""The tool policy table: which tools read, which write, which directories are
not the user's project, and what a tool's exit status means. Every layer that
needs one of these facts (the executor, the engines' prompts and evidence,
REFLECT, the config defaults) reads it from here.
"""

from __future__ import annotations

import os
import re
from typing import Optional

__all__ = [
    "WRITES_NEED_YES",
    "READ_TOOLS",
    "MODEL_COMMANDS",
    "WRITE_TOOLS",
    "REFLECT_TOOLS",
    "STRUCTURED_TOOLS",
    "STDIN_FILTERS",
    "TRUNCATING_FILTERS",
    "SEARCH_TOOLS",
    "RAGIX_STATE_DIR",
    "HIDDEN_DIRS",
    "NOT_PROJECT_DIRS",
    "PROTECTED_WRITE_PATHS",
    "PROTECTED_COMPONENTS",
    "protected_reason",
    "is_no_match",
    "ANSWER_EXIT_TOOLS",
    "is_answer_exit",
    "is_wc_total_line",
    "WC_TOTAL_LINE",
]

# Said to the model as much as to the user: measured (AgentBench OS at 7fdd634), "non-interactive runs
# need --yes" had the 1.5B planner write `mkdir --yes DIR` in 4 of the 5 runs whose mkdir it refused.
WRITES_NEED_YES = ("this command writes files, and this run may only read: the user allows writes by starting ragix "
                   "with --yes (no option of the command does)")

# Commands designed for the model (tools/model_commands.py): read-only, run in ragix's own process.
MODEL_COMMANDS = ("defs", "importers", "callers", "calls", "lines", "tree")
# Tools with a flag policy in tools/specs.py. Read tools never modify the project.
READ_TOOLS = MODEL_COMMANDS + ("ls", "find", "grep", "head", "tail", "wc", "cat", "pwd", "sort", "uniq", "cut", "tr", "stat", "du",
              "sed", "awk", "diff", "comm", "paste", "join", "nl", "rev", "basename", "dirname", "realpath", "date",
              "echo", "printf", "md5sum", "sha256sum", "file", "gzip", "tar", "bc", "expr", "seq")
# sed -i, gzip FILE, tar -x/-cf FILE write: read tools that write only in those forms, so only in
# write profiles (the validator decides per command line).
WRITE_TOOLS = ("mkdir", "touch", "rm", "cp", "mv", "tee", "ln", "chmod")
# REFLECT's first filter (spec 000 §4 ReflectNode.ALLOWED_TOOLS); the executor behind it is read-only anyway.
REFLECT_TOOLS = ("ls", "find", "grep", "head", "tail", "wc", "cat", "pwd")
# Executors that take structured arguments rather than a command line (plans are command lines).
STRUCTURED_TOOLS = ("shell", "python", "operator", "write_file")
# Tools that, given no file operand, read stdin (sed and awk: their first operand is the script);
# head/tail also cut what they read.
STDIN_FILTERS = ("sort", "head", "tail", "uniq", "cut", "tr", "wc", "grep", "cat", "sed", "awk")
TRUNCATING_FILTERS = ("head", "tail")
SEARCH_TOOLS = ("grep", "egrep", "fgrep", "rg")

# ragix's own state inside a project (traces, experience corpus): commands may not name it and
# the OS layer mounts an empty tmpfs over it, so a recursive search never reads the run's own
# trace (which quotes the goal) back as evidence.
RAGIX_STATE_DIR = ".ragix"
HIDDEN_DIRS = (RAGIX_STATE_DIR,)
# Never shown to a model as project content: not listed, globbed or suggested as a close name.
NOT_PROJECT_DIRS = (RAGIX_STATE_DIR, ".git")
# Writes here would change what runs next time (git hooks), how git behaves
# (core.fsmonitor / core.pager run commands), or ragix's own policy. Top-level names:
PROTECTED_WRITE_PATHS = (".git", "ragix.yaml", RAGIX_STATE_DIR)
# A path component protected at any depth: every repository's hooks and config (a submodule's
# .git file, .git/modules/*/hooks, a nested checkout's .git/config) run commands on the host.
# The whole .git is protected, not hooks/ and config: otherwise renaming .git away and making
# a new one replaces both.
PROTECTED_COMPONENTS = (".git",)


def protected_reason(rel: str) -> Optional[str]:
    """Why writing the project-relative path ``rel`` is refused, or None when it is not protected."""
    parts = [p for p in rel.replace(os.sep, "/").split("/") if p not in ("", ".")]
    if parts and parts[0] in PROTECTED_WRITE_PATHS:
        return f"{parts[0]} is protected"
    for part in parts:
        if part in PROTECTED_COMPONENTS:
            return f"{part} is protected at any depth (git hooks and config run commands)"
    return None


def is_no_match(tool: str, returncode: int, stderr: "bytes | str | None") -> bool:
    """A search tool that exited 1 (123 under xargs) and said nothing on stderr found no line:
    that is an answer ("no match"), not a failure. ragix's own commands exit 1 only for that (their
    stderr may carry notes on what they skipped)."""
    name = os.path.basename(tool or "")
    return returncode in (1, 123) and ((name in SEARCH_TOOLS and _quiet(stderr)) or name in MODEL_COMMANDS)


# Tools whose exit status 1 is an answer, as their manuals say, not a failure: diff (the inputs differ, and
# what it printed is how) and expr (the value is 0 or empty, and it printed it). Read as failures, a diff
# that found differences was retried until the budget was spent (NL2Bash fs_1-114 at 4f2bcfa).
ANSWER_EXIT_TOOLS = ("diff", "expr")


def is_answer_exit(tool: str, returncode: int, stderr: "bytes | str | None") -> bool:
    """``tool`` is one of ANSWER_EXIT_TOOLS, exited 1 (123 under xargs) and said nothing on stderr
    (exit 2 and any complaint stay failures: a missing file, a syntax error)."""
    return returncode in (1, 123) and _quiet(stderr) and os.path.basename(tool or "") in ANSWER_EXIT_TOOLS


def _quiet(stderr: "bytes | str | None") -> bool:
    return not (stderr or "").strip()


# wc given several files ends with a summary line "<counts> total"; it is not a file.
WC_TOTAL_LINE = re.compile(r"^\s*\d+(?:\s+\d+)*\s+total\s*$")


def is_wc_total_line(line: "str | bytes", tool: Optional[str] = None) -> bool:
    """True for wc's summary line (when ``tool`` is given, only if it is wc)."""
    if tool is not None and os.path.basename(tool) != "wc":
        return False
    text = line.decode("utf-8", "replace") if isinstance(line, bytes) else line
    return bool(WC_TOTAL_LINE.match(text))
