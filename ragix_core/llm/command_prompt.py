"""The worker's one request for a command, shared by the main path, the plain call ``s0`` and the tutor's
command turns.

The command comes out as free text with a fenced block, and the first command line of that block is
taken (llm/codeblock.py). For Qwen2.5-Coder-1.5B that format scored 0.50 on NL2SH against 0.21 for a
bare command and 0.06 under constrained decoding (arXiv 2502.06858); JSON cost our own goals too
(docs/RESULTS.md). The reply is untrusted: the command still goes through the confined executor.
"""

from __future__ import annotations

import re
from typing import Optional, Sequence

from ragix_core import prompts
from ragix_core.core.stop import StopRun
from ragix_core.core.text import bounded
from ragix_core.llm.codeblock import CLOSING_FENCE, extract_command, first_block_command
from ragix_core.llm.runaway import past_stage_limit
from ragix_core.llm.structured import ask_text
from ragix_core.tools.policy import WRITE_TOOLS

__all__ = ["command_request", "ask_free_command", "pasted_placeholder", "COMMAND_MAX_TOKENS", "PLACEHOLDERS"]

COMMAND_MAX_TOKENS = 200  # a sentence and a code block; a reply cut inside its block keeps the first line
# When the project stands for the home directory (tools.home: project), `~` is allowed and said to be the root.
_HOME_IS_ROOT = 'The project root is the home directory: "~" and "$HOME" stand for it'


def _forbidden(writes: bool, home_is_root: bool) -> str:
    """What the request names as not allowed: '";", "&&", "$(...)", backticks, "~" or ">"' read-only."""
    items = ['";"', '"&&"', '"$(...)"', "backticks"] + ([] if home_is_root else ['"~"']) + ([] if writes else ['">"'])
    text = ", ".join(items[:-1]) + " or " + items[-1]
    if writes:
        text += ' (write files with the tools or "> FILE")'
    return text + (". " + _HOME_IS_ROOT if home_is_root else "")


# The uppercase stand-ins of the request's examples (prompts/command.md, tools/model_commands.py). A small
# model copies what it is shown: measured at 3ab9bd7 (NL2Bash), `find . -type f -name '*.EXT'` ran as written.
PLACEHOLDERS = ("FILE_OR_DIR", "FILE", "EXT", "TEXT", "DIR", "NAME", "MODULE")
_PLACEHOLDER = re.compile(r"(?<![A-Za-z0-9_])(" + "|".join(PLACEHOLDERS) + r")(?![A-Za-z0-9_])")


def pasted_placeholder(command: str) -> Optional[str]:
    """The request's placeholder that ``command`` holds as written (it would run on nothing), or None."""
    m = _PLACEHOLDER.search(command or "")
    return m.group(1) if m else None


def command_request(goal: str, tools: Sequence[str], file_context: str, commands: str = "", *,
                    home_is_root: bool = False) -> str:
    """The prompt: the profile's tools (with or without writers), the commands designed for the
    model (one line each, ``commands``), the project's listing, then the goal. ``home_is_root``: the
    tools read ``~`` as the project root (tools/home.py), so it is not named as forbidden."""
    writes = any(t in WRITE_TOOLS for t in tools)
    return prompts.render("command", mode="" if writes else "read-only ", tools=", ".join(tools) or "(none)",
                          forbidden=_forbidden(writes, home_is_root),
                          commands=commands, file_context=file_context or "(empty)",
                          goal=bounded(goal, 4000))


def ask_free_command(worker, text: str, *, temperature: Optional[float] = None, seed: Optional[int] = None) -> str:
    """The first command line of the first code block of the worker's free reply to ``text``.

    Generation stops at the block's closing fence: what a model writes after it (an explanation) is
    never read, and generated tokens are what a run's wall time goes to on a CPU (at ec0ed53 the main
    path generated a median 244 tokens a run against the plain call's 43). The stop also matches a bare
    opening fence (no language tag) after a line of prose: a reply stopped with no command that may
    have been cut there (nothing left, a fence left, or prose ending in ":") is asked again whole, so
    the command is the one the whole reply gives; a reply with no block at all (inline code, a JSON
    object, prose) is read as it stands. Generation also stops once the block's command has one
    pipeline stage more than the executor takes (llm/runaway.py): the rest would be refused with it."""
    messages = [{"role": "user", "content": text}]
    completion = ask_text(worker, messages, max_tokens=COMMAND_MAX_TOKENS, temperature=temperature, seed=seed,
                          stop=[CLOSING_FENCE], until=past_stage_limit)
    command = first_block_command(completion.text)
    if command:
        return command
    stopped = completion.text.rstrip()
    if stopped and "```" not in stopped and not stopped.endswith(":"):
        command = extract_command(completion.text)
    else:
        completion = ask_text(worker, messages, max_tokens=COMMAND_MAX_TOKENS, temperature=temperature, seed=seed,
                              until=past_stage_limit)
        command = extract_command(completion.text)
    if not command:
        raise StopRun("command_generation_failed", f"no command in the reply: {bounded(completion.text, 200)}")
    return command
