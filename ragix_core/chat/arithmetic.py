"""Arithmetic an answer writes out ("a * b = c"), checked by computing it.

A 1.5B model that answers in words states products and sums it did not compute: on our own conversations at
f722838 the free-text orchestrator wrote a three-digit by two-digit product wrong and built its follow-up on it.
An equation of plain numbers is a claim ragix can check without a model: the left side is evaluated with
Python's own arithmetic on numbers and + - * / ( ) only (nothing else is evaluated), and compared with the
right side as written (rounded or cut to the decimals it shows).
"""

from __future__ import annotations

import ast
import operator
import re
from typing import List, Optional, Tuple

__all__ = ["wrong_arithmetic", "MAX_CHECKED"]

MAX_CHECKED = 5  # equations checked per answer
MAX_LEFT = 80  # characters of a left side read back from its "=" (no regex: a reply is untrusted input)
_LEFT_CHARS = set("0123456789.,+-*/×x÷() \t")
_RIGHT = re.compile(r"[ \t]*(-?[ \t]*\d[\d,]*(?:\.\d+)?)(?![\d.]*\d)")
_OPS = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul, ast.Div: operator.truediv}


def _value(node: ast.AST) -> float:
    if isinstance(node, ast.Constant) and isinstance(node.value, (int, float)) and not isinstance(node.value, bool):
        return float(node.value)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        return -_value(node.operand)
    if isinstance(node, ast.BinOp) and type(node.op) in _OPS:
        return _OPS[type(node.op)](_value(node.left), _value(node.right))
    raise ValueError("not plain arithmetic")


def _evaluate(left: str) -> Optional[float]:
    text = left.replace(",", "").replace("×", "*").replace("÷", "/")
    text = re.sub(r"(?<=[\d)\s])x(?=[\s\d(])", "*", text)  # "25 x 2"
    try:
        return _value(ast.parse(text.strip(), mode="eval").body)
    except (SyntaxError, ValueError, ZeroDivisionError, RecursionError):
        return None


def _shown(value: float, written: str) -> bool:
    """``value`` written as ``written`` shows it: rounded or cut to the decimals ``written`` has."""
    decimals = len(written.partition(".")[2])
    scale = 10 ** decimals
    cut = int(value * scale) / scale
    return round(float(written), decimals) in (round(value, decimals), round(cut, decimals))


def _left_of(text: str, equals: int) -> Tuple[str, int]:
    """The left side of the "=" at ``equals``, and where it starts in ``text``."""
    start = equals
    while start > 0 and equals - start < MAX_LEFT and text[start - 1] in _LEFT_CHARS:
        start -= 1
    left = text[start:equals]
    # from the first digit, "(" or sign: what a word ending in x ("max") or a stray ")" leaves before it is no part
    first = min((i for i, c in enumerate(left) if c.isdigit() or c in "(-"), default=len(left))
    return left[first:].strip(), start + first


def wrong_arithmetic(text: str) -> List[Tuple[str, str]]:
    """The equations of plain numbers in ``text`` whose right side is not what the left computes:
    ``(left = written right, the right value)`` pairs, at most MAX_CHECKED checked."""
    text = text or ""
    wrong: List[Tuple[str, str]] = []
    checked = 0
    for equals in [i for i, c in enumerate(text) if c == "="][:4 * MAX_CHECKED]:
        right = _RIGHT.match(text, equals + 1)
        left, start = _left_of(text, equals)
        if right is None or not re.search(r"\d\s*\)*\s*[-+*/×x÷]\s*[(\d-]", left) or \
                (start > 0 and (text[start - 1].isalnum() or text[start - 1] in "_^")):
            continue  # no number after "=", no operation on the left ("-5 = -5"), or part of a name ("a-1")
        checked += 1
        if checked > MAX_CHECKED:
            break
        value = _evaluate(left)
        written = right.group(1).replace(" ", "").replace(",", "")
        if value is None or _shown(value, written):
            continue
        shown = f"{value:.6f}".rstrip("0").rstrip(".") if value != int(value) else str(int(value))
        wrong.append((f"{left} = {right.group(1).strip()}", shown))
    return wrong
