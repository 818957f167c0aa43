"""The embedded backend: llama.cpp in this process, through xllamacpp.

Why xllamacpp (docs/DECISIONS.md): it ships a prebuilt CPU wheel, and it wraps
llama.cpp's *server* core, so we get its chat templating (taken from the GGUF),
``json_schema`` constrained decoding, and prompt caching (``cache_prompt``: a
call that shares the system prompt with the previous one only evaluates the new
tokens; the runtime's RAM prompt cache also restores a prefix after another
role's call used the slot) without an extra process.

Timeouts: generation is streamed so it can be stopped at the deadline. A
timeout that strikes during prompt processing returns on time, but the slot
stays busy until that prompt is processed (llama.cpp cannot interrupt it).

The model is loaded once per process: ``_SERVERS`` caches one runtime server per
(path, n_ctx, threads, slots), guarded by a lock, and every client and role that
resolves to the same key shares it.

The runtime also opens an HTTP listener on a random loopback port that cannot
be turned off; we give it a random API key so no other local process can use
our model through it (in-process calls are not subject to the key).
"""

from __future__ import annotations

import os
import secrets
import threading
import time
from typing import Any, Dict, List, Optional, Sequence, Tuple

from .base import (Completion, LLMError, LLMTimeout, LLMUnavailable, Message, Until, Usage, backend_error, cut_at_stop,
                   cut_until)
from .jsonout import check_schema
from .models import DEFAULT_MODEL, resolve_model_path
from .request import check_request

__all__ = ["EmbeddedClient", "runtime_info", "loaded_models"]

_SERVERS: Dict[Tuple[str, int, int, int], Any] = {}
_LOAD_LOCK = threading.Lock()


def runtime_info() -> Dict[str, Any]:
    """Is the runtime importable, and which version (for `ragix doctor`)."""
    try:
        import xllamacpp
    except ImportError as exc:
        return {"name": "xllamacpp", "installed": False, "error": str(exc), "hint": "pip install 'ragix[local]'"}
    return {"name": "xllamacpp", "installed": True, "version": getattr(xllamacpp, "__version__", "?")}


def loaded_models() -> List[str]:
    return [key[0] for key in _SERVERS]


def _default_threads() -> int:
    try:
        return max(1, len(os.sched_getaffinity(0)))  # the cores we may use, not the machine's
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def _load(path: str, n_ctx: int, threads: int, slots: int) -> Any:
    key = (path, n_ctx, threads, slots)
    server = _SERVERS.get(key)
    if server is not None:
        return server
    with _LOAD_LOCK:
        server = _SERVERS.get(key)
        if server is not None:
            return server
        try:
            import xllamacpp
        except ImportError:
            raise LLMUnavailable("embedded backend: the llama.cpp runtime (xllamacpp) is not installed; "
                                 "install with: pip install 'ragix[local]'") from None
        params = xllamacpp.CommonParams()
        params.model.path = path
        params.n_ctx = n_ctx
        params.n_parallel = slots
        params.cpuparams.n_threads = threads
        params.cpuparams_batch.n_threads = threads
        params.cache_prompt = True  # reuse the KV of a shared prefix (system prompt) across calls
        params.warmup = False  # a warm-up decode costs a second at start and buys nothing here
        params.api_keys = [secrets.token_urlsafe(24)]
        if not os.environ.get("RAGIX_LLM_VERBOSE"):
            params.verbosity = -1  # llama.cpp logs every slot event on stderr otherwise
        try:
            server = xllamacpp.Server(params)
        except Exception as exc:  # the runtime reports load failures as RuntimeError
            raise LLMUnavailable(f"embedded backend: cannot load model {path}: {exc}") from None
        _SERVERS[key] = server
        return server


