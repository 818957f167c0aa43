"""The JSON API: start, watch, cancel and read runs; search past experience; read research Items
and the chunks they cite. Every error is ``{"error": message, "status": code}`` (see ``app``)."""

from __future__ import annotations

import json
from typing import Any, Dict, List, Optional

from fastapi import APIRouter, HTTPException, Query, Request
from fastapi.responses import PlainTextResponse
from pydantic import BaseModel, Field
from sse_starlette.sse import EventSourceResponse

from .catalog import Catalog, RunRecord
from .mermaid import graph_mermaid
from .paths import NotBeneath, beneath
from .runs import QueueFull, RunRefused, RunRequest

__all__ = ["router", "RunIn"]

router = APIRouter(prefix="/api")


class RunIn(BaseModel):
    goal: str = Field(..., description="What to answer or do, in plain words.")
    engine: str = Field("graph_v30", description="A registry engine: graph_v30, contractive, tutor, research, chat, ...")
    root: Optional[str] = Field(None, description="One of the server's roots (default: the first).")
    profile: Optional[str] = Field(None, description="safe, or the server's profile (default: the server's).")


def catalog(request: Request) -> Catalog:
    return request.app.state.catalog


def record_or_404(request: Request, run_id: str) -> RunRecord:
    record = catalog(request).find(run_id)
    if record is None:
        raise HTTPException(404, f"no run {run_id!r} on this server or in its roots' traces")
    return record


def start_run(request: Request, body: RunIn) -> Dict[str, Any]:
    """Shared by the API and the page's form: the run's summary, or an HTTP error saying why not."""
    settings = request.app.state.settings
    run_request = RunRequest(goal=body.goal, engine=body.engine, root=body.root or next(iter(settings.roots)),
                             profile=body.profile or settings.max_profile)
    try:
        return request.app.state.manager.submit(run_request).summary()
    except RunRefused as exc:
        raise HTTPException(400, str(exc)) from None
    except QueueFull as exc:
        raise HTTPException(429, str(exc)) from None


@router.get("/config")
def server_config(request: Request) -> Dict[str, Any]:
    """What a run may ask for here: engines, roots, profiles, limits."""
    from ragix_core.core.registry import ENGINES

    s = request.app.state.settings
    return {"engines": {name: spec.summary for name, spec in ENGINES.items()}, "roots": list(s.roots),
            "profiles": list(s.profiles), "max_active": s.max_active, "max_queued": s.max_queued,
            "max_goal_chars": s.max_goal_chars}


@router.post("/runs", status_code=202)
def create_run(request: Request, body: RunIn) -> Dict[str, Any]:
    return start_run(request, body)


@router.get("/runs")
def list_runs(request: Request) -> List[Dict[str, Any]]:
    return catalog(request).listing()


@router.get("/runs/{run_id}")
def get_run(request: Request, run_id: str) -> Dict[str, Any]:
    record = record_or_404(request, run_id)
    return {**record.summary(), "result": record.result}


@router.post("/runs/{run_id}/cancel")
def cancel_run(request: Request, run_id: str) -> Dict[str, Any]:
    run = request.app.state.manager.cancel(run_id)
    if run is None:
        raise HTTPException(404, f"no run {run_id!r} is known to this server")
    return run.summary()


@router.get("/runs/{run_id}/trace")
def get_trace(request: Request, run_id: str) -> List[Dict[str, Any]]:
    """The run's events as `ragix trace show --json` prints them."""
    return [e.to_dict() for e in record_or_404(request, run_id).events]


@router.get("/runs/{run_id}/events")
async def follow_events(request: Request, run_id: str) -> EventSourceResponse:
    """Server-sent events: every event of the run from its start, then each new one until it ends;
    the last message is ``end`` with the run's summary."""
    record = record_or_404(request, run_id)

    async def messages():
        if record.served is None:
            for event in record.events:
                yield {"event": event.kind.value, "data": json.dumps(event.to_dict(), default=str)}
        else:
            async for batch in record.served.stream.follow():
                for event in batch:
                    yield {"event": event.kind.value, "data": json.dumps(event.to_dict(), default=str)}
        yield {"event": "end", "data": json.dumps(record_or_404(request, run_id).summary(), default=str)}

    return EventSourceResponse(messages(), ping=15)


