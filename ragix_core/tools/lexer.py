"""Split a model's command string into pipeline stages of plain words.

This is deliberately *not* a shell. It understands quoting ('..', "..",
backslash) and the pipe `|`, and refuses every other piece of shell syntax
instead of guessing: chaining, redirection, substitution, expansion, comments.
A ``$`` that a shell would not expand either (at the end of a word before a space,
a pipe, the end, or a closing double quote) is kept as text: it is a regex anchor.
Refusing (rather than passing the characters through literally) gives the
model a reason it can act on, and guarantees no word ever means more than its
text. One exception: a whole unquoted ``2>/dev/null`` word is dropped.

Unquoted ``*`` and ``?`` make a word a GlobWord: the word's text plus the
glob pattern it stands for (quoted characters escaped). Expanding it is not
the lexer's business: the validator expands it inside the project root
(tools/globbing.py), and every expanded path is checked like any argument.
Unquoted braces are expanded as bash does (tools/braces.py): ``src/{a,b}.py``
is the two words it stands for, each checked like any other.
"""

from __future__ import annotations

import glob as _glob
import os
import re
from typing import Callable, List, Optional, Tuple

from ragix_core.tools.braces import Piece, expand_word
from ragix_core.tools.refusal import Refusal

__all__ = ["GlobWord", "Redirect", "split_pipeline", "programs", "stage_program", "short_flags", "first_pipe",
           "stage_texts", "rewrite_first_stage", "first_stage", "check_text", "MAX_COMMAND_CHARS", "MAX_STAGES",
           "MAX_WORDS", "MAX_WORD_CHARS"]

MAX_COMMAND_CHARS = 4096
MAX_STAGES = 8
MAX_WORDS = 256
MAX_WORD_CHARS = 1024

# Unicode characters that change how text is displayed or split lines: a
# reviewer reading the trace must see exactly what ran.
_INVISIBLE = {0x200B, 0x200C, 0x200D, 0x200E, 0x200F, 0x2028, 0x2029, 0xFEFF} | set(range(0x202A, 0x202F)) | set(
    range(0x2066, 0x206A)
)

# Small models append this habitually; it asks for nothing ragix does not already do
# (stderr comes back separately), so it is accepted as a whole unquoted word and dropped.
_DISCARD_STDERR = "2>/dev/null"

_UNQUOTED_REFUSALS = {
    ";": "command chaining with ';' is not allowed; run one command (pipes '|' between allowed tools are fine)",
    "&": "'&' (chaining or background) is not allowed; run one command",
    "<": "redirection '<' is not allowed; pass the file as an argument",
    ">": "redirection '>' is not allowed; ragix returns stdout and stderr separately (drop 2>/dev/null, > file)",
    "(": "subshells '(' are not allowed (quote it if it is a find operator: '(' or \\( )",
    ")": "subshells ')' are not allowed (quote it if it is a find operator: ')' or \\) )",
    "$": "variable or command expansion '$' is not allowed; write the value literally",
    "`": "command substitution '`' is not allowed",
    "[": "'[...]' glob classes are not expanded (only * and ?); use find . -name 'pattern' (quoted) or name the files",
}
_BRACES = "{,}"  # unquoted: brace expansion's own characters (tools/braces.py)


GLOB_CHARS = "*?"


class Redirect(str):
    """The word ``>`` or ``>>`` of an output redirection; the next word is its target.
    Only at the end of the last stage; whether it is allowed is the validator's call
    (write profiles only), and ragix itself writes the file (see validate/toolbox)."""

    @property
    def append(self) -> bool:
        return self == ">>"


class GlobWord(str):
    """A word with unquoted glob characters; ``pattern`` has its quoted characters escaped."""

    pattern: str

    def __new__(cls, text: str, pattern: str) -> "GlobWord":
        word = super().__new__(cls, text)
        word.pattern = pattern
        return word


def check_text(text: str, what: str = "command") -> None:
    """Refuse control, bidi and line-separator characters anywhere (even quoted)."""
    for ch in text:
        code = ord(ch)
        if code < 0x20 or code == 0x7F or 0x80 <= code <= 0x9F:
            raise Refusal(f"control character U+{code:04X} in the {what} is not allowed")
        if code in _INVISIBLE:
            raise Refusal(f"invisible/bidirectional character U+{code:04X} in the {what} is not allowed")
        if 0xD800 <= code <= 0xDFFF:
            raise Refusal(f"unpaired surrogate U+{code:04X} in the {what} is not allowed")


def first_pipe(command: str) -> Optional[int]:
    """Index of the first '|' outside quotes and not escaped, or None: where a command's first
    stage ends, for code that rewrites a command's text (which must keep its quoting and globs)."""
    quote, i = None, 0
    while i < len(command):
        c = command[i]
        if quote:
            if c == quote:
                quote = None
            elif c == "\\" and quote == '"':
                i += 1
        elif c in "'\"":
            quote = c
        elif c == "\\":
            i += 1
        elif c == "|":
            return i
        i += 1
    return None


