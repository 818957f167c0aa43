"""Reflective Reasoning Graph v0.30 (spec 000).

Public modules, as the spec names them: ``types``, ``graph``, ``nodes``,
``experience``, ``config``; ``graph_builder`` is spec 002 §4.4's fluent form of the same graph;
``build`` wires LLM functions, tools and the
experience corpus into the nodes. Names are loaded lazily so that importing
the package stays cheap (no pydantic, sqlite or model runtime at import).
"""

from __future__ import annotations

from ragix_core.core.lazy import lazy_exports

_EXPORTS = {
    "TaskComplexity": "types", "StepStatus": "types", "ToolCall": "types", "ToolResult": "types",
    "PlanStep": "types", "Plan": "types", "ReflectionAttempt": "types", "ReasoningState": "types",
    "ReasoningEvent": "types",
    "BaseNode": "graph", "ReasoningGraph": "graph", "StopRun": "graph", "CheckpointError": "graph",
    "GraphBuilder": "graph_builder",
    "ClassifyNode": "nodes", "DirectExecNode": "nodes", "PlanNode": "nodes", "ExecuteNode": "nodes",
    "ReflectNode": "nodes", "VerifyNode": "nodes", "RespondNode": "nodes",
    "ExperienceCorpus": "experience", "HybridExperienceCorpus": "experience",
    "Experience": "experience", "Pattern": "experience",
    "ReasoningConfig": "config",
}

__all__ = sorted(_EXPORTS)
__getattr__ = lazy_exports(__name__, _EXPORTS)
