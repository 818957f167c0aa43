"""Brace expansion of one lexed word, as bash does it: ``docs/{a,b}.md`` is two words, ``{1..3}`` three.

Small models write braces where a shell would expand them (``wc -l src/{app,util}.py``,
``find . -name '*.py' -o -name '*.md'`` written as ``ls *.{py,md}``); refusing them cost a draw on 18
of the commands of the ca20be7 runs (AgentBench OS, NL2Bash, the paraphrase set), most of them the
plain call's. Expansion only makes more words of the text written: each word is then checked like
any other (program, options, paths, globs), so it can never mean more than writing the words out.

A word arrives as pieces: literal text (quoted or not), an unquoted glob character, or an unquoted
``{``, ``,`` or ``}``. As in bash, a group needs an unquoted comma at its own level, or is a sequence
``{N..M[..STEP]}`` / ``{a..e}``; anything else (``{}`` of ``find -exec``, ``{x}``, an unmatched brace)
stays literal text.
"""

from __future__ import annotations

import glob as _glob
import re
from dataclasses import dataclass
from typing import List, Optional, Sequence, Tuple

from ragix_core.tools.refusal import Refusal

__all__ = ["Piece", "expand_word", "MAX_EXPANSION"]

MAX_EXPANSION = 256  # words one braced word may become (the lexer's MAX_WORDS bounds the command)

_SEQUENCE = re.compile(r"^(-?\d+)\.\.(-?\d+)(?:\.\.(-?\d+))?$|^([A-Za-z])\.\.([A-Za-z])$")


@dataclass(frozen=True)
class Piece:
    kind: str  # "text" | "glob" | "{" | "," | "}"
    text: str
    pattern: str  # the piece as a glob pattern: quoted text escaped

    @staticmethod
    def literal(text: str) -> "Piece":
        return Piece("text", text, _glob.escape(text))


# One expanded word: its text, its glob pattern, whether an unquoted glob character is in it.
Word = Tuple[str, str, bool]


def expand_word(pieces: Sequence[Piece]) -> List[Word]:
    """The words ``pieces`` stands for: one when it holds no brace group, else one per alternative."""
    words = _expand(list(pieces))
    if len(words) > MAX_EXPANSION:
        raise Refusal(f"brace expansion makes more than {MAX_EXPANSION} words; list fewer names")
    return words


def _expand(pieces: List[Piece]) -> List[Word]:
    group = _first_group(pieces)
    if group is None:
        return [_join(_as_text(pieces))]
    start, end, commas = group
    head, body, tail = pieces[:start], pieces[start + 1:end], pieces[end + 1:]
    if commas:
        bounds = [start] + commas + [end]
        alternatives = [pieces[a + 1:b] for a, b in zip(bounds, bounds[1:])]
    else:
        alternatives = [[Piece.literal(x)] for x in _sequence(body)]
    out: List[Word] = []
    for alternative in alternatives:
        out.extend(_expand(head + alternative + tail))
        if len(out) > MAX_EXPANSION:
            break  # expand_word names the refusal
    return out


def _first_group(pieces: List[Piece]) -> Optional[Tuple[int, int, List[int]]]:
    """(index of ``{``, index of its ``}``, indexes of its own commas) of the first group that expands."""
    for start, piece in enumerate(pieces):
        if piece.kind != "{":
            continue
        depth, commas = 0, []
        for i in range(start + 1, len(pieces)):
            kind = pieces[i].kind
            if kind == "{":
                depth += 1
            elif kind == "}" and depth:
                depth -= 1
            elif kind == "}":
                if commas or _sequence(pieces[start + 1:i]):
                    return start, i, commas
                break  # `{}` or `{x}`: literal; a later `{` may still open a group
            elif kind == "," and not depth:
                commas.append(i)
    return None


def _sequence(body: Sequence[Piece]) -> List[str]:
    if any(p.kind != "text" for p in body):
        return []
    m = _SEQUENCE.match("".join(p.text for p in body))
    if m is None:
        return []
    if m.group(4):
        a, b = ord(m.group(4)), ord(m.group(5))
        step = 1 if b >= a else -1
        return [chr(c) for c in range(a, b + step, step)][:MAX_EXPANSION + 1]
    a, b = int(m.group(1)), int(m.group(2))
    step = abs(int(m.group(3) or 1)) or 1
    step = step if b >= a else -step
    padded = any(len(x.lstrip("-")) > 1 and x.lstrip("-").startswith("0") for x in (m.group(1), m.group(2)))
    width = max(len(m.group(1)), len(m.group(2))) if padded else 0  # {01..10}, as bash
    values = range(a, b + (1 if step > 0 else -1), step)
    return [str(v).zfill(width) if width else str(v) for v in values[:MAX_EXPANSION + 1]]


def _as_text(pieces: List[Piece]) -> List[Piece]:
    """Braces and commas left over are what they look like."""
    return [p if p.kind in ("text", "glob") else Piece.literal(p.text) for p in pieces]


def _join(pieces: List[Piece]) -> Word:
    return "".join(p.text for p in pieces), "".join(p.pattern for p in pieces), any(p.kind == "glob" for p in pieces)
