"""Check an awk program before it runs: no commands, no pipes, no files but its operands.

awk is a programming language with a way out at every turn: system(), `cmd | getline`,
`print | "cmd"`, `print > "file"`, getline < "file", and ARGV/ENVIRON to reach files and
the environment. The program is tokenised (strings and /regex/ literals skipped, so `||`
or `/a|b/` are not pipes) and refused if it uses any of them. Comparisons keep working:
`$3 > 10` is a comparison; only a `>` inside a print/printf statement (outside
parentheses) is output redirection, exactly as awk's grammar reads it.
"""

from __future__ import annotations

import re
from typing import List, Optional, Tuple

from ragix_core.tools.refusal import Refusal

__all__ = ["check_awk"]

_FORBIDDEN = {
    "system": "system() runs a command",
    "getline": "getline reads from commands and files",
    "ARGV": "ARGV changes which files awk opens",
    "ARGC": "ARGC changes which files awk opens",
    "ENVIRON": "ENVIRON reads the environment",
    "PROCINFO": "PROCINFO exposes the process",
    "fflush": "fflush names output streams",
    "close": "close names commands and files",
}
_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_NUM = re.compile(r"\d+(?:\.\d*)?(?:[eE][+-]?\d+)?")
# after these, '/' divides; anywhere else it starts a regex literal
_OPERAND_END = {"word", "num", "str", "regex", ")", "]", "$", "++", "--"}
# ... but after a keyword it starts one (`print /"/` prints a regex match): read as division, the `"` would open
# a string that hid what follows from this check (found by review, 2026-12-01).
_KEYWORDS = {"BEGIN", "END", "function", "func", "if", "else", "while", "for", "do", "break", "continue", "next",
             "nextfile", "exit", "return", "delete", "getline", "print", "printf", "in", "switch", "case", "default"}


def _divides(out: List[Tuple[str, str]], after_close: bool) -> bool:
    """Whether a '/' after the tokens ``out`` divides; with ``after_close`` False, one after ')' or ']' is read
    as a regex too (the second reading of the program, see check_awk)."""
    if not out or out[-1][0] not in _OPERAND_END or (out[-1][0] == "word" and out[-1][1] in _KEYWORDS):
        return False
    return after_close or out[-1][0] not in (")", "]")


def _tokens(program: str, after_close: bool = True) -> List[Tuple[str, str]]:
    out: List[Tuple[str, str]] = []
    i, n = 0, len(program)
    while i < n:
        c = program[i]
        if c in " \t\r":
            i += 1
        elif c == "\\" and program[i + 1:i + 2] == "\n":
            i += 2
        elif c == "#":
            while i < n and program[i] != "\n":
                i += 1
        elif c == '"':
            i = _skip_quoted(program, i, '"', "string")
            out.append(("str", ""))
        elif c == "/" and not _divides(out, after_close):
            i = _skip_quoted(program, i, "/", "regular expression")
            out.append(("regex", ""))
        elif _WORD.match(program, i):
            word = _WORD.match(program, i).group()
            out.append(("word", word))
            i += len(word)
        elif _NUM.match(program, i):
            out.append(("num", _NUM.match(program, i).group()))
            i += len(_NUM.match(program, i).group())
        else:
            two = program[i:i + 2]
            if two in ("||", "&&", ">>", "|&", "++", "--", "<=", ">=", "==", "!=", "+=", "-=", "*=", "/=", "%=", "^="):
                out.append((two, two))
                i += 2
            else:
                out.append((c, c))
                i += 1
    return out


def _skip_quoted(text: str, i: int, quote: str, what: str) -> int:
    j = i + 1
    in_class = False
    while j < len(text):
        ch = text[j]
        if ch == "\\":
            j += 2
            continue
        if quote == "/" and ch == "[":
            in_class = True
        elif quote == "/" and ch == "]":
            in_class = False
        elif ch == quote and not in_class:
            return j + 1
        elif ch == "\n":
            break
        j += 1
    raise Refusal(f"awk: unterminated {what} in the program")


def check_awk(program: str) -> None:
    """Refusal when the awk ``program`` could run a command, use a pipe, or open a file. A '/' after ')' or ']'
    divides in awk's grammar; the program is also read with it starting a regex, and a forbidden use in either
    reading refuses it, so no disagreement with an awk about that one case can hide a string's contents."""
    _check_tokens(_tokens(program))
    try:
        other = _tokens(program, after_close=False)
    except Refusal:
        return  # no regex can start there (unterminated): the one reading stands
    _check_tokens(other)


def _check_tokens(tokens: List[Tuple[str, str]]) -> None:
    in_print: Optional[int] = None  # paren depth when the current print statement started
    depth = 0
    for kind, text in tokens:
        if kind == "word" and text in _FORBIDDEN:
            raise Refusal(f"awk: {text} is not allowed ({_FORBIDDEN[text]})")
        if kind == "@":
            raise Refusal("awk: '@' directives (@include, @load) are not allowed")
        if kind in ("|", "|&"):
            raise Refusal("awk: pipes ('|') to or from commands are not allowed")
        if kind == "word" and text in ("print", "printf"):
            in_print = depth
        elif kind in ("(", "["):
            depth += 1
        elif kind in (")", "]"):
            depth -= 1
        elif kind in (";", "{", "}", "\n") or (kind == "word" and text in ("if", "while", "for", "else")):
            in_print = None
        elif kind in (">", ">>") and in_print is not None and depth == in_print:
            raise Refusal("awk: output redirection ('>' or '>>' in print) is not allowed; ragix returns stdout")
    if depth != 0:
        raise Refusal("awk: unbalanced parentheses in the program")
