"""A JSON server on loopback for the tests that drive an official client against a scripted API."""

from __future__ import annotations

import json
import threading
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Iterator, Type


class JsonHandler(BaseHTTPRequestHandler):
    """A request handler that logs nothing (test output stays clean) and answers JSON."""

    def log_message(self, *args: Any) -> None:
        pass

    def send_json(self, code: int, body: Any) -> None:
        """``body`` as JSON, or as it is when it is bytes."""
        data = body if isinstance(body, bytes) else json.dumps(body).encode()
        self.send_response(code)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)


@contextmanager
def serving(handler: Type[BaseHTTPRequestHandler]) -> Iterator[str]:
    """Serve ``handler`` on a free loopback port for the block; yields ``http://127.0.0.1:PORT``."""
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}"
    finally:
        httpd.shutdown()
        httpd.server_close()
