"""Whether a write really changed the project: the tree's state before and after the command.

A command with a writing stage (mkdir, touch, cp, ``> FILE``) that printed nothing used to count as
done, whatever it did. On AgentBench OS at b276682, four of 38 tasks describe files that their set-up
already made ("a directory named logs holds ..."); the model's first command was ``mkdir -p logs``,
which changed nothing and printed nothing, and the run answered a count no command had computed.
Comparing the tree around the write tells a change from a no-op without reading the goal: a write
that changed nothing found nothing, and is voted and retried like an empty search.

The state is each entry's path, mode, size and modification time (``lstat``, links not followed),
ragix's own state directory left out. A tree larger than ``MAX_ENTRIES`` is not walked: the write
is then taken as a change, as before.

The same two states show the links a write made (``links_out``). A relative link keeps its text when
``cp -r`` copies it to another depth, so `cp -r dir/t t` of `dir/t -> ../x.txt` leaves `t` pointing
out of the project: every reader resolves paths and refuses it, but a link out has no business in the
project, and the tool box removes it (toolbox.py).
"""

from __future__ import annotations

import os
import stat
from typing import FrozenSet, List, Optional, Tuple

from .paths import PathGuard
from .policy import RAGIX_STATE_DIR
from .refusal import Refusal

__all__ = ["tree_state", "links_out", "MAX_ENTRIES"]

MAX_ENTRIES = 50_000

Entry = Tuple[str, int, int, int]


def tree_state(root: str, max_entries: int = MAX_ENTRIES) -> Optional[FrozenSet[Entry]]:
    """(path, mode, size, mtime_ns) of every entry under ``root``, or None when there are more than
    ``max_entries`` or the root cannot be read (then no comparison is made)."""
    entries = set()
    stack = [""]
    try:
        while stack:
            rel = stack.pop()
            with os.scandir(os.path.join(root, rel) if rel else root) as it:
                for e in it:
                    if not rel and e.name == RAGIX_STATE_DIR:
                        continue
                    st = e.stat(follow_symlinks=False)
                    path = f"{rel}/{e.name}" if rel else e.name
                    entries.add((path, st.st_mode, st.st_size, st.st_mtime_ns))
                    if len(entries) > max_entries:
                        return None
                    if e.is_dir(follow_symlinks=False):
                        stack.append(path)
    except OSError:
        return None
    return frozenset(entries)


def links_out(root: str, before: Optional[FrozenSet[Entry]], after: Optional[FrozenSet[Entry]]) -> List[str]:
    """The links among the entries ``after`` has and ``before`` had not (new or changed) that the path
    guard refuses (they resolve outside ``root`` or into ragix's state directory), as paths relative to
    ``root``; [] when either state is missing (a tree too large to walk)."""
    if before is None or after is None:
        return []
    links = [path for path, mode, _size, _mtime in sorted(after - before) if stat.S_ISLNK(mode)]
    if not links:
        return []
    guard = PathGuard(root)
    out = []
    for path in links:
        try:
            guard.resolve(path)
        except Refusal:
            out.append(path)
    return out
