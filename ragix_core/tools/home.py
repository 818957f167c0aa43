"""``~`` and ``$HOME`` for a project that stands for a home directory (``tools.home: project``).

By default ragix refuses ``~`` (tools/lexer.py): a user's home lies outside the project, where no
command may reach. Some projects are a home: AgentBench OS's tasks run in a container whose home is
the working directory, and its init scripts put the task's files in ``~/NAME``
(eval/benchmarks/agentbench.py copies them into the project). There the model reads "in the home
directory" and writes ``~/NAME`` or ``$HOME/NAME`` (measured at 7defe0e: four tasks refused on every
draw), so the command is rewritten with ``.`` in their place before the lexer reads it. The
rewrite is textual and quote-aware, and only ever produces a relative path: what runs is still
validated and confined like any command; ``~user`` and every other expansion stay refused.
"""

from __future__ import annotations

import re

__all__ = ["expand_home"]

# Where a word ends in the lexer's grammar: after this, `~` is the whole word or a directory.
_WORD_END = " |/>"
_HOME_VAR = re.compile(r"\$(?:HOME\b|\{HOME\})")


def expand_home(command: str) -> str:
    """``command`` with each unquoted ``~`` that starts a word and is followed by ``/``, a space, ``|``
    or the end, and each ``$HOME``/``${HOME}`` outside single quotes, replaced by ``.`` (the project
    root, which is the working directory). Everything else is kept as written."""
    out, quote, i, n = [], None, 0, len(command)
    while i < n:
        c = command[i]
        if quote == "'":
            quote = None if c == "'" else quote
        elif c == "\\" and i + 1 < n:
            out.append(command[i:i + 2])
            i += 2
            continue
        elif c == '"':
            quote = None if quote == '"' else '"'
        elif quote is None and c == "'":
            quote = "'"
        elif c == "$":
            m = _HOME_VAR.match(command, i)
            if m:
                out.append(".")
                i = m.end()
                continue
        elif (quote is None and c == "~" and (i == 0 or command[i - 1] in " |")
              and (i + 1 == n or command[i + 1] in _WORD_END)):
            out.append(".")
            i += 1
            continue
        out.append(c)
        i += 1
    return "".join(out)
