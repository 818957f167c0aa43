"""Embedded backend vs the raw runtime on the same GGUF and prompt, in one run.

    .venv/bin/python benchmarks/llm_throughput.py [--model NAME_OR_GGUF] [--runs 3] [--max-tokens 64]

Prints one JSON object:
- ``load_s``: runtime load time (raw ``xllamacpp.Server`` construction; the
  embedded client's first load; the second reads the file from page cache);
- ``tokens_per_s``: completion tokens / wall time of the whole call, median of
  ``runs`` alternating calls (raw, embedded, embedded-with-timeout), so drift
  on a shared machine hits all three alike; ``ratio`` = embedded / raw (target ≥ 0.95);
- ``overhead_ms_outside_runtime``: wall time minus llama.cpp's own prompt + decode
  time, i.e. what the ragix wrapper (or the raw call) adds — immune to CPU drift;
- ``shared_prefix``: time to first token (a 1-token reply) and llama.cpp's own
  prompt-processing time for a call with a fresh ~400-token system prompt, then
  for a second call sharing it (the slot's KV cache is reused).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
import uuid
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from ragix_core.llm.embedded import EmbeddedClient, runtime_info  # noqa: E402
from ragix_core.llm.models import DEFAULT_MODEL, resolve_model_path  # noqa: E402

PROMPT = [
    {"role": "system", "content": "You are a precise assistant for Python developers."},
    {"role": "user", "content": "Explain in a few sentences what a Python generator is and when to use one."},
]
LONG_SYSTEM = (
    "You are the planner of a bounded reasoning agent. You read a task, split it into at most five "
    "steps, and for each step name one tool among: ls, find, grep, head, tail, wc, cat. "
) * 12


def raw_server(path: str, n_ctx: int, threads: int):
    import xllamacpp

    params = xllamacpp.CommonParams()
    params.model.path = path
    params.n_ctx = n_ctx
    params.n_parallel = 1
    params.cpuparams.n_threads = threads
    params.cpuparams_batch.n_threads = threads
    params.warmup = False
    params.verbosity = -1
    return xllamacpp.Server(params)


def timed(fn):
    start = time.perf_counter()
    out = fn()
    return out, time.perf_counter() - start


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--model", default=DEFAULT_MODEL)
    ap.add_argument("--runs", type=int, default=4)
    ap.add_argument("--max-tokens", type=int, default=64)
    ap.add_argument("--n-ctx", type=int, default=2048)
    args = ap.parse_args()

    path = str(resolve_model_path(args.model))
    client = EmbeddedClient(args.model, n_ctx=args.n_ctx)
    threads = client.threads

    raw, raw_load = timed(lambda: raw_server(path, args.n_ctx, threads))
    _, emb_load = timed(client.load)
    req = {"messages": PROMPT, "max_tokens": args.max_tokens, "temperature": 0.0}

    # warm-up: one call each, so both slots hold the prompt and neither pays first-touch costs
    raw.handle_chat_completions(dict(req))
    client.complete(PROMPT, max_tokens=args.max_tokens)

    rates = {"raw": [], "embedded": [], "embedded_timeout_path": []}
    decode = {"raw": [], "embedded": []}
    overhead_ms = {"raw": [], "embedded": [], "embedded_timeout_path": []}  # wall time not spent in llama.cpp's prompt + decode

    def run_raw():
        out, dt = timed(lambda: raw.handle_chat_completions(dict(req)))
        t = out["timings"]
        rates["raw"].append(out["usage"]["completion_tokens"] / dt)
        decode["raw"].append(t["predicted_per_second"])
        overhead_ms["raw"].append(dt * 1000 - t["prompt_ms"] - t["predicted_ms"])

    def run_embedded():
        res, dt = timed(lambda: client.complete(PROMPT, max_tokens=args.max_tokens))
        rates["embedded"].append(res.usage.completion_tokens / dt)
        decode["embedded"].append(res.meta["predicted_per_second"])
        overhead_ms["embedded"].append(dt * 1000 - res.meta["prompt_ms"] - res.meta["predicted_ms"])
        res, dt = timed(lambda: client.complete(PROMPT, max_tokens=args.max_tokens, timeout=600))
        rates["embedded_timeout_path"].append(res.usage.completion_tokens / dt)
        overhead_ms["embedded_timeout_path"].append(dt * 1000 - res.meta["prompt_ms"] - res.meta["predicted_ms"])

    for i in range(args.runs):  # alternate who goes first: load from other processes drifts
        for fn in ((run_raw, run_embedded) if i % 2 == 0 else (run_embedded, run_raw)):
            fn()

    med = {k: round(statistics.median(v), 2) for k, v in rates.items()}

    # shared system prompt: a nonce makes the first call's prefix new to the cache
    system = {"role": "system", "content": f"[session {uuid.uuid4().hex}] " + LONG_SYSTEM}
    first = client.complete([system, {"role": "user", "content": "Task: count the Python files."}], max_tokens=1)
    second = client.complete([system, {"role": "user", "content": "Task: find TODO comments."}], max_tokens=1)

    report = {
        "runtime": runtime_info(),
        "model": args.model,
        "gguf_bytes": os.path.getsize(path),
        "threads": threads,
        "n_ctx": args.n_ctx,
        "max_tokens": args.max_tokens,
        "runs": args.runs,
        "load_s": {"raw": round(raw_load, 3), "embedded": round(emb_load, 3)},
        "tokens_per_s": {**med, "ratio": round(med["embedded"] / med["raw"], 3),
                         "ratio_timeout_path": round(med["embedded_timeout_path"] / med["raw"], 3)},
        "decode_tokens_per_s_runtime_timings": {k: round(statistics.median(v), 2) for k, v in decode.items()},
        "overhead_ms_outside_runtime": {k: round(statistics.median(v), 2) for k, v in overhead_ms.items()},
        "shared_prefix": {
            "prompt_tokens": first.usage.prompt_tokens,
            "first": {"ttft_s": round(first.latency, 3), "prompt_ms": first.meta["prompt_ms"],
                      "cached_tokens": first.meta["cached_tokens"]},
            "second": {"ttft_s": round(second.latency, 3), "prompt_ms": second.meta["prompt_ms"],
                       "cached_tokens": second.meta["cached_tokens"]},
            "ttft_speedup": round(first.latency / max(second.latency, 1e-9), 2),
        },
    }
    print(json.dumps(report, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
