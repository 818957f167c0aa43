"""A real OpenAI-compatible HTTP server on loopback, for the conformance tests.

llama.cpp's server, as packaged by xllamacpp: constructing ``xllamacpp.Server``
starts its HTTP listener (``/v1/chat/completions``, ``/v1/models``…) on the
given host/port. Run as a subprocess so a test can stop it (server-down case)
and so its threads never share the test process:

    python tests/llm/loopback_server.py MODEL.gguf ALIAS

It prints ``READY <url>`` once listening and exits when stdin closes.
"""

from __future__ import annotations

import os
import sys


def main() -> int:
    model, alias = sys.argv[1], sys.argv[2]
    import xllamacpp

    params = xllamacpp.CommonParams()
    params.model.path = model
    params.model_alias = {alias}  # a set of names in this runtime version
    params.n_ctx = 2048
    params.cpuparams.n_threads = 1  # leave the other core to the test process
    params.cpuparams_batch.n_threads = 1
    params.hostnames = ["127.0.0.1"]
    params.port = 0  # the OS picks a free port; we report it
    params.warmup = False
    if not os.environ.get("RAGIX_LLM_VERBOSE"):
        params.verbosity = -1
    server = xllamacpp.Server(params)
    print(f"READY {server.listening_address}", flush=True)
    sys.stdin.read()  # block until the parent closes our stdin (or dies)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
