"""ContractiveReasoner: entropy-driven tree decomposition with peer review (spec 002 §4).

    from ragix_core.reasoning_slim import ContractiveReasoner
    result = ContractiveReasoner(preset="fast").solve_sync("What weekday is 45 days after a Monday?")
    print(result.final_answer); print(result.to_mermaid())

Names load lazily so that listing engines or importing the package costs nothing.
docs/CONTRACTIVE.md describes the state machine, the entropy formulas and the presets.
"""

from __future__ import annotations

from typing import Any

__all__ = ["ContractiveReasoner", "ContractiveResult", "ContractiveParams", "Metrics", "Node", "NodeState",
           "PRESETS", "preset", "preset_names", "ChatSession"]

_WHERE = {
    "ContractiveReasoner": "engine",
    "ContractiveResult": "result",
    "Metrics": "result",
    "ContractiveParams": "params",
    "PRESETS": "params",
    "preset": "params",
    "preset_names": "params",
    "Node": "tree",
    "NodeState": "tree",
    "ChatSession": "chat",
}


def __getattr__(name: str) -> Any:
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module 'ragix_core.reasoning_slim' has no attribute {name!r}")
    from importlib import import_module

    return getattr(import_module(f"ragix_core.reasoning_slim.{module}"), name)