@router.get("/runs/{run_id}/items")
def research_items(request: Request, run_id: str) -> List[Dict[str, Any]]:
    """A research run's result as NLWeb Items (docs/RESEARCH.md)."""
    record = record_or_404(request, run_id)
    items = (record.result or {}).get("research_items")
    if not items:
        raise HTTPException(404, f"run {run_id!r} has no research Items (not a research run this server finished)")
    return items


@router.get("/runs/{run_id}/mermaid", response_class=PlainTextResponse)
def run_mermaid(request: Request, run_id: str) -> str:
    """A graph run's flowchart, a contractive run's tree, a tutor run's proof graph: each drawn from the run's
    events, so a past run read from its trace is exported as the run that just finished."""
    record = record_or_404(request, run_id)
    why = "it is not a graph"
    if record.engine == "tutor":
        from ragix_core.reasoning_tutor.graph import GraphLogError, graph_from_events

        try:
            proof = graph_from_events(e.data for e in record.events)
        except GraphLogError as exc:
            raise HTTPException(404, f"run {run_id!r}: its trace does not redraw its proof graph: {exc}") from None
        if proof is not None:
            return proof.to_mermaid()
        why = "its trace carries no proof graph (traced before ragix recorded it in the events)"
    if record.engine == "contractive":
        from ragix_core.core.events import EventKind
        from ragix_core.reasoning_slim.tree import to_mermaid, tree_from_events

        root = tree_from_events([e.data for e in record.events if e.kind == EventKind.TREE_NODE])
        if root is not None:
            return to_mermaid(root)
        why = "its trace holds no tree node"
    if record.engine in ("contractive", "tutor", "research", "chat"):
        raise HTTPException(404, f"run {run_id!r} is a {record.engine} run with no Mermaid export here: {why} "
                                 f"(`ragix reason --export-mermaid` and `ragix tutor` export their own)")
    return graph_mermaid(record.events)


@router.get("/corpus/search")
def corpus_search(request: Request, q: str = Query(..., min_length=1, max_length=500), root: Optional[str] = None,
                  top_k: int = Query(5, ge=1, le=50)) -> List[Dict[str, Any]]:
    """Past experience relevant to ``q``: the root's project corpus, then the global one."""
    from ragix_core.config import load_config
    from ragix_core.memory.errors import CorpusError
    from ragix_core.memory.experience import HybridExperienceCorpus

    settings = request.app.state.settings
    name = root or next(iter(settings.roots))
    if name not in settings.roots:
        raise HTTPException(400, f"unknown root {name!r}; allowed: {', '.join(settings.roots)}")
    cwd = settings.roots[name]
    config = settings.config or load_config(cwd=cwd)
    corpus = HybridExperienceCorpus.from_config(config.reasoning.experience, cwd, create=False,
                                                memory=config.memory)
    try:
        return [hit.to_dict() for c in corpus.corpora() for hit in c.search_events(q, top_k=top_k)]
    except CorpusError as exc:
        raise HTTPException(503, f"the experience corpus cannot be read: {exc}") from None
    finally:
        corpus.close()


@router.get("/roots/{root}/chunk")
def cited_chunk(request: Request, root: str, chunk: str = Query(..., min_length=3, max_length=1000)) -> Dict[str, Any]:
    """The text of a research citation's chunk (``path#ord``), from the root's document index."""
    from ragix_core.research.index import DocumentIndex, IndexError_

    settings = request.app.state.settings
    if root not in settings.roots:
        raise HTTPException(404, f"no root {root!r}")
    path, _, _ = chunk.rpartition("#")
    try:
        beneath(settings.roots[root], path)
    except NotBeneath:
        raise HTTPException(404, f"no document {path!r} in root {root!r}") from None
    try:
        index = DocumentIndex.open(settings.roots[root])
    except IndexError_ as exc:
        raise HTTPException(503, str(exc)) from None
    try:
        hit = index.get(chunk)
    finally:
        index.close()
    if hit is None:
        raise HTTPException(404, f"no chunk {chunk!r} in the index of root {root!r}")
    return hit.to_dict()