def stage_texts(command: str) -> List[str]:
    """``command``'s text cut at each unquoted '|', quoting and spacing kept: "|".join() gives it back."""
    stages, rest = [], command
    while True:
        cut = first_pipe(rest)
        if cut is None:
            return stages + [rest]
        stages.append(rest[:cut])
        rest = rest[cut + 1:]


def rewrite_first_stage(command: str,
                        rewrite: Callable[[str], Optional[Tuple[str, str]]]) -> Optional[Tuple[str, str]]:
    """``(command with its first stage that ``rewrite`` changes replaced, what ``rewrite`` said)``, the other
    stages as written; None when ``rewrite`` changes no stage. ``rewrite(stage_text)`` -> (new text, said)."""
    stages = stage_texts(command)
    for i, stage in enumerate(stages):
        fixed = rewrite(stage)
        if fixed is not None:
            return "|".join(stages[:i] + [fixed[0]] + stages[i + 1:]), fixed[1]
    return None


def first_stage(command: str, program: str) -> Optional[List[str]]:
    """The words of ``command``'s first stage when it lexes and that stage runs ``program`` (by
    basename); None otherwise. For the rewrites of one program's commands (tools/grep_glob.py,
    tools/find_name_path.py)."""
    try:
        stages = split_pipeline(command or "")
    except Refusal:
        return None
    if not stages or not stages[0] or os.path.basename(str(stages[0][0])) != program:
        return None
    return stages[0]


def stage_program(stage: List[str]) -> str:
    """The program a stage runs, by basename ("" for an empty stage)."""
    return os.path.basename(str(stage[0])) if stage else ""


def short_flags(words: List[str]) -> str:
    """The letters of a stage's short options run together (`-la -h` gives "lah"); long options are left out.
    For programs whose short options take no attached value (ls, du, gzip); an option's value word is not read."""
    texts = [str(w) for w in words]
    return "".join(w[1:] for w in texts if w.startswith("-") and not w.startswith("--") and len(w) > 1)


def programs(command: str) -> List[str]:
    """The program of each stage of ``command``, as the executor splits it ([] if it would refuse it)."""
    try:
        return [stage_program(stage) for stage in split_pipeline(command) if stage]
    except Refusal:
        return []


def split_pipeline(command: str) -> List[List[str]]:
    """Return the stages of ``command`` as lists of words, or raise Refusal."""
    if not isinstance(command, str):
        raise Refusal(f"the command must be a string, got {type(command).__name__}")
    if len(command) > MAX_COMMAND_CHARS:
        raise Refusal(f"command too long ({len(command)} > {MAX_COMMAND_CHARS} characters)")
    check_text(command)
    if not command.strip():
        raise Refusal("empty command")

    stages: List[List[str]] = [[]]
    pieces: List[Piece] = []  # the word so far: text (quoted or not), unquoted glob and brace characters
    in_word = False  # distinguishes '' (an empty word) from no word at all
    i, n = 0, len(command)

    def finish() -> None:
        nonlocal pieces, in_word
        if in_word:
            for text, pattern, globbing in expand_word(pieces):
                if len(text) > MAX_WORD_CHARS:
                    raise Refusal(f"argument too long ({len(text)} > {MAX_WORD_CHARS} characters)")
                stages[-1].append(GlobWord(text, pattern) if globbing else text)
            if sum(len(s) for s in stages) > MAX_WORDS:
                raise Refusal(f"too many arguments (> {MAX_WORDS})")
        pieces, in_word = [], False

    def literal(text: str) -> None:
        pieces.append(Piece.literal(text))

    def word_so_far() -> str:
        return "".join(p.text for p in pieces)

    while i < n:
        c = command[i]
        if not in_word and command.startswith(_DISCARD_STDERR, i) and command[i + len(_DISCARD_STDERR) :][:1] in ("", " ", "|"):
            i += len(_DISCARD_STDERR)  # stderr is returned apart anyway: nothing to redirect
            continue
        if c == " ":
            finish()
        elif c == "|":
            finish()
            if i + 1 < n and command[i + 1] == "|":
                raise Refusal("'||' chaining is not allowed; run one command")
            if not stages[-1]:
                raise Refusal("empty pipeline stage before '|'")
            stages.append([])
            if len(stages) > MAX_STAGES:
                raise Refusal(f"too many pipeline stages (> {MAX_STAGES})")
        elif c == "'":
            end = command.find("'", i + 1)
            if end < 0:
                raise Refusal("unbalanced single quote")
            literal(command[i + 1 : end])
            in_word = True
            i = end
        elif c == '"':
            quoted: List[str] = []
            i = _double_quoted(command, i + 1, quoted)
            literal("".join(quoted))
            in_word = True
        elif c == "\\":
            if i + 1 >= n:
                raise Refusal("trailing backslash")
            literal(command[i + 1])
            in_word = True
            i += 1
        elif c == ">" and not (in_word and word_so_far() in ("1", "2")):
            finish()
            append = command.startswith(">>", i)
            i += 1 if append else 0
            if command[i + 1:i + 2] in (">", "&", "|"):
                raise Refusal(f"redirection '{command[i - (1 if append else 0):i + 2]}' is not allowed; "
                              "use '> file' or '>> file' at the end of the command")
            stages[-1].append(Redirect(">>" if append else ">"))
        elif c == ">":
            raise Refusal("redirection of a numbered stream (2>file, 1>file) is not allowed; stderr is returned "
                          "separately (2>/dev/null is accepted), stdout with '> file'")
        elif c in GLOB_CHARS:
            pieces.append(Piece("glob", c, c))
            in_word = True
        elif c in _BRACES:
            pieces.append(Piece(c, c, _glob.escape(c)))
            in_word = True
        elif c == "$" and command[i + 1:i + 2] in ("", " ", "|"):
            literal(c)  # a '$' that starts no expansion is itself, as in a shell (grep \.md$)
            in_word = True
        elif c == "$":
            raise Refusal(dollar_refusal(command, i, quoted=False))
        elif c in _UNQUOTED_REFUSALS:
            raise Refusal(_UNQUOTED_REFUSALS[c])
        elif c == "~" and not in_word:
            raise Refusal("tilde expansion is not performed; use a path relative to the project root")
        elif c == "#" and not in_word:
            raise Refusal("shell comments '#' are not allowed")
        else:
            literal(c)
            in_word = True
        i += 1
    finish()
    if not stages[-1]:
        raise Refusal("empty pipeline stage after '|'")
    _check_redirects(stages)
    return stages


