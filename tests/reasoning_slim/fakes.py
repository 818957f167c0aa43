"""A scripted LLM client for the tree engine's unit tests.

It answers by what the prompt asks (the prompts are the real ``prompts/slim_*.md`` files):
a split, a review, a merge or a direct answer, from per-question scripts. Every call is
recorded, with its messages, so tests assert on what the engine asked and in which order.
"""

from __future__ import annotations

import json
import re
import threading
from collections import defaultdict
from typing import Any, Callable, Dict, List, Optional, Sequence, Union

from ragix_core.llm.base import Completion, LLMUnavailable, Usage

Script = Union[Sequence[str], Callable[[int], str]]


def question_of(prompt: str) -> str:
    m = re.search(r"Question:\n(.*?)(\n\nSub-questions|\Z)", prompt, re.S)
    return m.group(1).strip() if m else ""


class ScriptedClient:
    backend = "scripted"
    model = "scripted"

    def __init__(self, answers: Optional[Dict[str, Script]] = None, *, splits: Optional[Dict[str, Any]] = None,
                 merges: Optional[Dict[str, Script]] = None, peer: Optional[Callable[[str], float]] = None,
                 readings: Optional[Dict[str, Script]] = None, default: str = "42", tokens: int = 10,
                 invalid: Sequence[str] = (), down: bool = False):
        self.answers = answers or {}
        self.splits = splits or {}
        self.merges = merges or {}
        self.peer = peer
        self.readings = readings or {}
        self.default = default
        self.tokens = tokens
        self.invalid = set(invalid)  # questions whose answers are never valid JSON
        self.down = down
        self.calls: List[Dict[str, Any]] = []
        self._count: Dict[str, int] = defaultdict(int)
        self._lock = threading.Lock()

    def kinds(self) -> List[str]:
        return [c["kind"] for c in self.calls]

    def _pick(self, script: Script, key: str) -> str:
        with self._lock:
            i = self._count[key]
            self._count[key] += 1
        if callable(script):
            return script(i)
        return script[i % len(script)]

    def complete(self, messages, *, schema=None, max_tokens=512, temperature=0.0, timeout=None):
        if self.down:
            raise LLMUnavailable("scripted backend is down")
        prompt = messages[0]["content"]
        q = question_of(prompt)
        if prompt.startswith("Split the question"):
            kind, data = "decompose", {"subquestions": list(self._pick(self.splits.get(q, [["sub a?", "sub b?"]]),
                                                                       "split:" + q))}
        elif prompt.startswith("You are a careful reviewer"):
            sub = re.search(r"Sub-question:\n(.*?)\n\nAnswer:", prompt, re.S).group(1).strip()
            score = self.peer(sub) if self.peer else 0.8
            verdict = "approved" if score >= 0.6 else "reject"
            kind, data = "peer", {"score": score, "verdict": verdict, "suggestion": "check the date"}
        elif prompt.startswith("Answer the question using the answers"):
            kind = "collapse"
            data = {"reasoning": "merged", "answer": self._pick(self.merges.get(q, [self.default]), "merge:" + q)}
        else:
            kind = "solve"
            if q in self.invalid:
                text = "not json at all"
                self.calls.append({"kind": kind, "question": q, "temperature": temperature, "prompt": prompt})
                return Completion(text=text, data=None, usage=Usage(self.tokens, self.tokens), backend="scripted",
                                  model="scripted")
            data = {"reasoning": "because", "answer": self._pick(self.answers.get(q, [self.default]), "solve:" + q)}
            if "reading" in json.dumps(schema or {}):
                data = {"reading": self._pick(self.readings.get(q, ["the question as asked"]), "read:" + q), **data}
        self.calls.append({"kind": kind, "question": q, "temperature": temperature, "prompt": prompt,
                           "max_tokens": max_tokens, "timeout": timeout})
        return Completion(text=json.dumps(data), data=data, usage=Usage(self.tokens, self.tokens),
                          backend="scripted", model="scripted")


def reasoner(client: ScriptedClient, peer_client: Optional[ScriptedClient] = None, **params: Any):
    """A ContractiveReasoner whose roles all resolve to ``client`` (the peer to ``peer_client``)."""
    from ragix_core.core.events import EventBus
    from ragix_core.llm.config import LLMConfig, RoleOverride
    from ragix_core.llm.roles import Roles
    from ragix_core.reasoning_slim import ContractiveReasoner

    config = LLMConfig(peer=RoleOverride(model="peer-model")) if peer_client else LLMConfig()

    def factory(settings):
        return peer_client if (peer_client is not None and settings.model == "peer-model") else client

    bus = EventBus()
    roles = Roles(config, bus=bus, session_id="t", client_factory=factory)
    return ContractiveReasoner(roles=roles, bus=bus, session_id="t", **params)
