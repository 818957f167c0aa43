"""Streamable HTTP for `ragix mcp serve --http HOST:PORT`, loopback unless a token is set.

Without a token only a loopback address may be bound (anyone who can reach the port could run
engines on the project); with one (``RAGIX_MCP_TOKEN``), every HTTP request must carry
``Authorization: Bearer TOKEN`` and is refused with 401 otherwise.
"""

from __future__ import annotations

import hmac
import ipaddress
from typing import Any, Optional, Tuple

__all__ = ["TOKEN_ENV", "parse_bind", "BearerTokenGate", "http_app", "serve_http"]

TOKEN_ENV = "RAGIX_MCP_TOKEN"


def _is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def parse_bind(value: str, token: Optional[str]) -> Tuple[str, int]:
    """``HOST:PORT`` (``[::1]:PORT`` for IPv6) -> (host, port); ValueError naming the problem."""
    host, sep, port = value.rpartition(":")
    host = host.strip("[]")
    if not sep or not host or not port.isdigit() or not 0 <= int(port) <= 65535:
        raise ValueError(f"--http {value!r}: expected HOST:PORT, e.g. 127.0.0.1:8765")
    if not _is_loopback(host) and not token:
        raise ValueError(f"--http {value!r}: a non-loopback address needs a token; set {TOKEN_ENV} "
                         "(clients then send 'Authorization: Bearer TOKEN')")
    return host, int(port)


class BearerTokenGate:
    """ASGI middleware: HTTP requests without the right bearer token get 401; lifespan passes."""

    def __init__(self, app: Any, token: str) -> None:
        self.app, self._expected = app, f"Bearer {token}".encode()

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope.get("type") == "http":
            given = dict(scope.get("headers") or []).get(b"authorization", b"")
            if not hmac.compare_digest(given, self._expected):
                body = b'{"error": "missing or wrong bearer token"}'
                await send({"type": "http.response.start", "status": 401,
                            "headers": [(b"content-type", b"application/json"), (b"www-authenticate", b"Bearer"),
                                        (b"content-length", str(len(body)).encode())]})
                await send({"type": "http.response.body", "body": body})
                return
        await self.app(scope, receive, send)


def http_app(server: Any, host: str, token: Optional[str]) -> Any:
    from mcp.server.transport_security import TransportSecuritySettings

    # On loopback, the Host check stops a web page from reaching the server by DNS rebinding.
    security = TransportSecuritySettings(
        enable_dns_rebinding_protection=_is_loopback(host),
        allowed_hosts=["127.0.0.1:*", "localhost:*", "[::1]:*"], allowed_origins=[])
    app = server.streamable_http_app(transport_security=security, host=host)
    return BearerTokenGate(app, token) if token else app


def serve_http(server: Any, host: str, port: int, token: Optional[str]) -> None:
    import uvicorn

    uvicorn.run(http_app(server, host, token), host=host, port=port, access_log=False)
