"""Whether an answer is quoted from the outputs: every name, path and number in it is there.

The 1.5B verifier fails answers the outputs plainly support. Measured on the regression set
(targeted run of 9df22b5): the answer, a person's name, stood on the output line
``docs/FILE.md:120:End of guide. Maintainer: First Last``, the verifier said "the output does
not provide the maintainer's name", and the run spent two more reflections (709 s, 5 steps
against a budget of 3) to end where it was. A verifier's fail is not new evidence; when the
answer's specific words are all in the outputs, another round of planning has nothing to add.

The specific words of an answer are those a reader would check: file names and paths,
identifiers (``snake_case``, ``CamelCase``, dotted), numbers, and capitalised names that do not
start an ordinary sentence ("Jane", "Doe"; not "The").

An answer that names only numbers is quoted when each of them, not one the goal itself gives,
stands on an output line with one of the goal's keywords. Measured on the regression set (three-set
run of 5ae6fa5): the number stood on ``port: N``, the verifier said the line "is not the port number
itself", and the run spent three reflections and ended ``max_reflections`` without the answer.
"""

from __future__ import annotations

import re
from typing import List, Sequence

from ragix_core.core.types import PlanStep, StepStatus

from .excerpt import goal_keywords
from .numbers import unsupported_numbers

__all__ = ["specific_words", "quoted_from_outputs"]

_TOKEN = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_./-]*[A-Za-z0-9_]|[A-Za-z0-9]")
_PLAIN_CAPITALS = {
    "the", "this", "that", "these", "those", "there", "it", "its", "in", "a", "an", "no", "yes", "file", "files",
    "line", "lines", "output", "outputs", "answer", "command", "commands", "project", "based", "according", "note",
    "and", "or", "but", "of", "on", "to", "for", "with", "by", "from", "is", "are", "was", "were", "has", "have",
    "found", "name", "named", "maintainer", "function", "functions", "class", "classes", "module", "modules",
    "python", "markdown", "json", "yaml", "step", "steps", "ragix", "also", "listed", "however", "here", "both",
    "each", "every", "all", "none", "one", "two", "three", "i", "we", "you", "they", "he", "she", "if", "when",
}


def specific_words(answer: str) -> List[str]:
    """The words of ``answer`` a reader would check against the outputs, in order, without repeats."""
    found: List[str] = []
    for token in _TOKEN.findall(answer or ""):
        token = token.rstrip(".")
        if not token:
            continue
        specific = (any(c.isdigit() for c in token) or "_" in token or "/" in token
                    or re.search(r"\w\.\w", token) is not None
                    or re.search(r"[a-z][A-Z]", token) is not None
                    or (token[0].isupper() and token.lower() not in _PLAIN_CAPITALS))
        if specific and token not in found:
            found.append(token)
    return found


def quoted_from_outputs(goal: str, answer: str, steps: Sequence[PlanStep]) -> bool:
    """True when ``answer`` names at least one specific word besides numbers, every such word is in
    a successful step's output (any case), and every number it states is supported (numbers.py:
    "longer by 7" is a difference, not a quote); or when it names only numbers, each on an output
    line with a goal keyword (see the module's docstring). An absence ("no items with quantity 0",
    the goal's own 0) is never taken as quoted."""
    words = [w for w in specific_words(answer) if not w.isdigit()]
    outputs = "\n".join((s.result.stdout or "") for s in steps
                        if s.status == StepStatus.SUCCESS and s.result is not None).lower()
    if not outputs.strip():
        return False
    if not words:
        return _numbers_on_keyword_lines(goal, answer, outputs)
    if any(w.lower() not in outputs for w in words):
        return False
    return not unsupported_numbers(goal, answer, steps)


def _numbers_on_keyword_lines(goal: str, answer: str, outputs: str) -> bool:
    given = set(re.findall(r"\d+", goal))
    numbers = [w for w in specific_words(answer) if w.isdigit() and w not in given]
    keywords = goal_keywords(goal)
    if not numbers or not keywords:
        return False
    lines = [line for line in outputs.splitlines() if any(k in line for k in keywords)]
    return all(any(re.search(rf"(?<![\w.]){n}(?![\w.]*\w)", line) for line in lines) for n in numbers)
