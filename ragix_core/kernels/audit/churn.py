"""churn: how often each file changed, and by how many people, read from git history.

``git log`` runs confined like every command ragix starts (tools/sandbox: bubblewrap or Landlock,
read-only, no network, empty environment, time and output limits); the repository's git directory is
the one extra path it may read when it lies outside the work tree (a worktree's). The audited directory may be a repository, a worktree (its ``.git`` is
a file naming the git directory elsewhere) or a subdirectory of one: paths are then counted from the
directory, as the other kernels count them. Merges are left out (they repeat their parents' changes)
and renames are not followed (a renamed file starts a new history), as code-maat does by default.

Per file: ``commits``, ``authors`` (distinct author e-mails), ``added``/``deleted`` lines, ``last``
(the newest commit's author time, Unix seconds). Only the tree's current source files are reported.
"""

from __future__ import annotations

import os
from dataclasses import asdict, dataclass
from typing import Any, Dict, List, Optional, Set, Tuple

from ragix_core.kernels.audit.tree import SourceTree
from ragix_core.tools.limits import Limits
from ragix_core.tools.sandbox import Sandbox

__all__ = ["FileChurn", "compute", "history_key", "find_repository", "MAX_COMMITS"]

MAX_COMMITS = 20_000  # the newest ones; an older history is cut and the note says so
_OUTPUT_CAP = 64 << 20
_LIMITS = Limits(timeout=120.0, cpu_seconds=120, output_bytes=_OUTPUT_CAP)
_RECORD, _FIELD = "\x1e", "\x1f"


@dataclass
class FileChurn:
    path: str
    commits: int
    authors: int
    added: int
    deleted: int
    last: int


@dataclass(frozen=True)
class Repository:
    top: str  # the work tree's top: the sandbox's root, read-only
    git_dir: str  # what `git --git-dir` gets
    readable: Tuple[str, ...]  # directories outside the tree git must read (a worktree's common dir)
    prefix: str  # the audited directory relative to the work tree's top ("" at the top)


def _gitdir_of(dot_git: str) -> Optional[str]:
    """The git directory a ``.git`` entry stands for: itself, or the one a worktree's ``.git`` file names."""
    if os.path.isdir(dot_git):
        return dot_git
    try:
        with open(dot_git, encoding="utf-8") as fh:
            first = fh.readline().strip()
    except OSError:
        return None
    if not first.startswith("gitdir:"):
        return None
    target = first[len("gitdir:"):].strip()
    return os.path.normpath(os.path.join(os.path.dirname(dot_git), target))


def find_repository(root: str) -> Optional[Repository]:
    """The repository holding ``root``, found by looking for ``.git`` upwards (no git process runs)."""
    top = root
    while True:
        git_dir = _gitdir_of(os.path.join(top, ".git")) if os.path.lexists(os.path.join(top, ".git")) else None
        if git_dir:
            readable = [git_dir]
            try:
                with open(os.path.join(git_dir, "commondir"), encoding="utf-8") as fh:
                    readable.append(os.path.normpath(os.path.join(git_dir, fh.read().strip())))
            except OSError:
                pass
            prefix = os.path.relpath(root, top).replace(os.sep, "/")
            return Repository(top, git_dir, tuple(readable), "" if prefix == "." else prefix)
        parent = os.path.dirname(top)
        if parent == top:
            return None
        top = parent


def _git(root: str, repo: Repository, args: List[str]) -> Tuple[int, str, str, bool]:
    # With --git-dir and no work tree, git takes the working directory (the audited root) as the top,
    # so the pathspec is written from the real top: the prefix.
    argv = ["git", "-c", "core.quotepath=off", f"--git-dir={repo.git_dir}"] + args
    # The sandbox's root is the work tree's top (read-only), so a git directory above the audited
    # directory is visible; only a worktree's git directory elsewhere needs its own binding.
    outside = [p for p in repo.readable if not (p + os.sep).startswith(repo.top.rstrip(os.sep) + os.sep)]
    raw = Sandbox(repo.top).run(argv, cwd=root, writable=False, network=False, limits=_LIMITS, fsize=0,
                                out_cap=_OUTPUT_CAP, extra_ro=outside)
    return (raw.returncode, raw.stdout.decode("utf-8", "replace"), raw.stderr.decode("utf-8", "replace").strip(),
            raw.truncated or raw.output_limit)


def history_key(tree: SourceTree) -> str:
    """What the history is, for the cache: HEAD's commit id (nothing when there is no repository)."""
    repo = find_repository(tree.root)
    if repo is None:
        return "no-repository"
    code, out, _, _ = _git(tree.root, repo, ["rev-parse", "--verify", "-q", "HEAD"])
    return out.strip() if code == 0 else "no-head"


def _parse(log: str, prefix: str, wanted: Set[str]) -> Tuple[Dict[str, FileChurn], Set[str], int]:
    churn: Dict[str, FileChurn] = {}
    emails: Dict[str, Set[str]] = {}
    everyone: Set[str] = set()
    commits = 0
    strip = prefix + "/" if prefix else ""
    for record in log.split(_RECORD)[1:]:
        header, _, body = record.partition("\n")
        parts = header.split(_FIELD)
        if len(parts) != 3:
            continue  # a record cut by the output limit
        _, email, when = parts
        commits += 1
        everyone.add(email.lower())
        for line in body.splitlines():
            fields = line.split("\t")
            if len(fields) != 3 or not fields[2].startswith(strip):
                continue
            path = fields[2][len(strip):]
            if path not in wanted:
                continue
            entry = churn.setdefault(path, FileChurn(path, 0, 0, 0, 0, 0))
            entry.commits += 1
            entry.added += int(fields[0]) if fields[0].isdigit() else 0  # "-" for a binary change
            entry.deleted += int(fields[1]) if fields[1].isdigit() else 0
            entry.last = max(entry.last, int(when) if when.isdigit() else 0)
            emails.setdefault(path, set()).add(email.lower())
    for path, entry in churn.items():
        entry.authors = len(emails[path])
    return churn, everyone, commits


def compute(tree: SourceTree, inputs: Dict[str, Any]) -> Tuple[Dict[str, Any], List[str]]:
    repo = find_repository(tree.root)
    empty = {"available": False, "totals": {"commits": 0, "authors": 0}, "files": []}
    if repo is None:
        return empty, ["no git repository: churn is unknown, so hotspots are empty and risk leaves them out"]
    code, out, err, cut = _git(tree.root, repo, [
        "log", "--no-merges", "--no-renames", "--numstat", f"-n{MAX_COMMITS}",
        f"--format={_RECORD}%H{_FIELD}%aE{_FIELD}%at", "--", repo.prefix or "."])
    if code != 0:
        return empty, [f"git log failed ({err.splitlines()[-1] if err else f'exit {code}'}): churn is unknown"]
    churn, everyone, commits = _parse(out, repo.prefix, {f.path for f in tree.files})
    notes = []
    if cut:
        notes.append(f"git log output passed {_OUTPUT_CAP} bytes: the oldest commits read are cut")
    if commits >= MAX_COMMITS:
        notes.append(f"only the newest {MAX_COMMITS} commits are counted")
    files = [asdict(churn[f.path]) for f in tree.files if f.path in churn]
    return {"available": True, "totals": {"commits": commits, "authors": len(everyone)}, "files": files}, notes
