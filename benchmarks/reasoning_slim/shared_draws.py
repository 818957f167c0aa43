"""Common random numbers for comparing scenarios: one model call, shared by every scenario that
makes exactly the same call.

A call is identified by (backend, model, messages, schema, temperature, max_tokens) and by how
many identical calls the same task's run has already made (its draw index): the n-th identical
draw of a task returns the same completion in every scenario. S1's first root sample is S0's
greedy answer, S2's first three samples are S1's, S3–S5 differ from S1 only where their peers
speak. Differences between scenarios are then due to the scenario, not to sampling noise
(a paired comparison), and the run costs a fraction of the calls.

Tokens are counted for each scenario as if every call had been made (the stored completion
carries its usage), and each scenario's model time is the sum of its calls' recorded
latencies. Completions are appended to a JSONL file, so an interrupted run resumes.
"""

from __future__ import annotations

import hashlib
import json
import threading
from collections import defaultdict
from pathlib import Path
from typing import Any, Dict, List, Optional

from ragix_core.llm.base import Completion, LLMClient, Usage

__all__ = ["DrawStore", "SharedDrawClient"]


class DrawStore:
    def __init__(self, path: Path):
        self.path = Path(path)
        self._lock = threading.Lock()
        self._done: Dict[str, Dict[str, Any]] = {}
        if self.path.exists():
            for line in self.path.read_text(encoding="utf-8").splitlines():
                try:
                    rec = json.loads(line)
                except ValueError:
                    continue  # a line cut by a crash: that call is simply made again
                self._done[rec["key"]] = rec
        self.hits = 0
        self.misses = 0

    def get(self, key: str) -> Optional[Dict[str, Any]]:
        with self._lock:
            rec = self._done.get(key)
            if rec is not None:
                self.hits += 1
            return rec

    def put(self, key: str, rec: Dict[str, Any]) -> None:
        with self._lock:
            self.misses += 1
            self._done[key] = rec
            with self.path.open("a", encoding="utf-8") as fh:
                fh.write(json.dumps(rec, ensure_ascii=False) + "\n")


class SharedDrawClient:
    """Wraps a real client; ``begin(task_id)`` starts a task's run (draw indexes restart)."""

    def __init__(self, inner: LLMClient, store: DrawStore):
        self.inner = inner
        self.store = store
        self.task = ""
        self._seen: Dict[str, int] = defaultdict(int)
        self._lock = threading.Lock()
        self.latency = 0.0  # model seconds of the current task's calls, replayed ones included

    @property
    def backend(self) -> str:
        return self.inner.backend

    @property
    def model(self) -> str:
        return self.inner.model

    def begin(self, task_id: str) -> None:
        with self._lock:
            self.task = task_id
            self._seen = defaultdict(int)
            self.latency = 0.0

    def complete(self, messages: List[Dict[str, str]], *, schema: Optional[Dict[str, Any]] = None,
                 max_tokens: int = 512, temperature: float = 0.0, timeout: Optional[float] = None) -> Completion:
        body = json.dumps([self.inner.backend, self.inner.model, messages, schema, round(float(temperature), 3),
                           int(max_tokens)], sort_keys=True, ensure_ascii=False)
        digest = hashlib.sha256(body.encode()).hexdigest()
        with self._lock:
            draw = self._seen[digest]
            self._seen[digest] += 1
        key = f"{self.task}:{digest}:{draw}"
        rec = self.store.get(key)
        if rec is None:
            c = self.inner.complete(messages, schema=schema, max_tokens=max_tokens, temperature=temperature,
                                    timeout=timeout)
            rec = {"key": key, "text": c.text, "data": c.data, "prompt_tokens": c.usage.prompt_tokens,
                   "completion_tokens": c.usage.completion_tokens, "latency": c.latency}
            self.store.put(key, rec)
        with self._lock:
            self.latency += float(rec["latency"] or 0.0)
        return Completion(text=rec["text"], data=rec["data"], usage=Usage(rec["prompt_tokens"], rec["completion_tokens"]),
                          latency=rec["latency"], model=self.inner.model, backend=self.inner.backend,
                          meta={"shared_draw": True})
