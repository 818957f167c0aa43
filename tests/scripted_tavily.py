"""A loopback server that speaks Tavily's search API (``POST /search``), for the official client's tests.

    with tavily_server(lambda request: (200, search_answer(...))) as server:
        TavilyClient(api_key="tvly-test", api_base_url=server.url).search("q")
        server.requests                     # every request: {"path", "authorization", "body"}

``reply(request)`` returns ``(status, body)``: a dict or list is sent as JSON, bytes as they are;
a ``float`` status-less reply ``("sleep", seconds)`` answers nothing for that long. The shapes are
Tavily's documented ones: a search answers ``{query, answer, images, results: [{title, url, content,
score, raw_content}], response_time}``; an error answers ``{"detail": {"error": "..."}}``.
"""

from __future__ import annotations

import json
import time
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, Callable, Dict, Iterator, List, Sequence, Tuple

from tests.loopback import JsonHandler, serving

__all__ = ["TavilyServer", "tavily_server", "search_answer", "error_body"]


@dataclass
class TavilyServer:
    url: str
    requests: List[Dict[str, Any]] = field(default_factory=list)


def search_answer(query: str, results: Sequence[Tuple[str, str, str]]) -> Dict[str, Any]:
    """A documented search answer; ``results`` are (title, url, content), best first."""
    return {"query": query, "follow_up_questions": None, "answer": None, "images": [],
            "results": [{"title": t, "url": u, "content": c, "score": round(0.9 - 0.1 * i, 2), "raw_content": None}
                        for i, (t, u, c) in enumerate(results)],
            "response_time": 0.42}


def error_body(message: str) -> Dict[str, Any]:
    return {"detail": {"error": message}}


@contextmanager
def tavily_server(reply: Callable[[Dict[str, Any]], Tuple[Any, Any]]) -> Iterator[TavilyServer]:
    server = TavilyServer(url="")

    class Handler(JsonHandler):
        def do_POST(self) -> None:
            raw = self.rfile.read(int(self.headers.get("Content-Length") or 0))
            request = {"path": self.path, "authorization": self.headers.get("Authorization"),
                       "client_source": self.headers.get("X-Client-Source"), "body": json.loads(raw or b"{}")}
            server.requests.append(request)
            status, body = reply(request)
            if status == "sleep":
                time.sleep(body)
                return
            self.send_json(status, body)

    with serving(Handler) as url:
        server.url = url
        yield server
