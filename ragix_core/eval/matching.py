"""What a run did, read from its events; whether its answer has what was expected.

Answer patterns (spec 000 §8), one rule per kind of pattern:

- a number ("8", "120", "3.5", "1,024") matches only a whole number of the same
  value in the answer: "8" is not in "8080", "v8", "1.8" or "8th". Thousands
  separators count only in groups of three ("1,024" is 1024; "3,8" is 3 and 8);
- a dotted version ("0.3.0") matches only as a whole token (not in "10.3.0");
- any other text matches as a case-insensitive substring.

"Commands actually executed" come from TOOL_CALL events that were not refused
(never from the plan: a planned step that never ran proves nothing). A
command's *tool names* are the program of every pipeline stage and every
chained command, plus the targets of ``xargs`` and ``find -exec``, so that
``find . -name '*.md' | xargs wc -l`` counts as running find, xargs and wc.
"""

from __future__ import annotations

import os
import re
import shlex
from decimal import Decimal, InvalidOperation
from typing import Any, Iterable, List, Optional, Sequence, Set, Tuple

__all__ = [
    "find_patterns",
    "pattern_matches",
    "command_tool_names",
    "executed_commands",
    "match_commands",
]

# Tokens that separate commands in a shell line.
_SEPARATORS = {"|", "||", "&&", ";", "&", "|&", "(", ")"}
# Wrappers whose first non-option argument is the real program.
_WRAPPERS = {"env", "timeout", "nice", "nohup", "time", "command", "stdbuf"}
# xargs options that consume the following token.
_XARGS_WITH_ARG = {"-n", "-I", "-i", "-d", "-P", "-L", "-l", "-s", "-a", "-E", "-e", "--delimiter",
                   "--max-args", "--max-procs", "--arg-file", "--replace", "--max-lines", "--eof"}
# Generic tool names that say nothing about which program ran.
_GENERIC_TOOLS = {"shell", "bash", "sh", "unix", "command", "run", "exec"}


# A pattern that is a number: digits, thousands groups of three, an optional decimal part.
_NUMBER_PATTERN = re.compile(r"-?(?:[0-9]{1,3}(?:,[0-9]{3})+|[0-9]+)(?:\.[0-9]+)?")
# A number in the answer: not glued to a word or to another number's dot ("v8", "8080", "1.8",
# "0.3.0" hold no whole 8 or 3), and not followed by a letter ("8th") or a decimal part.
_NUMBER_IN_TEXT = re.compile(
    r"(?<![\w.])(?:(?<![\w.-])-)?(?:[0-9]{1,3}(?:,[0-9]{3})+|[0-9]+)(?:\.[0-9]+)?(?!\w|\.[0-9]|,[0-9]{3}(?![0-9]))")
_VERSION_PATTERN = re.compile(r"[0-9]+(?:\.[0-9]+){2,}")


def _value(text: str) -> Optional[Decimal]:
    try:
        return Decimal(text.replace(",", ""))
    except InvalidOperation:
        return None


def pattern_matches(pattern: str, answer: str) -> bool:
    """Whether one expected pattern is in ``answer``; see the module docstring."""
    text = answer or ""
    if _NUMBER_PATTERN.fullmatch(pattern):
        want = _value(pattern)
        return any(_value(m.group(0)) == want for m in _NUMBER_IN_TEXT.finditer(text))
    if _VERSION_PATTERN.fullmatch(pattern):
        return re.search(r"(?<![\w.])" + re.escape(pattern) + r"(?!\w|\.[0-9])", text) is not None
    return pattern.casefold() in text.casefold()


def find_patterns(answer: str, patterns: Sequence[str]) -> Tuple[List[str], List[str]]:
    """Split ``patterns`` into (found, missing) in ``answer`` (spec 000 §8)."""
    found = [p for p in patterns if pattern_matches(p, answer)]
    missing = [p for p in patterns if p not in found]
    return found, missing


def _tokens(command: str) -> List[str]:
    lexer = shlex.shlex(command, posix=True, punctuation_chars=";&|()")
    lexer.whitespace_split = True
    lexer.commenters = ""
    try:
        return list(lexer)
    except ValueError:  # unbalanced quotes: fall back to a plain split, never fail on model output
        return command.replace("|", " | ").replace(";", " ; ").split()


def _program(word: str) -> str:
    return os.path.basename(word)


def _first_program(words: List[str]) -> List[str]:
    """Programs started by one simple command (itself, its wrapper target, xargs / -exec targets)."""
    names: List[str] = []
    i = 0
    while i < len(words) and "=" in words[i] and not words[i].startswith("="):
        i += 1  # VAR=value prefixes
    if i >= len(words):
        return names
    prog = _program(words[i])
    names.append(prog)
    rest = words[i + 1:]
    if prog in _WRAPPERS:
        j = 0
        while j < len(rest) and (rest[j].startswith("-") or "=" in rest[j]):
            j += 1
        if prog == "timeout" and j < len(rest):
            j += 1  # the duration
        names.extend(_first_program(rest[j:]))
    elif prog == "xargs":
        j = 0
        while j < len(rest) and rest[j].startswith("-"):
            j += 2 if rest[j] in _XARGS_WITH_ARG else 1
        names.extend(_first_program(rest[j:]))
    if prog == "find":
        for k, w in enumerate(rest):
            if w in ("-exec", "-execdir", "-ok", "-okdir") and k + 1 < len(rest):
                names.append(_program(rest[k + 1]))
    return names


def command_tool_names(command: str) -> Set[str]:
    """Every program a shell command line starts, by basename."""
    names: Set[str] = set()
    current: List[str] = []
    for tok in _tokens(command) + [";"]:
        if tok in _SEPARATORS or set(tok) <= set(";&|()"):
            if current:
                names.update(_first_program(current))
            current = []
        else:
            current.append(tok)
    names.discard("")
    return names


def _argv_command(argv: Any) -> str:
    """A command string from an ``argv`` event field: one argv or a list of pipeline stages."""
    if not isinstance(argv, list) or not argv:
        return ""
    if all(isinstance(a, list) for a in argv):
        return " | ".join(shlex.join([str(x) for x in stage]) for stage in argv)
    return shlex.join([str(a) for a in argv])


def executed_commands(events: Iterable[Any]) -> List[str]:
    """Command lines of TOOL_CALL events that actually ran (not refused), in order."""
    out: List[str] = []
    for ev in events:
        kind = getattr(ev, "kind", None)
        kind = getattr(kind, "value", kind)
        if kind != "tool_call":
            continue
        data = getattr(ev, "data", None) or {}
        if data.get("refused"):
            continue
        command = data.get("command")
        if not isinstance(command, str) or not command.strip():
            command = _argv_command(data.get("argv"))
        tool = str(data.get("tool") or "")
        if not command and tool and tool not in _GENERIC_TOOLS:
            command = tool
        if command:
            out.append(command)
    return out


def match_commands(required: Sequence[str], commands: Sequence[str]) -> Tuple[List[str], List[str]]:
    """Split required commands into (run, not run).

    A one-word requirement ("wc") matches a program name; a longer one
    ("wc -l") needs its program to have run and the whole text to appear in
    one executed command line.
    """
    names_per_cmd = [(c, command_tool_names(c)) for c in commands]
    ran: List[str] = []
    missing: List[str] = []
    for req in required:
        words = req.split()
        prog = _program(words[0]) if words else ""
        ok = any(prog in names and (len(words) == 1 or req in cmd) for cmd, names in names_per_cmd)
        (ran if ok else missing).append(req)
    return ran, missing
