"""Taking a command out of a free-text reply.

For Qwen2.5-Coder-1.5B, asking for a free answer and taking the first code
block's command scored 0.50 on NL2SH against 0.21 for the bare command
(arXiv 2502.06858, table 3); ``benchmarks/command_format.py`` measures it
against JSON-schema replies on our own goals. The reply is untrusted: the
command found here still goes through the confined executor's validation.
"""

from __future__ import annotations

import json
import re
from typing import List, Optional, Tuple

from ragix_core.core.text import json_command

__all__ = ["extract_command", "extract_commands", "first_block_command", "MAX_COMMAND_CHARS", "CLOSING_FENCE",
           "FENCE"]

MAX_COMMAND_CHARS = 1000
# What ends a code block and not (unless bare, with no language tag) an opening one: generation of a
# command's reply stops here, since nothing after the first block is read.
CLOSING_FENCE = "\n```\n"
# A fenced block, closed or cut at the reply's end: group 1 its language tag, group 2 its body.
FENCE = re.compile(r"```[ \t]*([\w+-]*)[ \t]*\n(.*?)(?:```|\Z)", re.DOTALL)
_INLINE = re.compile(r"`([^`\n]+)`")
_PROMPT = re.compile(r"^\s*[$>]\s+")  # a "$ " or "> " prompt; "#" starts a comment


def _first_line(block: str) -> Optional[str]:
    for line in block.splitlines():
        line = line.strip()
        if line.startswith("#"):
            continue
        line = _PROMPT.sub("", line).strip()
        if line:
            return line
    return None


def _json_command(text: str) -> Optional[str]:
    """The "command" of a reply that is a JSON object (a model trained on tool calls may answer so)."""
    stripped = text.strip()
    if not (stripped.startswith("{") and stripped.endswith("}")):
        return None
    try:
        data = json.loads(stripped)
    except ValueError:
        return None
    command = data.get("command") if isinstance(data, dict) else None
    return json_command(command.strip()) if isinstance(command, str) and command.strip() else None


def first_block_command(text: str) -> Optional[str]:
    """The first command line of the *first* fenced block (closed or cut), else None: what a reply
    stopped at CLOSING_FENCE gives exactly when the whole reply's extract_command gives it from that block."""
    match = FENCE.search(text or "")
    line = _first_line(match.group(2)) if match else None
    return line[:MAX_COMMAND_CHARS] if line else None


def extract_command(text: str) -> Optional[str]:
    """The first command line of the first fenced code block; else the first inline `code`; else
    the "command" of a reply that is one JSON object; else None. Shell prompts ("$ ") and comment
    lines are dropped."""
    text = text or ""
    for match in FENCE.finditer(text):
        line = _first_line(match.group(2))
        if line:
            return line[:MAX_COMMAND_CHARS]
    inline = _INLINE.search(text)
    if inline:
        line = _first_line(inline.group(1))
        if line:
            return line[:MAX_COMMAND_CHARS]
    command = _json_command(text)
    if command:
        line = _first_line(command)
        return line[:MAX_COMMAND_CHARS] if line else None
    return None


def _continued(line: str) -> bool:
    """A command line the next line carries on: a trailing backslash or pipe."""
    return line.endswith("\\") or line.endswith("|")


def extract_commands(text: str, limit: int) -> List[Tuple[str, str]]:
    """Each command line of the first fenced code block that has one, as (comment, command): the
    ``# comment`` lines just above a command describe it ("" when none). A line ending in ``\\`` or
    ``|`` continues on the next; one the block ends in the middle of is dropped (incomplete). At most
    ``limit`` commands; lines longer than MAX_COMMAND_CHARS are dropped (cut, they would be another
    command). No block with a command: []."""
    for match in FENCE.finditer(text or ""):
        found: List[Tuple[str, str]] = []
        comment: List[str] = []
        pending = ""
        for raw in match.group(2).splitlines():
            line = raw.strip()
            if not pending and line.startswith("#"):
                comment.append(line.lstrip("#").strip())
                continue
            line = f"{pending} {line}" if pending else _PROMPT.sub("", line).strip()
            if not line:
                continue
            if _continued(line):
                pending = line[:-1].rstrip() if line.endswith("\\") else line
                continue
            pending = ""
            if len(line) <= MAX_COMMAND_CHARS:
                found.append((" ".join(c for c in comment if c), line))
            comment = []
            if len(found) >= limit:
                break
        if found:
            return found
    return []
