"""The claim language: typed facts a player may assert and rules may derive.

A claim is ``predicate(arg, ...)`` with a fixed signature per predicate (see
``PREDICATES`` and docs/TUTOR.md). Arguments are typed; normalising an argument
either yields its canonical text (so equal facts compare equal: ``./src/x.py``
is ``src/x.py``, ``4 * 6`` is ``4*6``, ``24.0`` is ``24``) or raises
``IllTyped`` with a reason the player can act on. Nothing here looks at the
proof graph: this module says what a claim *means*, ``checker`` says whether it
holds.

Text form (used by rules, ``--accept`` and the docs)::

    line_count("README.md", 19)      contains(src/app.py, "def main")      file_count(., "*.py", ?n)

An argument is a double-quoted string (``\\"`` and ``\\\\`` escapes), a bare word
without ``, ( ) "``, or a variable ``?`` / ``?name`` (patterns only).
"""

from __future__ import annotations

import posixpath
import re
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from typing import Dict, List, Optional, Sequence, Tuple, Union

__all__ = ["Claim", "Pattern", "Var", "Signature", "PREDICATES", "ARG_TYPES", "IllTyped", "ClaimSyntaxError",
           "Token", "make_claim", "make_pattern", "parse_claim", "parse_pattern", "parse_terms", "normalize_arg", "numbers_equal",
           "claim_text", "MAX_TEXT"]

MAX_TEXT = 300  # characters of a text argument; longer is ill-typed (a claim is a fact, not a file)
MIN_CONTAINS = 2  # shortest text a `contains` claim may name: one character proves nothing


class IllTyped(ValueError):
    """A claim that cannot mean anything: unknown predicate, wrong arity, an argument of the wrong type."""


class ClaimSyntaxError(ValueError):
    """Claim text that does not parse (rules, --accept, task files); the message says where."""


@dataclass(frozen=True)
class Signature:
    args: Tuple[str, ...]  # argument types, see ARG_TYPES
    meaning: str
    key: Optional[Tuple[int, ...]] = None  # functional: these positions determine the others
    from_lines: bool = False  # holds or not by the lines of file arg 0 alone (a complete view refutes it)


ARG_TYPES = {
    "path": "a path relative to the project (./ and trailing / dropped; absolute or ../ paths are ill-typed)",
    "text": f"any text, whitespace collapsed, 1-{MAX_TEXT} characters",
    "int": "a whole number (1,024 is 1024)",
    "number": "a decimal number (24.0 is 24)",
    "glob": "a file-name pattern as given to find -name ('*.py')",
    "name": "an identifier: letters, digits, _ . - (a setting key, a function or module name)",
    "expr": "an arithmetic expression (spaces ignored: 4 * 6 is 4*6)",
    "action": "an action id such as A3",
}

PREDICATES: Dict[str, Signature] = {
    "exists": Signature(("path",), "the path exists (a listing or a search showed it)"),
    "missing": Signature(("path",), "the path does not exist (an error said so, or a complete listing of its "
                                    "directory lacks it)"),
    "listed": Signature(("path",), "a complete listing of this directory was observed"),
    "line": Signature(("path", "text"), "this is a whole line of the file", from_lines=True),
    "complete": Signature(("path",), "the whole file was observed (cat, not truncated)"),
    "contains": Signature(("path", "text"), "a line of the file contains this text (case-sensitive)",
                          from_lines=True),
    "no_match": Signature(("path", "text"), "no line of the file, or of any file under the directory, "
                                            "contains this text"),
    "defines": Signature(("path", "name"), "the file defines this function or class (def/class NAME)",
                         from_lines=True),
    "imports": Signature(("path", "name"), "the file imports this module", from_lines=True),
    "setting": Signature(("path", "name", "text"), "the file sets NAME to this value (NAME = value, "
                                                   "NAME: value)", key=(0, 1), from_lines=True),
    "line_count": Signature(("path", "int"), "the file has this many lines", key=(0,)),
    "match_count": Signature(("path", "text", "int"), "this many lines of the file (or under the directory) "
                                                      "contain the text", key=(0, 1)),
    "file_count": Signature(("path", "glob", "int"), "this many files under the directory match the glob",
                            key=(0, 1)),
    "value": Signature(("expr", "number"), "the expression evaluates to this number", key=(0,)),
    "output": Signature(("action", "text"), "the output of this action contains this text (whole words)"),
}


@dataclass(frozen=True)
class Claim:
    """A well-typed, normalised fact: arguments are canonical text."""

    predicate: str
    args: Tuple[str, ...]

    def text(self) -> str:
        return claim_text(self.predicate, self.args)

    def to_dict(self) -> Dict[str, object]:
        return {"predicate": self.predicate, "args": list(self.args)}

    def __str__(self) -> str:
        return self.text()


