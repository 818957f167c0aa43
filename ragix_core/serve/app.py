"""Assembly: the API and page routes, static files, the guard, and errors as JSON.

``create_app(settings)`` is everything `ragix serve` runs; tests build the same app with a
scripted model in ``settings.client_factory``.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException

from . import api, pages
from .catalog import Catalog
from .guard import Guard
from .runs import RunManager
from .settings import ServeSettings

__all__ = ["create_app"]

log = logging.getLogger("ragix.serve")


def _error(status: int, message: Any) -> JSONResponse:
    return JSONResponse({"error": message if isinstance(message, str) else str(message), "status": status},
                        status_code=status)


def create_app(settings: ServeSettings) -> Any:
    """The ASGI application (the guard around FastAPI); ``.state`` of the inner app holds the runs."""
    from contextlib import asynccontextmanager

    manager = RunManager(settings)

    @asynccontextmanager
    async def lifespan(_: FastAPI):
        yield
        manager.shutdown()

    # No /docs or /redoc: FastAPI's viewers load their scripts from a CDN; the schema itself is /openapi.json.
    app = FastAPI(title="ragix serve", version="1", lifespan=lifespan, docs_url=None, redoc_url=None,
                  description="Run ragix's engines on the server's roots, watch them live, read past runs.")
    app.state.settings = settings
    app.state.manager = manager
    app.state.catalog = Catalog(manager)
    app.include_router(api.router)
    app.include_router(pages.router)
    app.mount("/static", StaticFiles(directory=str(Path(__file__).parent / "static")), name="static")

    @app.exception_handler(StarletteHTTPException)
    async def http_error(_: Request, exc: StarletteHTTPException) -> JSONResponse:
        return _error(exc.status_code, exc.detail)

    @app.exception_handler(RequestValidationError)
    async def bad_request(_: Request, exc: RequestValidationError) -> JSONResponse:
        first = exc.errors()[0] if exc.errors() else {}
        where = ".".join(str(p) for p in first.get("loc", ()) if p != "body")
        return _error(422, f"{where}: {first.get('msg', 'invalid request')}" if where else "invalid request")

    @app.exception_handler(Exception)
    async def internal_error(_: Request, exc: Exception) -> JSONResponse:
        log.exception("request failed")  # the traceback goes to the server's log, never to the client
        return _error(500, f"internal error ({type(exc).__name__}); the server's log has the details")

    guarded = Guard(app, settings)
    guarded.state = app.state  # type: ignore[attr-defined]
    guarded.fastapi = app  # type: ignore[attr-defined]
    return guarded
