"""Who may do what, checked before any route runs (an ASGI middleware).

- **Host**: on loopback, a request must name a loopback host, so a page on another site cannot
  reach the server by pointing its own domain name at 127.0.0.1 (DNS rebinding).
- **Token**: when the server has one (always off loopback), every request carries it: an
  ``Authorization: Bearer`` header, or the cookie set by opening the page once with ``?token=``.
- **Origin**: a request that changes state (POST, PUT, PATCH, DELETE) from a browser must come from
  the server's own page: its ``Origin`` matches the host it was sent to. A client that is not a browser
  sends no ``Origin``; on loopback it is the operator's own program.
- **Size**: a body over the limit is refused with 413 before a route reads it.

Every refusal is JSON with a message, like every other error of the server.
"""

from __future__ import annotations

import hmac
import json
from http.cookies import SimpleCookie
from typing import Any, Awaitable, Callable, Dict, Optional
from urllib.parse import parse_qs, urlsplit

from .settings import ServeSettings, is_loopback

__all__ = ["Guard", "TOKEN_COOKIE"]

TOKEN_COOKIE = "ragix_token"
_CHANGES_STATE = {"POST", "PUT", "PATCH", "DELETE"}

Scope = Dict[str, Any]
Receive = Callable[[], Awaitable[Dict[str, Any]]]
Send = Callable[[Dict[str, Any]], Awaitable[None]]


def _headers(scope: Scope) -> Dict[str, str]:
    return {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope.get("headers", [])}


def _host_name(host_header: str) -> str:
    return urlsplit("//" + host_header).hostname or ""


async def _refuse(send: Send, status: int, message: str, extra_headers: Optional[list] = None) -> None:
    body = json.dumps({"error": message, "status": status}).encode()
    headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
    await send({"type": "http.response.start", "status": status, "headers": headers + (extra_headers or [])})
    await send({"type": "http.response.body", "body": body})


class Guard:
    def __init__(self, app: Any, settings: ServeSettings) -> None:
        self.app = app
        self.settings = settings

    def _token_given(self, scope: Scope, headers: Dict[str, str]) -> Optional[str]:
        auth = headers.get("authorization", "")
        if auth.lower().startswith("bearer "):
            return auth[7:].strip()
        cookie = SimpleCookie(headers.get("cookie", ""))
        if TOKEN_COOKIE in cookie:
            return cookie[TOKEN_COOKIE].value
        query = parse_qs(scope.get("query_string", b"").decode("latin-1"))
        return (query.get("token") or [None])[0]

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = _headers(scope)
        method = scope.get("method", "GET").upper()
        host = _host_name(headers.get("host", ""))
        if is_loopback(self.settings.host) and not is_loopback(host):
            await _refuse(send, 421, f"this server answers only to a loopback host name, not {host!r}")
            return
        set_cookie = []
        if self.settings.token:
            given = self._token_given(scope, headers)
            if not given or not hmac.compare_digest(given.encode(), self.settings.token.encode()):
                await _refuse(send, 401, "this server needs its token: an 'Authorization: Bearer TOKEN' header, "
                                         "or open the page once with ?token=TOKEN")
                return
            if "token=" in scope.get("query_string", b"").decode("latin-1"):
                set_cookie = [(b"set-cookie", f"{TOKEN_COOKIE}={given}; HttpOnly; SameSite=Strict; Path=/".encode())]
        if method in _CHANGES_STATE:
            origin = headers.get("origin")
            if origin is not None and urlsplit(origin).netloc != headers.get("host", ""):
                await _refuse(send, 403, f"a request that changes state must come from this server's own page, "
                                         f"not from {origin}")
                return
            if origin is None and headers.get("sec-fetch-site") == "cross-site":
                await _refuse(send, 403, "a cross-site request may not change state")
                return
        limit = self.settings.max_body_bytes
        length = headers.get("content-length")
        if length is not None and (not length.isdigit() or int(length) > limit):
            await _refuse(send, 413, f"the request body is over {limit} bytes")
            return

        if length is None and method in _CHANGES_STATE:  # a chunked body: read it here, within the limit
            body = await _read_within(receive, limit)
            if body is None:
                await _refuse(send, 413, f"the request body is over {limit} bytes")
                return
            receive = _replay(body, receive)

        async def send_with_cookie(message: Dict[str, Any]) -> None:
            if set_cookie and message["type"] == "http.response.start":
                message = {**message, "headers": list(message.get("headers", [])) + set_cookie}
            await send(message)

        await self.app(scope, receive, send_with_cookie)


async def _read_within(receive: Receive, limit: int) -> Optional[bytes]:
    chunks, size = [], 0
    while True:
        message = await receive()
        if message["type"] != "http.request":
            return b"".join(chunks)
        chunk = message.get("body", b"")
        size += len(chunk)
        if size > limit:
            return None
        chunks.append(chunk)
        if not message.get("more_body"):
            return b"".join(chunks)


def _replay(body: bytes, receive: Receive) -> Receive:
    given = False

    async def replayed() -> Dict[str, Any]:
        nonlocal given
        if not given:
            given = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()

    return replayed
