"""The registry entry ``research``: a goal is a question about the documents under the run's
directory, answered by the orchestrator in the configured default mode (``ragix eval -s research``
measures it with the other engines; ``ragix research`` is the full command)."""

from __future__ import annotations

from typing import Any, List

from ragix_core.core.types import ReasoningState

from .index import DocumentIndex, IndexError_
from .orchestrator import DeepResearchOrchestrator

__all__ = ["build", "ResearchEngine"]


class ResearchEngine:
    def __init__(self, ctx: Any) -> None:
        self.ctx = ctx
        self.trace: List[str] = []

    def run(self, state: ReasoningState) -> ReasoningState:
        self.trace.append("INDEX")
        try:
            index = DocumentIndex.open(self.ctx.cwd)
        except IndexError_ as exc:
            state.final_answer, state.stop_reason, state.last_error = str(exc), "index_unavailable", str(exc)
            return state
        try:
            stats = index.update()
            self.trace.append("RESEARCH")
            orch = DeepResearchOrchestrator.from_context(self.ctx, index)
            items = orch.run_research(state.goal)
        finally:
            index.close()
        item = items[0]
        schema = item["schema_object"]
        state.final_answer = item["description"]
        state.stop_reason = schema.get("stop_reason") or "error"
        state.confidence = item["score"] / 100
        state.meta.update(research_items=items, index=stats.to_dict(), research=orch.last_run)
        if schema.get("error"):
            state.last_error = schema["error"]
        return state


def build(ctx: Any) -> ResearchEngine:
    return ResearchEngine(ctx)