@dataclass(frozen=True)
class Var:
    """A pattern variable; ``name`` empty for an anonymous ``?``."""

    name: str = ""

    def __str__(self) -> str:
        return "?" + self.name


Term = Union[str, Var]


@dataclass(frozen=True)
class Pattern:
    """A claim with variables: questions (ASK) and acceptance criteria."""

    predicate: str
    args: Tuple[Term, ...]

    def text(self) -> str:
        return claim_text(self.predicate, self.args)

    def variables(self) -> List[str]:
        return [a.name for a in self.args if isinstance(a, Var) and a.name]

    def __str__(self) -> str:
        return self.text()


def claim_text(predicate: str, args: Sequence[Term]) -> str:
    def show(a: Term) -> str:
        if isinstance(a, Var):
            return str(a)
        if re.fullmatch(r"-?\d+(?:\.\d+)?", a):
            return a
        return '"' + a.replace("\\", "\\\\").replace('"', '\\"') + '"'

    return f"{predicate}({', '.join(show(a) for a in args)})"


# ------------------------------------------------------------------ typing

_NUMBER = re.compile(r"[+-]?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?(?:[eE][+-]?\d+)?")
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_.\-]{0,99}")
_ACTION = re.compile(r"A\d{1,6}")


def _number(value: str, what: str) -> Decimal:
    text = value.strip()
    if not _NUMBER.fullmatch(text):
        raise IllTyped(f"{what} must be a number, got {value!r}")
    try:
        return Decimal(text.replace(",", ""))
    except InvalidOperation:  # pragma: no cover - the regex admits only valid decimals
        raise IllTyped(f"{what} must be a number, got {value!r}") from None


def _canonical_number(d: Decimal) -> str:
    if d == d.to_integral_value():
        return str(int(d))
    return format(d.normalize(), "f")


def normalize_arg(kind: str, value: object, what: str = "argument") -> str:
    """The canonical text of ``value`` as an argument of type ``kind``, or ``IllTyped``."""
    if isinstance(value, bool) or not isinstance(value, (str, int, float)):
        raise IllTyped(f"{what} must be text, got {type(value).__name__}")
    text = str(value)
    if "\x00" in text:
        raise IllTyped(f"{what} contains a NUL character")
    if kind == "text":
        out = " ".join(text.split())
        if not out:
            raise IllTyped(f"{what} is empty")
        if len(out) > MAX_TEXT:
            raise IllTyped(f"{what} is longer than {MAX_TEXT} characters")
        return out
    text = text.strip()
    if kind == "path":
        text = text.strip("'\"`")
        if not text:
            raise IllTyped(f"{what} is an empty path")
        if text.startswith("/") or text.startswith("~"):
            raise IllTyped(f"{what} {text!r} is absolute; paths are relative to the project directory")
        out = posixpath.normpath(text)
        if out == ".." or out.startswith("../"):
            raise IllTyped(f"{what} {text!r} leaves the project directory")
        return out
    if kind == "int":
        d = _number(text, what)
        if d != d.to_integral_value():
            raise IllTyped(f"{what} must be a whole number, got {value!r}")
        return str(int(d))
    if kind == "number":
        return _canonical_number(_number(text, what))
    if kind == "glob":
        text = text.strip("'\"")
        if not text or any(c.isspace() for c in text) or "/" in text:
            raise IllTyped(f"{what} must be a file-name pattern such as *.py, got {value!r}")
        return text
    if kind == "name":
        text = text.strip("'\"`")
        if not _NAME.fullmatch(text):
            raise IllTyped(f"{what} must be an identifier (letters, digits, _ . -), got {value!r}")
        return text
    if kind == "expr":
        out = "".join(text.split())
        if not out or len(out) > 200:
            raise IllTyped(f"{what} must be an expression of 1-200 characters")
        return out
    if kind == "action":
        if not _ACTION.fullmatch(text):
            raise IllTyped(f"{what} must be an action id such as A2, got {value!r}")
        return text
    raise IllTyped(f"unknown argument type {kind!r}")  # pragma: no cover - the table is fixed


def numbers_equal(a: str, b: str) -> bool:
    """Numeric equality of two canonical number texts (tolerant to float noise from the operator)."""
    try:
        x, y = Decimal(a), Decimal(b)
    except InvalidOperation:
        return a == b
    if x == y:
        return True
    scale = max(abs(x), abs(y), Decimal(1))
    return abs(x - y) <= scale * Decimal("1e-9")


