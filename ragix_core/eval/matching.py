"""What a run did, read from its events; whether its answer has what was expected.

Answer patterns (spec 000 §8), one rule per kind of pattern:

- a number ("8", "120", "3.5", "1,024") matches only a whole number of the same
  value in the answer: "8" is not in "8000", "v8", "1.8" or "8th". Thousands
  separators count only in groups of three ("1,024" is 1024; "3,8" is 3 and 8);
- a dotted version ("1.2.3") matches only as a whole token (not in "11.2.3");
- ``re:<regex>`` is a case-insensitive regular expression searched in the answer,
  for what a word cannot state: a whole word (``re:\\bload\\b`` is not in
  "loaded"), or which of two files is the longer;
- any other text matches as a case-insensitive substring.

"Commands actually executed" come from TOOL_CALL events that were not refused
(never from the plan: a planned step that never ran proves nothing). The tool
box publishes one event per process with the ``argv`` it ran, so an event's
program is the basename of ``argv[0]`` (plus the target of a wrapper such as
``timeout 5 wc``): no shell line is re-parsed. An event with an empty argv
started nothing (a refusal, an internal error). An event without an argv
(an older recording, another executor) falls back to its command text split
by ragix's own confinement lexer, so it counts exactly the programs ragix would
have started for that line; a line the lexer refuses (chaining, redirection...)
names no program.
"""

from __future__ import annotations

import os
import re
import shlex
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from functools import lru_cache
from typing import Any, Iterable, List, Optional, Sequence, Set, Tuple, Union

__all__ = [
    "find_patterns",
    "pattern_matches",
    "pattern_problem",
    "REGEX_PREFIX",
    "ExecutedCall",
    "executed_calls",
    "command_tool_names",
    "executed_commands",
    "match_commands",
]

REGEX_PREFIX = "re:"

# A pattern that is a number: digits, thousands groups of three, an optional decimal part.
_NUMBER_PATTERN = re.compile(r"-?(?:[0-9]{1,3}(?:,[0-9]{3})+|[0-9]+)(?:\.[0-9]+)?")
# A number in the answer: not glued to a word or to another number's dot ("v8", "8000", "1.8",
# "1.2.3" hold no whole 8 or 2), and not followed by a letter ("8th") or a decimal part.
_NUMBER_IN_TEXT = re.compile(
    r"(?<![\w.])(?:(?<![\w.-])-)?(?:[0-9]{1,3}(?:,[0-9]{3})+|[0-9]+)(?:\.[0-9]+)?(?!\w|\.[0-9]|,[0-9]{3}(?![0-9]))")
_VERSION_PATTERN = re.compile(r"[0-9]+(?:\.[0-9]+){2,}")


def _value(text: str) -> Optional[Decimal]:
    try:
        return Decimal(text.replace(",", ""))
    except InvalidOperation:
        return None


@lru_cache(maxsize=512)
def _regex(pattern: str) -> "re.Pattern[str]":
    return re.compile(pattern, re.IGNORECASE)


def pattern_problem(pattern: str) -> Optional[str]:
    """Why ``pattern`` cannot be used (an invalid or empty regex), or None."""
    if pattern.startswith(REGEX_PREFIX):
        body = pattern[len(REGEX_PREFIX):]
        if not body.strip():
            return "empty regular expression after 're:'"
        try:
            _regex(body)
        except re.error as exc:
            return f"invalid regular expression: {exc}"
    return None


def pattern_matches(pattern: str, answer: str) -> bool:
    """Whether one expected (or forbidden) pattern is in ``answer``; see the module docstring."""
    text = answer or ""
    if pattern.startswith(REGEX_PREFIX):
        return _regex(pattern[len(REGEX_PREFIX):]).search(text) is not None
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


# ---------------------------------------------------------------- commands run

# Wrappers whose first non-option argument is the real program.
_WRAPPERS = {"env", "timeout", "nice", "nohup", "time", "command", "stdbuf"}
# Wrapper options that consume the following word (nice -n 5, timeout -s KILL, env -u NAME).
_WRAPPER_WITH_ARG = {"-n", "-s", "-k", "-u", "-C", "--adjustment", "--signal", "--kill-after", "--unset", "--chdir"}
# xargs options that consume the following word.
_XARGS_WITH_ARG = {"-n", "-I", "-i", "-d", "-P", "-L", "-l", "-s", "-a", "-E", "-e", "--delimiter",
                   "--max-args", "--max-procs", "--arg-file", "--replace", "--max-lines", "--eof"}
# Generic tool names that say nothing about which program ran.
_GENERIC_TOOLS = {"shell", "bash", "sh", "unix", "command", "run", "exec"}

Invocation = Tuple[str, Tuple[str, ...]]  # (program basename, its arguments)


@dataclass
class ExecutedCall:
    """One TOOL_CALL event that ran: its command text (for reports) and the programs it started."""

    command: str
    invocations: List[Invocation] = field(default_factory=list)

    @property
    def programs(self) -> Set[str]:
        return {prog for prog, _ in self.invocations}


def _program(word: str) -> str:
    return os.path.basename(str(word))


