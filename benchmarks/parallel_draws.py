"""Do a vote's sampled draws get cheaper when llama.cpp decodes them together? One run, both ways.

    python benchmarks/parallel_draws.py [--draws 3] [--rounds 3] [--threads N] [--model NAME_OR_GGUF]

The main path draws its samples one after another (reasoning_v30/attempt.py). llama.cpp's server core can
decode several requests in one batch, one per slot (``n_parallel``): on a GPU, or a CPU whose decoding is
bound by memory bandwidth, k replies in one batch cost little more than one. This measures it on this
machine, with a command request built as the engine builds it for a read-only profile (llm/command_prompt.py:
the read tools, the commands made for the model, this repository's listing):

- "sequential": ``--draws`` sampled replies one after another (what ships);
- "concurrent": the same number of draws sent at once from threads, which llama.cpp decodes in one batch.

Both ways use one runtime with one slot per draw (each slot keeps a full ``n_ctx``; two runtimes in one
process stalled here), warmed with the round's prompt in every slot so the shared prefix is cached; rounds
alternate which way goes first, so drift on a shared machine hits both. Printed per round and
as medians: wall seconds for all draws, completion tokens, tokens a second. Replies are sampled
(temperature 0.7, seeds differ per draw), so the two ways generate similar, not equal, numbers of tokens.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from ragix_core.evidence.path_hints import project_listing  # noqa: E402
from ragix_core.llm.codeblock import CLOSING_FENCE  # noqa: E402
from ragix_core.llm.command_prompt import COMMAND_MAX_TOKENS, command_request  # noqa: E402
from ragix_core.llm.embedded import EmbeddedClient  # noqa: E402
from ragix_core.tools.model_commands import describe  # noqa: E402
from ragix_core.tools.policy import READ_TOOLS  # noqa: E402

GOALS = ("Which Python file under ragix_core/llm has the most lines?",
         "How many markdown files are in the docs directory?",
         "Which modules import ragix_core.prompts?")


def draw(client: EmbeddedClient, prompt: str, seed: int):
    return client.complete([{"role": "user", "content": prompt}], max_tokens=COMMAND_MAX_TOKENS,
                           temperature=0.7, seed=seed, stop=[CLOSING_FENCE])


def sequential(client: EmbeddedClient, prompt: str, seeds) -> tuple:
    start = time.monotonic()
    replies = [draw(client, prompt, s) for s in seeds]
    return time.monotonic() - start, sum(r.usage.completion_tokens for r in replies)


def concurrent(client: EmbeddedClient, prompt: str, seeds) -> tuple:
    replies = [None] * len(seeds)
    errors = []

    def one(i: int) -> None:
        try:
            replies[i] = draw(client, prompt, seeds[i])
        except Exception as exc:  # reported below: a failed draw must not pass for a fast one
            errors.append(exc)

    workers = [threading.Thread(target=one, args=(i,)) for i in range(len(seeds))]
    start = time.monotonic()
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    if errors:
        raise SystemExit(f"parallel_draws: a concurrent draw failed: {errors[0]}")
    return time.monotonic() - start, sum(r.usage.completion_tokens for r in replies)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--draws", type=int, default=3, help="sampled draws per round (a vote's samples: 3)")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--threads", type=int, default=None, help="llama.cpp threads (default: every core we may use)")
    ap.add_argument("--model", default=None)
    ap.add_argument("--n-ctx", type=int, default=4096, help="context of each slot")
    args = ap.parse_args(argv)
    if args.draws < 2 or args.rounds < 1:
        ap.error("--draws must be at least 2 and --rounds at least 1")
    root = Path(__file__).resolve().parent.parent
    listing = project_listing(root, 3000)
    client = EmbeddedClient(args.model, n_ctx=args.n_ctx * args.draws, threads=args.threads, slots=args.draws)
    print(f"model {client.path}, threads {client.threads}, {args.draws} draws a round, {args.rounds} rounds",
          flush=True)
    client.load()
    rows = {"sequential": [], "concurrent": []}
    for r in range(args.rounds):
        prompt = command_request(GOALS[r % len(GOALS)], READ_TOOLS, listing, describe(list(READ_TOOLS)))
        concurrent(client, prompt, [10_000 + i for i in range(args.draws)])  # the prefix into every slot, untimed
        seeds = [100 * r + i for i in range(args.draws)]
        ways = [("sequential", lambda: sequential(client, prompt, seeds)),
                ("concurrent", lambda: concurrent(client, prompt, seeds))]
        for name, run in (ways if r % 2 == 0 else ways[::-1]):
            wall, tokens = run()
            rows[name].append((wall, tokens))
            print(f"round {r + 1} {name:10} {wall:6.1f} s  {tokens:4d} tokens  {tokens / wall:5.1f} tokens/s", flush=True)
    print("median over rounds:")
    for name, got in rows.items():
        wall = statistics.median(w for w, _ in got)
        rate = statistics.median(t / w for w, t in got)
        print(f"  {name:10} {wall:6.1f} s for {args.draws} draws, {rate:5.1f} tokens/s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