def _signature(predicate: object, nargs: int) -> Signature:
    if not isinstance(predicate, str) or predicate not in PREDICATES:
        raise IllTyped(f"unknown predicate {predicate!r}; known: {', '.join(PREDICATES)}")
    sig = PREDICATES[predicate]
    if nargs != len(sig.args):
        raise IllTyped(f"{predicate} takes {len(sig.args)} argument(s) ({', '.join(sig.args)}), got {nargs}")
    return sig


def make_claim(predicate: object, args: Sequence[object]) -> Claim:
    """A normalised claim, or ``IllTyped`` naming the predicate and the argument at fault."""
    if not isinstance(args, (list, tuple)):
        raise IllTyped("claim arguments must be a list")
    sig = _signature(predicate, len(args))
    out = tuple(normalize_arg(kind, value, f"{predicate} argument {i + 1} ({kind})")
                for i, (kind, value) in enumerate(zip(sig.args, args)))
    if predicate in ("contains", "no_match", "match_count") and len(out[1]) < MIN_CONTAINS:
        raise IllTyped(f"{predicate}: the text must have at least {MIN_CONTAINS} characters")
    return Claim(str(predicate), out)


def make_pattern(predicate: object, args: Sequence[Term]) -> Pattern:
    sig = _signature(predicate, len(args))
    out: List[Term] = []
    for i, (kind, value) in enumerate(zip(sig.args, args)):
        out.append(value if isinstance(value, Var) else normalize_arg(kind, value, f"{predicate} argument {i + 1} ({kind})"))
    return Pattern(str(predicate), tuple(out))


# ------------------------------------------------------------------ text form

_HEAD = re.compile(r"\s*([a-z_][a-z0-9_]*)\s*\(")


@dataclass(frozen=True)
class Token:
    kind: str  # "quoted" | "bare" | "var"
    value: str


def parse_terms(text: str) -> Tuple[str, List[Token]]:
    """``pred(a, "b", ?c)`` → ("pred", tokens); ``ClaimSyntaxError`` with the position at fault."""
    if not isinstance(text, str):
        raise ClaimSyntaxError(f"claim must be text, got {type(text).__name__}")
    m = _HEAD.match(text)
    if not m:
        raise ClaimSyntaxError(f"{text!r}: expected predicate(arg, ...)")
    i, tokens = m.end(), []
    while True:
        while i < len(text) and text[i].isspace():
            i += 1
        if i < len(text) and text[i] == ")" and not tokens:
            i += 1
            break
        if i >= len(text):
            raise ClaimSyntaxError(f"{text!r}: missing ')'")
        if text[i] == '"':
            j, buf = i + 1, []
            while j < len(text) and text[j] != '"':
                if text[j] == "\\" and j + 1 < len(text):
                    j += 1
                buf.append(text[j])
                j += 1
            if j >= len(text):
                raise ClaimSyntaxError(f"{text!r}: unterminated string at column {i + 1}")
            tokens.append(Token("quoted", "".join(buf)))
            i = j + 1
        else:
            j = i
            while j < len(text) and text[j] not in ',()"':
                j += 1
            word = text[i:j].strip()
            if not word:
                raise ClaimSyntaxError(f"{text!r}: empty argument at column {i + 1}")
            if word.startswith("?"):
                if not re.fullmatch(r"\?[A-Za-z_]\w*|\?", word):
                    raise ClaimSyntaxError(f"{text!r}: bad variable {word!r} (use ? or ?name)")
                tokens.append(Token("var", word[1:]))
            else:
                tokens.append(Token("bare", word))
            i = j
        while i < len(text) and text[i].isspace():
            i += 1
        if i < len(text) and text[i] == ",":
            i += 1
            continue
        if i < len(text) and text[i] == ")":
            i += 1
            break
        raise ClaimSyntaxError(f"{text!r}: expected ',' or ')' at column {i + 1}")
    if text[i:].strip():
        raise ClaimSyntaxError(f"{text!r}: unexpected text after ')': {text[i:].strip()!r}")
    return m.group(1), tokens


def parse_claim(text: str) -> Claim:
    """A ground claim from its text form; ``ClaimSyntaxError`` / ``IllTyped`` otherwise."""
    predicate, tokens = parse_terms(text)
    if any(t.kind == "var" for t in tokens):
        raise ClaimSyntaxError(f"{text!r}: a claim cannot have variables (?); that is a pattern")
    return make_claim(predicate, [t.value for t in tokens])


def parse_pattern(text: str) -> Pattern:
    predicate, tokens = parse_terms(text)
    return make_pattern(predicate, [Var(t.value) if t.kind == "var" else t.value for t in tokens])