def _invocations(words: Sequence[str]) -> List[Invocation]:
    """Programs one argv starts: itself, a wrapper's target, xargs and find -exec targets."""
    words = [str(w) for w in words]
    out: List[Invocation] = []
    i = 0
    while i < len(words) and "=" in words[i] and not words[i].startswith("="):
        i += 1  # VAR=value prefixes (env's arguments)
    if i >= len(words):
        return out
    prog = _program(words[i])
    rest = words[i + 1:]
    if not prog:
        return out
    if prog in _WRAPPERS or prog == "xargs":
        with_arg = _XARGS_WITH_ARG if prog == "xargs" else _WRAPPER_WITH_ARG
        j = 0
        while j < len(rest) and (rest[j].startswith("-") or (prog == "env" and "=" in rest[j])):
            j += 2 if rest[j] in with_arg else 1
        if prog == "timeout" and j < len(rest):
            j += 1  # the duration
        out.append((prog, tuple(rest[:j])))  # the wrapper's own arguments; the rest is its target's
        out.extend(_invocations(rest[j:]))
        return out
    out.append((prog, tuple(rest)))
    if prog == "find":
        for k, w in enumerate(rest):
            if w in ("-exec", "-execdir", "-ok", "-okdir") and k + 1 < len(rest):
                end = next((e for e in range(k + 1, len(rest)) if rest[e] in (";", "+")), len(rest))
                out.extend(_invocations(rest[k + 1:end]))
    return out


def _stages_of_text(command: str) -> List[List[str]]:
    """A command line's stages as ragix's confinement lexer splits them; [] when it refuses the line."""
    from ragix_core.tools.lexer import split_pipeline
    from ragix_core.tools.refusal import Refusal

    try:
        return [list(stage) for stage in split_pipeline(command)]
    except Refusal:
        return []


def command_tool_names(command: str) -> Set[str]:
    """Every program a command line would start under ragix (for events that carry no argv)."""
    return {prog for stage in _stages_of_text(command) for prog, _ in _invocations(stage)}


def _argv_stages(argv: Any) -> Optional[List[List[str]]]:
    """The processes an event's ``argv`` names; None when the event has no usable argv."""
    if not isinstance(argv, list):
        return None
    if argv and all(isinstance(a, list) for a in argv):  # several processes in one event
        return [[str(x) for x in stage] for stage in argv]
    if all(isinstance(a, (str, int, float)) and not isinstance(a, bool) for a in argv):
        return [[str(a) for a in argv]] if argv else []
    return None


def _join(stages: List[List[str]]) -> str:
    return " | ".join(shlex.join(stage) for stage in stages)


def executed_calls(events: Iterable[Any]) -> List[ExecutedCall]:
    """TOOL_CALL events of the answer's commands that actually ran (not refused, not REFLECT's
    diagnosis), in order, with the programs each started."""
    out: List[ExecutedCall] = []
    for ev in events:
        kind = getattr(ev, "kind", None)
        kind = getattr(kind, "value", kind)
        if kind != "tool_call":
            continue
        data = getattr(ev, "data", None) or {}
        if data.get("refused") or data.get("purpose") == "diagnosis":
            continue  # refused: nothing ran; diagnosis: REFLECT's own look-around, not the answer's commands
        command = data.get("command")
        command = command if isinstance(command, str) and command.strip() else ""
        stages = _argv_stages(data.get("argv"))
        if stages is None:  # no argv recorded: what ragix would have run for the command text
            stages = _stages_of_text(command) if command else []
            tool = str(data.get("tool") or "")
            if not command and tool and tool not in _GENERIC_TOOLS:
                command, stages = tool, [[tool]]
        elif not command:
            command = _join(stages)
        if command:
            out.append(ExecutedCall(command, [inv for stage in stages for inv in _invocations(stage)]))
    return out


def executed_commands(events: Iterable[Any]) -> List[str]:
    """Command lines of TOOL_CALL events that actually ran (not refused), in order."""
    return [c.command for c in executed_calls(events)]


def match_commands(required: Sequence[str],
                   calls: Sequence[Union[ExecutedCall, str]]) -> Tuple[List[str], List[str]]:
    """Split required commands into (run, not run).

    A one-word requirement ("wc") matches a program that ran; a longer one
    ("wc -l") needs one run of that program with every other word among its
    arguments, in any order ("wc -l" is met by ``wc -l FILE`` and ``wc FILE -l``,
    not by ``wc -lc FILE``). Plain strings are command lines without an argv.
    """
    invocations: List[Invocation] = []
    for call in calls:
        if isinstance(call, ExecutedCall):
            invocations.extend(call.invocations)
        else:
            invocations.extend(inv for stage in _stages_of_text(str(call)) for inv in _invocations(stage))
    ran: List[str] = []
    missing: List[str] = []
    for req in required:
        words = req.split()
        prog, wanted = (_program(words[0]), words[1:]) if words else ("", [])
        ok = bool(prog) and any(p == prog and all(w in args for w in wanted) for p, args in invocations)
        (ran if ok else missing).append(req)
    return ran, missing
