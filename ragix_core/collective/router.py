"""The specialist router (spec 002 §9, pattern 2): one goal in, the route that fits it, and why.

``choose_route`` asks the rules (``collective.rules``) first; when they cannot tell, a model labels the
goal with one route (a schema-constrained reply; research is offered only when documents are there);
when there is no model or its reply is unusable, the fallback is the default engine's route, graph.
Every route but audit is an engine of the registry; audit is the code-audit kernels.

A graph goal that asks several things (the graph's own rule for planning at once,
``core.asks.several_asks``) runs the ``hierarchical`` strategy: a master splits it, graph workers
answer the parts. The route stays graph (the kind of question); only the engine differs, and says so.
"""

from __future__ import annotations

import os
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Callable, Dict, FrozenSet, List, Optional

from ragix_core import prompts
from ragix_core.collective.rules import ROUTES, RouteContext, route_by_rules
from ragix_core.core.registry import DEFAULT_ENGINE, engine_names
from ragix_core.llm.base import LLMClient, LLMError
from ragix_core.core.asks import several_asks

__all__ = ["Routing", "choose_route", "model_label", "project_names", "check_route_table", "ROUTE_STRATEGY",
           "FALLBACK_ROUTE"]

# route -> engine of the registry (None: the audit kernels, no engine)
ROUTE_STRATEGY: Dict[str, Optional[str]] = {"graph": DEFAULT_ENGINE, "research": "research", "tree": "contractive",
                                            "tutor": "tutor", "chat": "chat", "audit": None}
FALLBACK_ROUTE = "graph"
SEVERAL_ASKS_STRATEGY = "hierarchical"  # a graph goal that asks several things
MAX_NAMES = 5000  # names read from the project for the rules: a huge tree is sampled, not walked
_SKIP = {".git", "node_modules", "__pycache__", ".venv", "venv", ".ragix"}


def check_route_table(table: Dict[str, Optional[str]], routes: tuple, engines: List[str]) -> None:
    """Every route has exactly one target and every target engine is registered; raised, not asserted
    (an ``assert`` vanishes under ``python -O``)."""
    missing, extra = sorted(set(routes) - set(table)), sorted(set(table) - set(routes))
    unknown = sorted(s for s in table.values() if s and s not in engines)
    if missing or extra or unknown:
        raise RuntimeError(f"the router's route table is broken: routes without a target {missing}, targets of "
                           f"no route {extra}, engines not in the registry {unknown}")


check_route_table(ROUTE_STRATEGY, ROUTES, engine_names())
if SEVERAL_ASKS_STRATEGY not in engine_names():
    raise RuntimeError(f"the router's strategy for goals that ask several things, {SEVERAL_ASKS_STRATEGY!r}, "
                       f"is not in the engine registry")


@dataclass
class Routing:
    route: str
    by: str  # "rules", "model" or "fallback"
    reason: str
    strategy: Optional[str]
    scores: Dict[str, float] = field(default_factory=dict)

    def line(self) -> str:
        target = f"engine {self.strategy}" if self.strategy else "the audit kernels"
        return f"route: {self.route} ({target}) by {self.by}: {self.reason}"

    def to_dict(self) -> Dict[str, Any]:
        return asdict(self)


def project_names(root: Path, limit: int = MAX_NAMES) -> FrozenSet[str]:
    """File and directory names (and file stems) of the project, two levels deep, hidden ones left out."""
    names: set = set()
    try:
        top = sorted(os.scandir(root), key=lambda e: e.name)
    except OSError:
        return frozenset()
    for entry in top:
        if entry.name.startswith(".") or entry.name in _SKIP:
            continue
        names.update((entry.name, entry.name.split(".", 1)[0]))
        if entry.is_dir(follow_symlinks=False):
            try:
                for sub in os.scandir(entry.path):
                    if not sub.name.startswith(".") and len(names) < limit:
                        names.update((sub.name, sub.name.split(".", 1)[0]))
            except OSError:
                continue
        if len(names) >= limit:
            break
    return frozenset(n for n in names if n)


def model_label(goal: str, context: RouteContext, client: LLMClient) -> tuple:
    """(route or None, what happened): one schema-constrained call offering the routes available."""
    offered: List[str] = [r for r in ROUTES if r != "research" or context.docs_available]
    note = ("A collection of documents is available to research." if context.docs_available else
            "No collection of documents is available: never answer research.")
    text = prompts.render("router_label", goal=goal, routes=", ".join(offered), docs_note=note)
    schema = {"type": "object", "properties": {"route": {"type": "string", "enum": offered}}, "required": ["route"]}
    try:
        reply = client.complete([{"role": "user", "content": text}], schema=schema, max_tokens=20, temperature=0.0)
    except LLMError as exc:
        return None, f"the model could not label it ({type(exc).__name__}: {exc})"
    route = reply.data.get("route") if isinstance(reply.data, dict) else None
    if route not in offered:
        return None, f"the model's label {str(route)[:40]!r} is not a route it was offered"
    return route, f"the model labelled it {route}"


def choose_route(goal: str, context: RouteContext = RouteContext(), client: Optional[LLMClient] = None,
                 make_client: Optional[Callable[[], LLMClient]] = None) -> Routing:
    """The route of ``goal``: the rules' when they can tell, else the model's label (if ``client``, or
    ``make_client`` to build one only then: a goal the rules decide needs no model), else the fallback;
    a graph goal that asks several things gets the hierarchical engine."""
    routing = _route(goal, context, client, make_client)
    if routing.route == "graph" and several_asks(goal):
        routing.strategy = SEVERAL_ASKS_STRATEGY
        routing.reason += "; asks several things: a master splits it, graph workers answer the parts"
    return routing


def _route(goal: str, context: RouteContext, client: Optional[LLMClient],
           make_client: Optional[Callable[[], LLMClient]]) -> Routing:
    if not goal or not goal.strip():
        raise ValueError("the goal is empty")
    decision = route_by_rules(goal, context)
    if decision.route is not None:
        return Routing(decision.route, "rules", decision.reason, ROUTE_STRATEGY[decision.route], decision.scores)
    undecided = f"rules could not tell ({decision.reason})"
    if client is None and make_client is not None:
        client = make_client()
    if client is not None:
        route, what = model_label(goal, context, client)
        if route is not None:
            return Routing(route, "model", f"{undecided}; {what}", ROUTE_STRATEGY[route], decision.scores)
        undecided += f"; {what}"
    return Routing(FALLBACK_ROUTE, "fallback", f"{undecided}; the default route", ROUTE_STRATEGY[FALLBACK_ROUTE],
                   decision.scores)
