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
"""

from __future__ import annotations

import os
from typing import FrozenSet, Optional, Tuple

from .policy import RAGIX_STATE_DIR

__all__ = ["tree_state", "MAX_ENTRIES"]

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
