"""The engine registry: every reasoning strategy by name, in one table.

The CLI (``--strategy``), config validation (``reasoning.strategy``), ``ragix
eval`` and ``run_goal`` read the names from here; nothing else lists them.
An entry names the function that builds the engine from a ``RunContext``, as
``"module:function"``, imported only when that engine runs, so listing names
costs nothing and a missing optional dependency fails only its own engine.

Adding an engine: write ``build(ctx) -> Engine`` in its package and add one
``EngineSpec`` below.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Dict, List, Protocol, Tuple

if TYPE_CHECKING:  # pragma: no cover
    from ragix_core.core.types import ReasoningState

__all__ = ["Engine", "EngineSpec", "UnknownEngine", "ENGINES", "DEFAULT_ENGINE", "BASELINE_ENGINE",
           "engine_names", "get_engine", "build_engine"]


class Engine(Protocol):
    """What ``run_goal`` runs: a state in, the finished state out; never raises (a failure ends
    the run with a named ``stop_reason``). ``trace`` lists the phases visited, in order."""

    trace: List[str]

    def run(self, state: "ReasoningState") -> "ReasoningState":
        ...


@dataclass(frozen=True)
class EngineSpec:
    name: str
    target: str  # "module:function", the function taking a RunContext and returning an Engine
    summary: str
    roles: Tuple[str, ...]  # LLM roles it calls: the profile's model rule is checked for these
    classifies: bool = True  # labels the goal's complexity (the eval compares labels only then)
    # Reads or runs commands in the user's project. An engine that does not (the tree; chat, whose REPL
    # only needs a scratch directory) runs from anywhere: a system or home directory is replaced by
    # the per-user working area (core/home.work_area).
    needs_project: bool = True
    # Runs confined commands (a dry run previews them); research reads its documents in-process and the
    # contractive tree only asks its models, so a dry run of either has nothing to show and runs nothing.
    runs_commands: bool = True
    # Checkpoints after every step (a graph): `ragix run --resume SESSION` continues it.
    resumable: bool = False


class UnknownEngine(ValueError):
    """A strategy name that is not in the registry; the message lists the known ones."""


_SHELL_ROLES = ("planner", "worker", "verifier")

ENGINES: Dict[str, EngineSpec] = {spec.name: spec for spec in (
    EngineSpec("graph_v30", "ragix_core.reasoning_v30.build:graph_v30",
               "spec 000 reflective graph: classify, plan, execute, reflect (back to PLAN), verify", _SHELL_ROLES,
               resumable=True),
    EngineSpec("graph_v2", "ragix_core.reasoning_v30.build:graph_v2",
               "spec 001 graph: REFLECT writes the new plan and returns to EXECUTE", _SHELL_ROLES, resumable=True),
    EngineSpec("loop_v1", "ragix_core.reasoning:loop_v1",
               "spec 002 ReasoningLoop v1: plan, execute, verify, retry the whole plan", _SHELL_ROLES, resumable=True),
    EngineSpec("research", "ragix_core.research.engine:build",
               "spec 004 deep research over the directory's documents: analyst, critic, writer",
               ("planner", "verifier", "worker"), classifies=False, runs_commands=False),
    EngineSpec("s0", "ragix_core.baseline_s0:s0",
               "baseline, the plain call: one free-text command (first code block), one answer from its output",
               ("worker",), classifies=False, resumable=True),
    EngineSpec("s0_json", "ragix_core.baseline_s0:s0_json",
               "baseline before the main path: one command asked as JSON, one answer from its output",
               ("worker",), classifies=False, resumable=True),
    EngineSpec("contractive", "ragix_core.reasoning_slim.engine:build",
               "spec 002 §4 tree: k samples → entropy → decompose, review, collapse (no tools)",
               ("planner", "worker", "peer"), classifies=False, needs_project=False, runs_commands=False),
    EngineSpec("tutor", "ragix_core.reasoning_tutor.game:tutor",
               "spec 002 §3.4 Interpreter-Tutor: the model moves, a deterministic tutor validates against evidence",
               ("worker",), classifies=False),
    EngineSpec("chat", "ragix_core.chat.build:build",
               "spec 003 chat agent: orchestrator thinks and calls repl/operator/search, writer answers",
               ("planner", "worker"), classifies=False, needs_project=False),
    EngineSpec("ensemble", "ragix_core.collective.ensemble:build",
               "spec 002 §9 ensemble: member engines answer the same goal, a vote merges them and reports agreement",
               _SHELL_ROLES, classifies=False),
    EngineSpec("hierarchical", "ragix_core.collective.hierarchical:build",
               "spec 002 §9 hierarchical: a master splits a goal that asks several things, graph workers answer "
               "the parts within one budget", _SHELL_ROLES, classifies=False),
)}
DEFAULT_ENGINE = "graph_v30"
BASELINE_ENGINE = "s0"


def engine_names() -> Tuple[str, ...]:
    return tuple(ENGINES)


def get_engine(name: str) -> EngineSpec:
    spec = ENGINES.get(name)
    if spec is None:
        raise UnknownEngine(f"unknown strategy {name!r}; allowed: {', '.join(ENGINES)}")
    return spec


def build_engine(spec: EngineSpec, ctx: Any) -> Engine:
    """Import the engine's module and build it for ``ctx``."""
    module, _, function = spec.target.partition(":")
    return getattr(importlib.import_module(module), function)(ctx)
