"""An independent second check of kept model prose: what a sentence cites, read with plain patterns, looked
up in the kernel rows of its directory directly (not through claims.py's Facts), so a test of the checker's
output can fail when the checker is wrong. Digits and paths only: number words are the checker's alone."""

from __future__ import annotations

import os
import re
from typing import Any, Dict, List, Set, Tuple

_PATHISH = re.compile(r"[\w.-]*/[\w./-]*\w/?|[\w-][\w.-]*\.py\b")
_DIGITS = re.compile(r"(?<![\w.])\d+(?:\.\d+)?")


def directory_rows(docs: Dict[str, Any], directory: str) -> Tuple[Set[float], Set[str]]:
    """Every number and path in the risk, hotspot and recommendation rows of ``directory``."""
    risk = docs["risk"]["data"]
    files = [f for f in risk["files"] if (os.path.dirname(f["path"]) or ".") == directory]
    paths = {directory} | {f["path"] for f in files}
    rows: List[Any] = [d for d in risk["directories"] if d["path"] == directory] + files
    rows += [h for h in docs["hotspots"]["data"]["files"] if h["path"] in paths]
    numbers: Set[float] = set()
    for r in rows + [r for r in docs["recommendations"]["data"]["items"] if r["path"] in paths]:
        for value in r.values():
            if isinstance(value, (int, float)) and not isinstance(value, bool):
                numbers.add(float(value))
            elif isinstance(value, str):
                numbers.update(float(n) for n in _DIGITS.findall(_PATHISH.sub(" ", value)))
            elif isinstance(value, dict):
                numbers.update(float(v) for v in value.values()
                               if isinstance(v, (int, float)) and not isinstance(v, bool))
    return numbers, paths


def unsupported(sentence: str, numbers: Set[float], paths: Set[str]) -> List[str]:
    """What ``sentence`` cites in digits or as a path that the rows do not hold (a number as written
    may be a row's value rounded to the decimals written; a bare number under 10 must be exact)."""
    bad = []
    for token in _PATHISH.findall(sentence):
        token = token.rstrip("/")
        if not re.search(r"[a-z.]", token):
            continue  # capitals around a slash are a pair of words (TODO/FIXME, I/O), not a path
        if not any(p == token or p.endswith("/" + token) for p in paths):
            bad.append(token)
    for written in _DIGITS.findall(_PATHISH.sub(" ", sentence)):
        value, places = float(written), len(written.partition(".")[2])
        tolerance = 0.0 if (places == 0 and value < 10) else 0.5 * 10 ** -places + 1e-9
        if not any(abs(v - value) <= tolerance for v in numbers):
            bad.append(written)
    return bad
