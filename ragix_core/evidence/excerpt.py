"""What a model is shown of a long tool output: the lines the goal is about, then head and tail.

Evidence is bounded per step (the embedded model has a 4,096-token context).
Cutting only the end lost the answer when it sat at the end of a file: asked
for a name given in the docs, `cat docs/FILE.md` showed the first
1,800 characters and the writer reported "not mentioned" (the name is on line
120). Even with line 120 shown at the end, the 1.5B writer missed it among 119
filler lines; so in a long output the lines that share a word with the goal
come first, numbered and marked as ragix's selection, and every cut is stated.
"""

from __future__ import annotations

import re
from typing import List, Set

from ragix_core.core.text import bounded

__all__ = ["excerpt", "goal_keywords"]

_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]{3,}")
# Words of a question that say nothing about which lines matter.
_STOP = {
    "which", "what", "where", "when", "does", "file", "files", "this", "that", "these", "those", "from", "with",
    "find", "show", "list", "tell", "named", "name", "read", "open", "there", "have", "about", "into", "their",
    "repo", "repository", "project", "directory", "documentation", "docs", "line", "lines", "many", "much",
    "count", "give", "please", "according", "defined", "defines", "used", "uses", "every", "each", "them",
}


def goal_keywords(goal: str) -> Set[str]:
    return {w.lower() for w in _WORD.findall(goal or "")} - _STOP


MIN_LINES_FOR_HIGHLIGHTS = 20  # in a shorter output the model reads every line anyway


def _highlights(lines: List[str], keywords: Set[str], budget: int) -> List[str]:
    shown: List[str] = []
    used = 0
    for number, line in enumerate(lines, 1):
        if any(k in line.lower() for k in keywords):
            entry = f"line {number}: {line.strip()[:300]}"
            if used + len(entry) + 1 > budget:
                break
            shown.append(entry)
            used += len(entry) + 1
    return shown


def _head_and_tail(lines: List[str], limit: int) -> str:
    text = "\n".join(lines)
    if len(text) <= limit:
        return text
    head: List[str] = []
    used = 0
    for line in lines:
        if used + len(line) + 1 > limit * 0.6:
            break
        head.append(line)
        used += len(line) + 1
    tail: List[str] = []
    used = 0
    for line in reversed(lines[len(head):]):
        if used + len(line) + 1 > limit * 0.4:
            break
        tail.insert(0, line)
        used += len(line) + 1
    if not head and not tail:  # one huge line: cut it by characters
        return bounded(text, limit)
    first, last = len(head) + 1, len(lines) - len(tail)
    return "\n".join(head + [f"[... lines {first}-{last} omitted ({last - first + 1} lines)]"] + tail)


def excerpt(text: str, goal: str, limit: int) -> str:
    """A long output as: the lines that share a word with the goal (numbered), then its head and
    tail within what is left of ``limit``. Short outputs are returned unchanged."""
    text = text or ""
    lines = text.splitlines()
    keywords = goal_keywords(goal)
    found = _highlights(lines, keywords, int(limit * 0.4)) if keywords and len(lines) > MIN_LINES_FOR_HIGHLIGHTS else []
    if not found:
        return text if len(text) <= limit else _head_and_tail(lines, limit)
    intro = f"[ragix: the lines mentioning {', '.join(sorted(keywords)[:6])}]"
    rest = limit - sum(len(f) + 1 for f in found)
    return "\n".join([intro, *found, "[the output itself]", _head_and_tail(lines, rest)])
