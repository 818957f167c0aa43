"""The page: a run form, a live view per run (server-rendered, pushed as HTML over server-sent
events and swapped in by htmx's SSE extension), past runs, exports.

The live view is the same template as a past run's view, rendered from the events so far; a watcher
gets a fresh rendering at most every ``_PUSH_EVERY`` seconds, so a chatty run costs the page a few
renders a second, not one per event.
"""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any, Dict

from fastapi import APIRouter, Form, HTTPException, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from fastapi.templating import Jinja2Templates
from sse_starlette.sse import EventSourceResponse

from .api import RunIn, catalog, record_or_404, start_run
from .catalog import RunRecord
from .views import view_of

__all__ = ["router", "templates"]

router = APIRouter(include_in_schema=False)
templates = Jinja2Templates(directory=str(Path(__file__).parent / "templates"))
_PUSH_EVERY = 0.25


def _page_context(request: Request, record: RunRecord) -> Dict[str, Any]:
    view = view_of(record.events, record.engine, record.result)
    summary = record.summary()
    return {"run": summary, "view": view, "root": record.root, "active": summary.get("status") in ("queued", "running")}


def _home(request: Request, error: Any = None, status_code: int = 200) -> Response:
    from ragix_core.core.registry import ENGINES

    settings = request.app.state.settings
    return templates.TemplateResponse(request, "home.html", {
        "engines": ENGINES, "roots": list(settings.roots), "profiles": settings.profiles,
        "default_profile": settings.max_profile, "runs": catalog(request).listing()[:10], "error": error,
        "max_goal_chars": settings.max_goal_chars}, status_code=status_code)


@router.get("/", response_class=HTMLResponse)
def home(request: Request) -> Response:
    return _home(request)


@router.post("/runs")
def submit_form(request: Request, goal: str = Form(...), engine: str = Form("graph_v30"), root: str = Form(None),
                profile: str = Form(None)) -> Response:
    """The form's run: a redirect to its live page, or the form again with the reason it was refused."""
    try:
        summary = start_run(request, RunIn(goal=goal, engine=engine, root=root, profile=profile))
    except HTTPException as exc:
        return _home(request, error=exc.detail, status_code=exc.status_code)
    return RedirectResponse(f"/runs/{summary['id']}", status_code=303)


@router.get("/runs", response_class=HTMLResponse)
def past_runs(request: Request) -> Response:
    return templates.TemplateResponse(request, "runs.html", {"runs": catalog(request).listing()})


@router.get("/runs/{run_id}", response_class=HTMLResponse)
def run_page(request: Request, run_id: str) -> Response:
    return templates.TemplateResponse(request, "run.html", _page_context(request, record_or_404(request, run_id)))


@router.post("/runs/{run_id}/cancel")
def cancel_form(request: Request, run_id: str) -> Response:
    if request.app.state.manager.cancel(run_id) is None:
        raise HTTPException(404, f"no run {run_id!r} is known to this server")
    return RedirectResponse(f"/runs/{run_id}", status_code=303)


@router.get("/runs/{run_id}/live")
async def live_view(request: Request, run_id: str) -> EventSourceResponse:
    """The run's view as HTML, pushed (event ``view``) whenever it changed; ``end`` when the run has ended."""
    record = record_or_404(request, run_id)
    template = templates.get_template("live.html")

    def render() -> str:
        fresh = record_or_404(request, run_id)
        return template.render(_page_context(request, fresh))

    async def messages():
        if record.served is not None:
            last = 0.0
            async for _ in record.served.stream.follow():
                wait = _PUSH_EVERY - (time.monotonic() - last)
                if wait > 0:
                    await asyncio.sleep(wait)
                last = time.monotonic()
                yield {"event": "view", "data": render()}
            while record.served.active:  # the stream has closed; the status follows in a moment
                await asyncio.sleep(0.05)
        yield {"event": "view", "data": render()}
        yield {"event": "end", "data": "ended"}

    return EventSourceResponse(messages(), ping=15)


@router.get("/roots/{root}/chunk", response_class=HTMLResponse)
def chunk_fragment(request: Request, root: str, chunk: str) -> Response:
    from .api import cited_chunk

    return templates.TemplateResponse(request, "chunk.html", {"hit": cited_chunk(request, root, chunk)})
