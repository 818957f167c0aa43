"""What stopping a looping command reply saves: the greedy reply with and without ``until``, in one run.

    python benchmarks/runaway_stop.py [--case SPEC=ID ...] [--model NAME_OR_GGUF] [--threads N] [--profile dev]

A small model sometimes loops inside its code block (`… | grep -v a | grep -v b | …`) until the
reply's token cap; the executor refuses a pipeline of more than MAX_STAGES stages whatever follows, so
ragix stops generating once the command has one stage too many (llm/runaway.py). For each case (an
unseen-set scenario whose greedy reply looped at 6326e22, by default), the engine's own request for a
command (its working copy set up as ``ragix eval`` sets it up) is asked greedily twice: "whole" (the
reference: stopped at the closing fence only) and "stopped" (the shipped request, with ``until``),
alternating which goes first, after a one-token warm-up that puts the prompt in the cache. Per case:
completion tokens, seconds spent generating, the command's stages and whether the executor refuses it and why. Both commands must be refused alike for the saving to be free.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from ragix_core.config.reasoning import VotingSection  # noqa: E402
from ragix_core.eval.benchmarks.registry import benchmark_scenarios  # noqa: E402
from ragix_core.eval.workspace import working_copy  # noqa: E402
from ragix_core.llm.codeblock import CLOSING_FENCE, first_block_command  # noqa: E402
from ragix_core.llm.config import LLMConfig  # noqa: E402
from ragix_core.llm.roles import Roles  # noqa: E402
from ragix_core.llm.runaway import past_stage_limit  # noqa: E402
from ragix_core.llm.structured import ask_text  # noqa: E402
from ragix_core.llm.command_prompt import COMMAND_MAX_TOKENS  # noqa: E402
from ragix_core.reasoning_v30.agent_fns import AgentFunctions  # noqa: E402
from ragix_core.tools import ToolBox  # noqa: E402
from ragix_core.tools.lexer import split_pipeline  # noqa: E402
from ragix_core.tools.refusal import Refusal  # noqa: E402

# The greedy replies that looped to the 200-token cap at 6326e22 (benchmarks/results/issue34, reruns).
CASES = ("bench:paraphrase:20=para-subpackages-1", "bench:agentbench=agentbench-os-test-46",
         "bench:nl2bash=nl2bash-fs_1-141", "bench:nl2bash=nl2bash-fs_1-4")
VARIANTS = ("whole", "stopped")


def _refusal(command: str) -> str:
    try:
        split_pipeline(command)
    except Refusal as exc:
        return str(exc)
    return ""


def _ask(worker, prompt: str, variant: str):
    """The reply, and the seconds spent generating it (the model's own timing when it gives one: the
    prompt, served from the cache after the warm-up, is not what the stop saves)."""
    until = past_stage_limit if variant == "stopped" else None
    start = time.monotonic()
    reply = ask_text(worker, [{"role": "user", "content": prompt}], max_tokens=COMMAND_MAX_TOKENS,
                     stop=[CLOSING_FENCE], until=until)
    generating = reply.meta.get("predicted_ms")
    return reply, generating / 1000 if generating is not None else time.monotonic() - start


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--case", action="append", default=[], help="SPEC=ID, e.g. bench:nl2bash=nl2bash-fs_1-4 "
                                                                 "(repeatable; default: the four that looped)")
    ap.add_argument("--model", default=None, help="model name or GGUF path (default: the embedded default)")
    ap.add_argument("--threads", type=int, default=None, help="llama.cpp threads (default: every core)")
    ap.add_argument("--profile", default="dev", help="tool profile whose tools the request names (default dev, "
                                                     "as `ragix eval --yes`)")
    args = ap.parse_args()
    cfg = LLMConfig()
    if args.model:
        cfg.default.model = args.model
    if args.threads:
        cfg.default.threads = args.threads
    cfg.default.timeout = 900  # a loaded machine's 200-token reply can take minutes
    worker = Roles(cfg).get("worker")
    totals = {v: {"tokens": 0, "seconds": 0.0} for v in VARIANTS}
    alike = 0
    cases = args.case or list(CASES)
    for n, case in enumerate(cases):
        spec, _, wanted = case.partition("=")
        found = [s for s in benchmark_scenarios(spec) if s.id == wanted]
        if not found:
            print(f"{case}: no such scenario", file=sys.stderr)
            return 2
        scenario = found[0]
        source = None if scenario.empty_workdir else scenario.cwd
        with working_copy(source) as work:
            if scenario.setup is not None:
                scenario.setup(work)
            box = ToolBox(work, profile=args.profile, home_is_root=scenario.home_is_workdir)
            agent = AgentFunctions(planner=worker, worker=worker, verifier=worker, toolbox=box,
                                   voting=VotingSection())
            prompt = agent.command_prompt(scenario.input)
            ask_text(worker, [{"role": "user", "content": prompt}], max_tokens=1)  # warm-up: the prompt cached
            order = VARIANTS if n % 2 == 0 else VARIANTS[::-1]
            seen = {}
            for variant in order:
                reply, seconds = _ask(worker, prompt, variant)
                command = first_block_command(reply.text) or ""
                seen[variant] = (reply.usage.completion_tokens, seconds, command, _refusal(command))
                totals[variant]["tokens"] += reply.usage.completion_tokens
                totals[variant]["seconds"] += seconds
        same = seen["whole"][3] == seen["stopped"][3]
        alike += same
        print(f"{scenario.id}:")
        for variant in VARIANTS:
            tokens, seconds, command, refusal = seen[variant]
            stages = command.count("|") + 1 if command else 0
            print(f"  {variant:8s} {tokens:4d} tokens {seconds:6.1f} s  ~{stages} stages  "
                  f"{'refused: ' + refusal if refusal else 'runs'}  | {command[:90]}")
        print(f"  refused alike: {'yes' if same else 'NO'}")
    print(f"\n{len(cases)} cases, refused alike in {alike}")
    for variant in VARIANTS:
        t = totals[variant]
        print(f"  {variant:8s} {t['tokens']:5d} completion tokens  {t['seconds']:7.1f} s generating")
    whole, stopped = totals["whole"], totals["stopped"]
    if whole["tokens"]:
        print(f"  stopped/whole: tokens {stopped['tokens'] / whole['tokens']:.2f}, "
              f"seconds {stopped['seconds'] / max(whole['seconds'], 1e-9):.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
