"""Where a command's reply has run past what the executor takes, so generating more is waste.

A small model sometimes loops inside its code block: `grep -rl X . | grep -v a | grep -v b | …` until
the reply's token cap (measured at 6326e22: 8 of the 13 command replies that hit the 200-token cap
were such pipelines, 4 % of the engine's model time on the three unseen sets). The executor
refuses a pipeline of more than ``MAX_STAGES`` stages whatever follows, so the reply is complete as
soon as its command has one stage too many: ``past_stage_limit`` says where, and the backend stops
generating there (``LLMClient.complete(until=...)``). The command read from the cut reply is
refused for the same reason the whole one would have been, and the retry is shown a shorter line.
"""

from __future__ import annotations

import re
from typing import Optional

from ragix_core.tools.lexer import MAX_STAGES, first_pipe

__all__ = ["past_stage_limit"]

_OPENING_FENCE = re.compile(r"```[ \t]*[\w+-]*[ \t]*\n")


def past_stage_limit(text: str) -> Optional[int]:
    """The index, in ``text`` (a reply so far), of the pipe that starts stage ``MAX_STAGES + 2`` of the
    first command line of the first code block, or None while that line has not got that far. Cut there,
    the command keeps ``MAX_STAGES + 1`` whole stages. Prefix-stable (an ``Until``): a pipe counts once
    the character after it shows it is not ``||``, and quoted pipes never count."""
    fence = _OPENING_FENCE.search(text)
    if fence is None:
        return None
    start = fence.end()
    while True:
        end = text.find("\n", start)
        line = text[start:] if end < 0 else text[start:end]
        stripped = line.strip()
        if end < 0 and (not stripped or stripped.startswith("#")):
            return None  # the line is still being written: a comment or nothing yet
        if stripped.startswith("```"):
            return None  # the block closed before any command
        if stripped and not stripped.startswith("#"):
            return _stage_limit_pipe(text, start, len(text) if end < 0 else end)
        start = end + 1


def _stage_limit_pipe(text: str, start: int, end: int) -> Optional[int]:
    """The index of the pipe in ``text[start:end]`` (one command line) that starts one stage too many."""
    pipes, i = 0, start
    while True:
        cut = first_pipe(text[i:end])  # outside quotes, so the next search starts outside them too
        if cut is None:
            return None
        at = i + cut
        if at + 1 >= len(text):
            return None  # `|` or `||`: the next character decides
        if text[at + 1] == "|":
            i = at + 2
            continue
        pipes += 1
        if pipes > MAX_STAGES:
            return at
        i = at + 1
