"""Rules that classify obvious goals without a model call.

Only two cases are decided here, both chosen because a wrong call is cheap to
avoid: greetings and thanks (BYPASS), and conceptual questions that name
nothing in the project (BYPASS). Anything that mentions files, the repo,
paths, code symbols or counting goes to the model — and a model's BYPASS for
such a goal is demoted to SIMPLE (``needs_tools``), since answering a question
about the user's files without looking at them is how assistants hallucinate.
"""

from __future__ import annotations

import re
from typing import Optional

from ragix_core.core.asks import several_asks  # re-exported: the graph's routing rule, shared with the collective patterns
from ragix_core.core.types import TaskComplexity

__all__ = ["rule_based_complexity", "needs_tools", "several_asks"]

_GREETING = re.compile(
    r"^\s*(hi|hello|hey|bonjour|salut|thanks|thank you|merci|good (morning|afternoon|evening)|how are you)\b[\s!.?,]*\w{0,12}[\s!.?]*$",
    re.IGNORECASE,
)
_CONCEPTUAL = re.compile(
    r"^\s*(explain|what is|what are|what's|why (is|are|do|does)|define|describe the (concept|difference)|"
    r"compare|how does|how do|what does .* (mean|do)\b|tell me about|difference between)\b",
    re.IGNORECASE,
)
# Words that tie a goal to the user's project: then tools are needed. A tool's name alone does
# not ("What does the -r option of grep do?" is a question about grep, not about the files).
_PROJECT_WORDS = re.compile(
    r"\b(file|files|repo|repository|directory|directories|folder|folders|project|codebase|"
    r"this code|our code|my code|in this|here|line|lines|count|largest|smallest|biggest|"
    r"module|modules|function|functions|class|classes|import|imports|todo|todos|config|readme|"
    r"path|paths)\b"
    r"|\.[a-z]{1,5}\b|/|\w+\(\)|`"
    # what code is made of, and names only code has: a package, a method, a name defined or imported
    r"|\b(package|packages|subpackages?|method|methods|constant|constants|variable|parameter|argument|"
    r"decorator|decorators|defined|declared|imported|inherits?|subclass(es)?|exception|exceptions)\b",
    re.IGNORECASE,
)
# Names only code has, whatever the question's words: snake_case, CamelCase with a second hump,
# UPPER_SNAKE, a dunder, a decorator. Case matters here ("Python" is a word; "SQLParseError" a name).
_CODE_NAME = re.compile(r"\b[A-Za-z]+_\w+\b|\b[A-Z][A-Za-z0-9]*[a-z][A-Za-z0-9]*[A-Z]\w*\b|__\w+__|@\w+")
# Verbs that ask ragix to act on the project, but also nouns of programming ("a list and a tuple",
# "binary search"): they count only where a request puts a verb, first or after "to", "and",
# "please", "you"... Measured: "What is the difference between a list and a tuple in Python?" and
# "... binary search on a sorted array?" were sent to tools, classified COMPLEX by the 1.5B model.
_ACTION = re.compile(
    r"(?:^|[,;:.?!]\s*|\b(?:to|and|then|please|you|me|us|i)\s+)(find|search|list|show|open|read)\b",
    re.IGNORECASE,
)


def needs_tools(goal: str) -> bool:
    """True when the goal refers to something in the project (a file, a directory, a name only code
    has, what code is made of), or asks for an action on it."""
    return bool(_PROJECT_WORDS.search(goal) or _CODE_NAME.search(goal) or _ACTION.search(goal.strip()))


def rule_based_complexity(goal: str) -> Optional[TaskComplexity]:
    """BYPASS for greetings and project-free conceptual questions; None = ask the model."""
    text = goal.strip()
    if not text:
        return TaskComplexity.BYPASS
    if _GREETING.match(text):
        return TaskComplexity.BYPASS
    if _CONCEPTUAL.match(text) and not needs_tools(text):
        return TaskComplexity.BYPASS
    return None
