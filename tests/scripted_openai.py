"""A scripted OpenAI-compatible server on loopback: ragix driven through the official openai client, no model.

    with scripted_openai_server(lambda request: '{"answer": 2}') as server:
        OpenAICompatClient("scripted", base_url=server.url) ...
        server.requests                     # every chat-completion request body, in order

``reply(request)`` returns the assistant's content (wrapped in a chat completion with
``usage``), or ``(status, body)`` to answer with an HTTP error. For the tests of our
reaction to what a server sends; the real servers are in tests/llm/conftest.py.
"""

from __future__ import annotations

import json
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, Callable, Dict, Iterator, List, Optional, Tuple, Union

from tests.loopback import JsonHandler, serving

Reply = Callable[[Dict[str, Any]], Union[str, Tuple[int, Dict[str, Any]]]]


@dataclass
class ScriptedServer:
    url: str
    requests: List[Dict[str, Any]] = field(default_factory=list)


def response_schema(request: Dict[str, Any]) -> Dict[str, Any]:
    """The JSON schema a request asks for (``{}`` for free text)."""
    return ((request.get("response_format") or {}).get("json_schema") or {}).get("schema") or {}


@contextmanager
def scripted_openai_server(reply: Reply, *, model: str = "scripted",
                           usage: Tuple[int, int] = (30, 12), cached: Optional[int] = None) -> Iterator[ScriptedServer]:
    server = ScriptedServer(url="")

    class Handler(JsonHandler):
        _send = JsonHandler.send_json

        def do_GET(self) -> None:
            self._send(200, {"object": "list", "data": [{"id": model, "object": "model", "owned_by": "test"}]})

        def do_POST(self) -> None:
            request = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
            server.requests.append(request)
            answer = reply(request)
            if isinstance(answer, tuple):
                self._send(*answer)
                return
            self._send(200, {"id": "x", "object": "chat.completion", "created": 0, "model": model,
                             "choices": [{"index": 0, "finish_reason": "stop",
                                          "message": {"role": "assistant", "content": answer}}],
                             "usage": {"prompt_tokens": usage[0], "completion_tokens": usage[1],
                                       "total_tokens": sum(usage),
                                       **({"prompt_tokens_details": {"cached_tokens": cached}}
                                          if cached is not None else {})}})

    with serving(Handler) as url:
        server.url = url + "/v1"
        yield server
