"""The scripted model of the unit tests: an ``LLMClient`` that replies from a list, in order.

    llm = ScriptedLLM([{"command": "ls"}, "a free-text answer", LLMTimeout("slow")])
    llm.complete(messages, schema=...)   # the next reply; a dict is sent as its JSON text
    llm.calls                            # every call: messages, schema, temperature, seed, timeout

A reply may be a string, a JSON-able object, a callable ``(messages) -> reply`` (computed from the
prompt), or an exception to raise (a ``KeyboardInterrupt`` too: Ctrl-C during a model call).
Asking more often than scripted fails the test with the prompt's tail. For our own logic only;
the real model runs in the slow tests and in the recorded replays.
"""

from __future__ import annotations

import json
from typing import Any, List, Sequence, Tuple

from ragix_core.llm.base import Completion, LLMBadOutput, Usage

__all__ = ["ScriptedLLM"]


class ScriptedLLM:
    backend = "scripted"
    model = "scripted"

    def __init__(self, replies: Sequence[Any], *, usage: Tuple[int, int] = (10, 5)):
        self.replies = list(replies)
        self.calls: List[dict] = []
        self.usage = usage  # (prompt, completion) tokens reported for every call

    def complete(self, messages, *, schema=None, max_tokens=512, temperature=0.0, timeout=None, seed=None):
        self.calls.append({"messages": messages, "schema": schema, "temperature": temperature, "seed": seed,
                           "timeout": timeout, "max_tokens": max_tokens})
        if not self.replies:
            raise AssertionError("the scripted model was asked more often than scripted: "
                                 + str(messages[-1]["content"])[-200:])
        reply = self.replies.pop(0)
        if callable(reply) and not isinstance(reply, BaseException):
            reply = reply(messages)
        if isinstance(reply, BaseException):
            raise reply
        text = reply if isinstance(reply, str) else json.dumps(reply)
        data = None
        if schema is not None:
            try:
                data = json.loads(text)
            except ValueError:
                raise LLMBadOutput(f"not JSON: {text[:40]}", text=text) from None
        return Completion(text=text, data=data, usage=Usage(*self.usage), model="scripted", backend="scripted")

    def prompts_of(self, word: str) -> List[str]:
        """The last message of every call whose first message mentions ``word`` (a prompt's name)."""
        return [c["messages"][-1]["content"] for c in self.calls if word in c["messages"][0]["content"]]
