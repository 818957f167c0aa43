"""A find that runs a program on what it finds (``-exec CMD {} +``), written as the pipe into xargs.

ragix's find refuses ``-exec`` (it runs a program: findcheck.py). Small models write ``find . -name '*.md' -type f -exec wc -l {} + |
sort -nr`` habitually: measured with the plan written as a code block (issue 12, three sets at
temperature 0.3), 6 of 6 plans for one regression question, each refused and reflected on. When ``{}`` is the
last argument before the ``+`` or ``;`` that ends the only action, the command is exactly
``find … -print0 | xargs -0 CMD …`` (``-n 1`` for ``;``, one run a file); when ``{}`` stands elsewhere before a
``;`` (``-exec cp {} DEST \\;``, ``-exec touch {}/abc.txt \\;``), it is ``xargs -0 -I {} CMD …``, which puts each
name where find would. ragix's xargs checks the program and every file like any other. This module only rewrites
the text: the result goes through the same lexer and validation as any command, and the caller says what it ran.
"""

from __future__ import annotations

import os
import re
import shlex
from typing import Optional, Tuple

from ragix_core.tools.lexer import first_pipe

__all__ = ["find_exec_as_xargs"]

_PATTERN_TESTS = {"-name", "-iname", "-path", "-ipath", "-wholename", "-iwholename", "-regex", "-iregex",
                  "-lname", "-ilname"}
# Words after which an -exec is not the find's only action, or binds to part of the expression.
_OTHER_ACTIONS = {"-print", "-print0", "-printf", "-ls", "-fls", "-fprint", "-fprint0", "-fprintf", "-delete",
                  "-exec", "-execdir", "-ok", "-okdir", "-quit", "-o", "-or", ","}


_LOST_SEMICOLON = re.compile(r"(\s\{\})\s*\\\s*$")


def _expands(text: str) -> bool:
    """``text`` holds a ``$`` or a backquote a shell would expand (outside single quotes): quoted
    back word by word, it would become literal text, so the rewrite would mean something else."""
    quote = None
    for i, c in enumerate(text):
        if quote == "'":
            quote = None if c == "'" else quote
        elif c == "'" and quote is None:
            quote = c
        elif c == '"':
            quote = None if quote == '"' else '"'
        elif c in "$`" and (i == 0 or text[i - 1] != "\\"):
            return True
    return False


def _globbed(head: str) -> bool:
    """A starting point or argument with an unquoted ``*`` or ``?`` that is not a pattern of find's
    own tests: ragix would expand it, and quoted back it would be literal."""
    try:
        lexed = shlex.shlex(head, posix=False, punctuation_chars=False)
        lexed.whitespace_split = True
        raw = list(lexed)
    except ValueError:
        return True
    return any(("*" in w or "?" in w) and w[0] not in "'\"" and (i == 0 or raw[i - 1] not in _PATTERN_TESTS)
               for i, w in enumerate(raw))


def _other_action(pre: list) -> bool:
    """An action besides the -exec, or an ``-o`` whose one side the -exec would bind to. An ``-o`` between
    parentheses is part of one test (`\\( -name '*.c' -o -name '*.h' \\)`): -print0 after it means what -exec did."""
    depth = 0
    for w in pre:
        depth += (w == "(") - (w == ")")
        if w in _OTHER_ACTIONS and not (depth > 0 and w in ("-o", "-or")):
            return True
    return False


def find_exec_as_xargs(command: str) -> Optional[Tuple[str, str]]:
    """``(find PRE -print0 | xargs -0 CMD ARGS [| REST], note)`` for ``find PRE -exec CMD ARGS {} +|; [| REST]``,
    ``xargs -0 -I {} CMD …`` when ``{}`` stands elsewhere before a ``;``; None for any other shape (``{}`` not
    last before ``+``, another action, an ``-o`` outside parentheses, words after the end)."""
    command = (command or "").strip()
    cut = first_pipe(command)
    head, rest = (command, "") if cut is None else (command[:cut], command[cut:].strip())
    # `{} \` with the `;` left out (the escape of a `\;` is all that reached the plan): measured on
    # AgentBench OS (7fdd634, a0b5077), `find . -type f -exec grep -o 'Linux' {} \` and three more such
    # plans were refused for the `{}` and reflected on. Only a lone backslash right after `{}`.
    head = _LOST_SEMICOLON.sub(r"\1 \\;", head)
    try:
        words = shlex.split(head)
    except ValueError:
        return None
    if not words or os.path.basename(words[0]) != "find" or words.count("-exec") != 1:
        return None
    at = words.index("-exec")
    pre, program = words[:at], words[at + 1:]
    ends = [i for i, w in enumerate(program) if w in ("+", ";")]
    if not ends or ends[0] != len(program) - 1 or len(program) < 3:
        return None
    end = program[-1]
    if _other_action(pre) or _expands(head) or _globbed(head):
        return None
    if program[-2] == "{}" and "{}" not in program[:-2]:
        xargs = ["xargs", "-0"] + (["-n", "1"] if end == ";" else []) + program[:-2]
    elif end == ";" and any("{}" in w for w in program[1:-1]) and "{}" not in program[0]:
        # find puts the name wherever `{}` stands, inside a word too (`touch {}/abc.txt`), one run a file: xargs -I
        xargs = ["xargs", "-0", "-I", "{}"] + program[:-1]
    else:
        return None
    rewritten = " ".join(shlex.quote(w) for w in pre + ["-print0"]) + " | " + \
        " ".join(shlex.quote(w) for w in xargs) + (f" {rest}" if rest else "")
    note = f"ragix's find runs no program (-exec); ran it as the pipe into xargs: `{rewritten}`"
    return rewritten, note
