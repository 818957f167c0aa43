"""The specialist router's rules: what a goal names, read as general signals, scored per route.

A signal is a kind of thing the goal mentions, never a phrase of some question set:

    project    a path or file name, a code identifier (snake_case, CamelCase, dotted, --flag), a name that
               exists in the project's listing, or a word for the project's parts (file, module, commit...)
    command    an imperative a shell answers (list, count, find, show, rename...), with a project signal
    documents  a word for a document collection (manual, handbook, policy, documentation...)
    risk       a word of code-quality analysis (hotspot, technical debt, refactor...), or a word that means
               it only in a project question (risk, complexity, fragile)
    evidence   a demand for proof (prove, verify, with evidence, is it true that, citing...)
    logic      the shape of a puzzle (comparisons between named things, all/some quantifiers, "how many
               ways", paradoxes, a word problem with quantities and no project signal)
    arithmetic a bare calculation (an expression, a percentage of a number, a unit conversion)
    social     a greeting, thanks, small talk about the assistant

Each route sums its signals' weights; the router decides when one route leads by ``MARGIN``, and
otherwise says it cannot tell (the model labels the goal then, or the fallback route takes it). A goal
whose only cue is a word some puzzle or question set happens to use ("cross", "meet", "in total",
"split", "worst") is one the rules cannot tell: such phrases are not signals (docs/DECISIONS.md). Every decision carries the signals
that made it, so `ragix ask` can say why.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Dict, FrozenSet, List, Optional, Tuple

__all__ = ["ROUTES", "RouteContext", "RuleDecision", "route_by_rules", "MARGIN"]

ROUTES = ("graph", "research", "tree", "tutor", "chat", "audit")
MARGIN = 1.0  # the leading route's score must exceed the next one's by this much


@dataclass(frozen=True)
class RouteContext:
    """What the router knows besides the goal: the project's file and directory names, and whether a
    document collection is there to research (``--docs`` or a configured one)."""

    project_names: FrozenSet[str] = frozenset()
    docs_available: bool = False


@dataclass
class RuleDecision:
    route: Optional[str]  # None: the rules cannot tell
    scores: Dict[str, float]
    signals: List[str] = field(default_factory=list)  # "project: 'pyproject.toml'", ...

    @property
    def reason(self) -> str:
        return "; ".join(self.signals) or "no signal"


def _words(*items: str) -> re.Pattern:
    return re.compile(r"\b(?:" + "|".join(items) + r")\b", re.IGNORECASE)


_PATHLIKE = re.compile(r"(?:[\w.-]+/[\w./-]*|\b[\w-]+\.(?:py|js|ts|go|rs|java|c|h|cpp|sh|md|toml|yaml|yml|json|"
                       r"txt|cfg|ini|lock|html|css|sql)\b|\b[A-Z][a-z]*file\b)")
_EXTENSION = re.compile(r"\.[A-Za-z]{1,5}$")
_IDENTIFIER = re.compile(r"(?<![\w-])(?:[a-z][a-z0-9]*_[a-z0-9_]+|[a-z]+[A-Z]\w*|[A-Z][a-z]+[A-Z]\w*|--[a-z][\w-]*)\b")
_PROJECT_WORDS = _words(r"files?", r"folders?", r"director(?:y|ies)", r"repo(?:sitory)?", r"codebase", r"modules?",
                        r"functions?", r"class(?:es)?", r"methods?", r"scripts?", r"commits?", r"branch(?:es)?",
                        r"source", r"code", r"flags?", r"imports?", r"definitions?", r"this project", r"here",
                        r"the project", r"tests? (?:folder|suite|files?)")
_COMMAND = _words(r"list", r"count", r"find", r"show", r"grep", r"search", r"rename", r"open", r"read", r"print",
                  r"which (?:files?|modules?|functions?|classes?)", r"where is", r"how many lines", r"look at")
_DOCUMENTS = _words(r"documents?", r"documentation", r"docs", r"manuals?", r"guides?", r"handbooks?", r"polic(?:y|ies)",
                    r"procedures?", r"articles?", r"papers?", r"wiki", r"knowledge base", r"according to",
                    r"instructions")
_HOWTO = _words(r"how (?:do|should|can|to) (?:i|we|you|one)?", r"what are the steps")
# Words of code-quality analysis only, and words that mean it only when the goal is about the project
# ("the risk of rain", "a complex number" are not audits).
_CODE_RISK = _words(r"hotspots?", r"technical debt", r"code quality", r"refactor(?:ing)?", r"maintainab\w*",
                    r"untested", r"test coverage", r"audit", r"code smells?")
_PROJECT_RISK = _words(r"risk(?:y|iest|s)?", r"(?:too |high |most )?complex(?:ity)?", r"fragile")
_EVIDENCE = _words(r"prove", r"proof", r"verify", r"evidence", r"is it true that", r"claim", r"citing", r"cite",
                   r"justify", r"show that", r"demonstrate that", r"confirm that")
# Comparatives between named things and quantifier shapes; never a phrase a puzzle set happens to use.
_LOGIC = _words(r"(?:older|younger|taller|shorter|faster|slower|heavier|larger|smaller|bigger) than", r"all \w+ are",
                r"some \w+ are", r"if all", r"puzzle", r"riddle", r"how many ways", r"true or false", r"paradox",
                r"which is (?:larger|bigger|smaller|greater|heavier)")
_QUANTITY = re.compile(r"\d")
_EXPRESSION = re.compile(r"^[\s\d.,()+\-*/^%x×÷=]+$")
_CALC_LEAD = re.compile(r"^(?:what(?:'s| is)|compute|calculate|evaluate|how much is|solve)\s+", re.IGNORECASE)
_CONVERSION = re.compile(r"\bconvert\s+[\d.]+\s*\w+.*\bto\b|\b\d+(?:\.\d+)?\s*%\s*of\s+\d", re.IGNORECASE)
_SOCIAL = re.compile(r"^(?:hi|hello|hey|yo|good (?:morning|afternoon|evening)|thanks|thank you|bye|goodbye|cheers)\b"
                     r"|\bhow are you\b|\byour name\b|\bwho are you\b|\btell me a joke\b|\bnice to meet\b",
                     re.IGNORECASE)
_TOKEN = re.compile(r"[\w.-]+")


def _project_names(goal: str, names: FrozenSet[str]) -> List[str]:
    """Names in the goal that exist in the project: exact, and not plain lowercase words (a directory
    called ``docs`` or ``tests`` must not make every sentence with that word a project question)."""
    found = []
    for token in _TOKEN.findall(goal):
        token = token.strip(".-")
        if token in names and (not token.isalpha() or not token.islower()):
            found.append(token)
    return found


def _paths(goal: str, names: FrozenSet[str]) -> List[str]:
    """File names and paths. A slashed word with no extension ("km/h", "and/or") is a path only when
    one of its parts is a name in the project."""
    out = []
    for m in _PATHLIKE.finditer(goal):
        token = m.group(0).rstrip(".")
        if "/" in token and not _EXTENSION.search(token) and not any(p in names for p in token.split("/") if p):
            continue
        out.append(token)
    return out


def _arithmetic(goal: str) -> bool:
    text = _CALC_LEAD.sub("", goal.strip().rstrip("?.! "))
    return bool(_EXPRESSION.match(text) and _QUANTITY.search(text)) or bool(_CONVERSION.search(goal))


def _hits(pattern: re.Pattern, goal: str) -> List[str]:
    return [m.group(0) for m in pattern.finditer(goal)]


def route_by_rules(goal: str, context: RouteContext = RouteContext()) -> RuleDecision:
    """Score every route from the goal's signals; a route when one leads by MARGIN, else None."""
    scores = {route: 0.0 for route in ROUTES}
    signals: List[str] = []

    def add(route: str, weight: float, what: str, found: List[str]) -> None:
        if found:
            scores[route] += weight
            signals.append(f"{what}: {', '.join(repr(f) for f in dict.fromkeys(found))}")

    named = (_paths(goal, context.project_names) + _hits(_IDENTIFIER, goal)
             + _project_names(goal, context.project_names))
    project_words = _hits(_PROJECT_WORDS, goal)
    in_project = bool(named or project_words)
    # Audit and tutor are project questions too: they start from the project's score and add their own
    # signal, so naming a file never outweighs asking for its risk or for a proof.
    project = (2.0 if named else 0.0) + (1.0 if project_words else 0.0)
    add("graph", 2.0, "names project files or code", named)
    add("graph", 1.0, "speaks of the project's parts", project_words)
    add("graph", 1.0, "asks for a command's work", _hits(_COMMAND, goal) if in_project else [])
    risk = _hits(_CODE_RISK, goal) + (_hits(_PROJECT_RISK, goal) if in_project else [])
    add("audit", 2.0 + project, "asks about code risk or quality", risk)
    add("tutor", 2.5 + project, "asks for a claim to be proven", _hits(_EVIDENCE, goal))
    documents = _hits(_DOCUMENTS, goal)
    if context.docs_available:
        add("research", 3.0, "asks about documents (a docs root is present)", documents)
        add("research", 1.5, "asks how something is done (a docs root is present)",
            _hits(_HOWTO, goal) if not named else [])
        asks = "?" in goal and not in_project and not _hits(_SOCIAL, goal)
        add("research", 1.0, "a question not about the project (a docs root is present)", ["?"] if asks else [])
    elif documents:
        signals.append("asks about documents, but no docs root is present")
    if not in_project:
        add("tree", 3.0, "has the shape of a puzzle", _hits(_LOGIC, goal))
        if _QUANTITY.search(goal) and "?" in goal and not _arithmetic(goal):
            add("tree", 1.0, "a question with quantities", ["numbers"])
    if _arithmetic(goal):
        add("chat", 4.0, "is a bare calculation", [goal.strip()])
    add("chat", 4.0 if not in_project else 1.0, "is small talk", _hits(_SOCIAL, goal))
    ranked: List[Tuple[str, float]] = sorted(scores.items(), key=lambda kv: -kv[1])
    (best, top), (_, second) = ranked[0], ranked[1]
    route = best if top > 0 and top - second >= MARGIN else None
    return RuleDecision(route, scores, signals)