_OWN_DOLLAR = {"awk", "gawk", "mawk", "nawk", "sed", "perl"}  # programs whose own text uses '$'
_VARIABLE = re.compile(r"\$(?:\{)?([A-Za-z_][A-Za-z0-9_]*)")


def dollar_refusal(command: str, i: int, quoted: bool) -> str:
    """Why the ``$`` at ``command[i]`` is refused, and what to write instead. A small model pastes what a message
    shows, so it names the kind of expansion and what stands in its place, never a command to copy: a variable
    is a value nobody set (ragix runs no shell), a substitution is a second command, arithmetic is a tool's job."""
    rest = command[i:]
    if rest.startswith("$(("):
        return ("arithmetic expansion '$((...))' is not allowed: ragix runs no shell; compute the number with expr "
                "or awk")
    if rest.startswith("$("):
        return ("command substitution '$(...)' is not allowed: ragix runs no shell. Run the inner command on its "
                "own, or pipe its output into the next one (through xargs when it lists files)")
    words = stage_texts(command[:i])[-1].split()
    if quoted and words and os.path.basename(words[0]) in _OWN_DOLLAR:
        # awk's $NF, sed's $: the program's own '$', which a shell would expand inside double quotes
        return (f"'$' inside double quotes is expanded by a shell before {os.path.basename(words[0])} sees it; "
                "write the program in single quotes")
    variable = _VARIABLE.match(rest)
    if variable:
        return (f"'${variable.group(1)}' is a shell variable, and ragix runs each command without a shell: nothing "
                "sets it. Write the value it stands for (a path in the project, a name, a number) in its place")
    if quoted:
        return "variable or command expansion '$' is not allowed, even in double quotes; use single quotes"
    return _UNQUOTED_REFUSALS["$"]


def _check_redirects(stages: List[List[str]]) -> None:
    for index, stage in enumerate(stages):
        marks = [i for i, w in enumerate(stage) if isinstance(w, Redirect)]
        if not marks:
            continue
        if index != len(stages) - 1:
            raise Refusal("'>' must come at the end of the last pipeline stage")
        if len(marks) > 1 or marks[0] != len(stage) - 2:
            raise Refusal("'>' needs exactly one file name after it, at the end of the command")
        if marks[0] == 0:
            raise Refusal("'>' needs a command before it")
        target = stage[-1]
        if isinstance(target, (Redirect, GlobWord)):
            raise Refusal("the file after '>' must be one plain name (no glob)")


def _double_quoted(command: str, i: int, word: List[str]) -> int:
    """Consume a "..." body starting at ``i``; return the index of the closing quote."""
    n = len(command)
    while i < n:
        c = command[i]
        if c == '"':
            return i
        if c == "$" and command[i + 1:i + 2] not in ('"', " "):  # "x$" ends with a plain '$' in a shell too
            raise Refusal(dollar_refusal(command, i, quoted=True))
        if c == "`":
            raise Refusal("command substitution '`' is not allowed")
        if c == "\\" and i + 1 < n and command[i + 1] in '$`"\\':
            word.append(command[i + 1])
            i += 2
            continue
        word.append(c)
        i += 1
    raise Refusal("unbalanced double quote")