class EmbeddedClient:
    """``LLMClient`` on a GGUF run in-process. The model loads on the first call."""

    backend = "embedded"

    def __init__(
        self,
        model: Optional[str] = None,
        *,
        n_ctx: int = 4096,
        threads: Optional[int] = None,
        slots: int = 1,
    ) -> None:
        self.model = model or DEFAULT_MODEL
        self.n_ctx = int(n_ctx)
        self.threads = int(threads) if threads else _default_threads()
        self.slots = int(slots)
        self._path: Optional[str] = None

    @property
    def path(self) -> str:
        """The GGUF file (assembling the default model into the cache on first use)."""
        if self._path is None:
            self._path = str(resolve_model_path(self.model))
        return self._path

    def load(self) -> Any:
        return _load(self.path, self.n_ctx, self.threads, self.slots)

    def _request(self, messages: List[Message], schema: Optional[Dict[str, Any]], max_tokens: int,
                 temperature: float, seed: Optional[int] = None) -> Dict[str, Any]:
        req: Dict[str, Any] = {
            "messages": [{"role": m["role"], "content": m["content"]} for m in messages],
            "max_tokens": int(max_tokens),
            "temperature": float(temperature),
            "cache_prompt": True,
        }
        if seed is not None:
            req["seed"] = int(seed)
        if schema:
            req["response_format"] = {"type": "json_schema", "json_schema": {"name": "reply", "schema": schema}}
        return req

    def complete(
        self,
        messages: List[Message],
        *,
        schema: Optional[Dict[str, Any]] = None,
        max_tokens: int = 512,
        temperature: float = 0.0,
        timeout: Optional[float] = None,
        seed: Optional[int] = None,
        stop: Optional[Sequence[str]] = None,
        until: Optional[Until] = None,
    ) -> Completion:
        where = f"embedded model {self.model}"
        check_request(messages, max_tokens, temperature, where)
        server = self.load()
        req = self._request(messages, schema, max_tokens, temperature, seed)
        if stop:
            req["stop"] = [s for s in stop if s]
        start = time.monotonic()
        try:
            if timeout is None and until is None:
                reply = server.handle_chat_completions(req)
            else:
                deadline = None if timeout is None else start + float(timeout)
                reply = self._stream_until(server, req, deadline, where, timeout, until)
        except LLMError:
            raise
        except Exception as exc:  # ValueError for bad requests / schemas the grammar cannot express
            raise LLMError(f"{where}: request rejected by llama.cpp: {exc}") from None
        latency = time.monotonic() - start
        if not isinstance(reply, dict) or "choices" not in reply:
            raise backend_error(f"{where}: runtime error: {_error_text(reply)}")
        choice = reply["choices"][0] if reply["choices"] else {}
        text = cut_until(cut_at_stop((choice.get("message") or {}).get("content") or "", stop), until)
        usage = _usage(reply)
        data = check_schema(text, schema, where, usage) if schema else None
        timings = reply.get("timings") or {}
        return Completion(
            text=text,
            data=data,
            usage=usage,
            latency=latency,
            model=self.model,
            backend=self.backend,
            meta={
                "finish_reason": choice.get("finish_reason"),
                "cached_tokens": timings.get("cache_n", 0),
                "prompt_ms": timings.get("prompt_ms"),
                "predicted_ms": timings.get("predicted_ms"),
                "predicted_per_second": timings.get("predicted_per_second"),
                "path": self.path,
            },
        )

    def _stream_until(self, server: Any, req: Dict[str, Any], deadline: Optional[float], where: str,
                      timeout: Optional[float], until: Optional[Until] = None) -> Dict[str, Any]:
        """Stream so that generation stops at the deadline, or where ``until`` finds the reply complete
        (a callback returning True cancels the task). With ``until`` each chunk carries the timings so far,
        so a reply cancelled before its last chunk still counts its tokens.

        The runtime only calls back once prompt processing is over, which for a long
        prompt can itself exceed the deadline; so the call runs in a worker thread
        and the caller gets ``LLMTimeout`` on time regardless. The abandoned task is
        cancelled at its first chunk (the deadline has passed by then).
        """
        req = dict(req, stream=True, stream_options={"include_usage": True})
        if until is not None:  # a reply ``until`` cancels has no last chunk: its tokens are counted from these
            req["timings_per_token"] = True
        parts: List[str] = []
        final: Dict[str, Any] = {}
        state: Dict[str, Any] = {"timed_out": False, "error": None, "exc": None}
        done = threading.Event()

        def on_chunk(chunk: Any) -> bool:
            if not isinstance(chunk, dict) or "choices" not in chunk:
                state["error"] = chunk
                return True
            for choice in chunk["choices"]:
                delta = choice.get("delta") or {}
                if delta.get("content"):
                    parts.append(delta["content"])
                if choice.get("finish_reason"):
                    final["finish_reason"] = choice["finish_reason"]
            for key in ("usage", "timings"):
                if chunk.get(key):
                    final[key] = chunk[key]
            if state.get("cancelled"):
                return True
            if until is not None and until("".join(parts)) is not None:
                final["finish_reason"] = "stop"  # complete: the text is cut where ``until`` says
                return True
            if deadline is not None and time.monotonic() > deadline:
                state["timed_out"] = True
                return True
            return False

        def work() -> None:
            try:
                server.handle_chat_completions(req, on_chunk)  # releases the GIL while llama.cpp runs
            except Exception as exc:
                state["exc"] = exc
            finally:
                done.set()

        threading.Thread(target=work, name="ragix-embedded-call", daemon=True).start()
        try:
            finished = done.wait(None if deadline is None else max(0.0, deadline - time.monotonic()) + 0.05)
        except KeyboardInterrupt:
            # Ctrl-C: the caller stops waiting at once, and the generation stops at its next token
            # instead of holding the model's slot until the deadline (the next question would queue).
            state["cancelled"] = True
            raise
        if state["timed_out"] or not finished:
            raise LLMTimeout(f"{where}: no complete reply within {timeout:g}s (generation stopped)")
        if state["exc"] is not None:
            raise state["exc"]
        if state["error"] is not None:
            raise backend_error(f"{where}: runtime error: {_error_text(state['error'])}")
        return {
            "choices": [{"message": {"content": "".join(parts)}, "finish_reason": final.get("finish_reason")}],
            "usage": final.get("usage"),
            "timings": final.get("timings"),
        }


def _usage(reply: Dict[str, Any]) -> Usage:
    usage = reply.get("usage") or {}
    timings = reply.get("timings") or {}
    cached = int(timings.get("cache_n") or 0)
    if usage.get("completion_tokens") is not None:
        prompt = int(usage.get("prompt_tokens") or 0)
        return Usage(prompt, int(usage.get("completion_tokens") or 0), min(cached, prompt))
    # streamed replies: cached + evaluated prompt tokens
    return Usage(cached + int(timings.get("prompt_n") or 0), int(timings.get("predicted_n") or 0), cached)


def _error_text(reply: Any) -> str:
    if isinstance(reply, dict):
        err = reply.get("error", reply)
        if isinstance(err, dict):
            return str(err.get("message") or err)
        return str(err)
    return repr(reply)[:200]
