"""ContractiveReasoner: entropy-driven tree decomposition with peer review (spec 002 §4).

    from ragix_core.reasoning_slim import ContractiveReasoner
    result = ContractiveReasoner(preset="fast").solve_sync("What weekday is 45 days after a Monday?")
    print(result.final_answer); print(result.to_mermaid())

Names load lazily so that listing engines or importing the package costs nothing.
docs/CONTRACTIVE.md describes the state machine, the entropy formulas and the presets.
"""

from __future__ import annotations

from ragix_core.core.lazy import lazy_exports

_EXPORTS = {
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

__all__ = sorted(_EXPORTS)
__getattr__ = lazy_exports(__name__, _EXPORTS)
