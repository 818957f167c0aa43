"""Time to first token per node: prompts ordered fixed → per-run → per-call, against the old order.

    python benchmarks/prompt_cache.py [--goals 4] [--model NAME_OR_GGUF] [--threads N]

Each variant runs in its own process (a cold model and prompt cache), through the engine's
own node functions (AgentFunctions) with the real tool box on a copy of the mock repository:
per goal CLASSIFY, two command draws, the answer, PLAN, REFLECT (on a failed command) and
VERIFY. The "before" variant uses the templates as they were before the reordering
(benchmarks/prompt_order_before/, through RAGIX_PROMPTS_DIR); "after" the shipped ones.
Printed per node: median prompt-processing milliseconds (the time before the first token),
and the share of prompt tokens served from llama.cpp's cache.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any, Dict, List

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

ROOT = Path(__file__).resolve().parent.parent
BEFORE = ROOT / "benchmarks" / "prompt_order_before"
GOALS = [
    "How many lines does README.md have?",
    "Find all files containing 'def execute'",
    "Which port is configured in config/settings.yaml?",
    "Find the largest markdown file by line count",
    "List the Python files in src/inventory",
    "Who is the maintainer named in the README?",
]


class Recorder:
    """Wraps the model client: records each call's node, prompt tokens, cached tokens, prompt ms."""

    def __init__(self, inner: Any):
        self.inner, self.node, self.rows = inner, "?", []
        self.backend, self.model = inner.backend, inner.model

    def complete(self, messages, **kw):
        out = self.inner.complete(messages, **kw)
        self.rows.append({"node": self.node, "prompt_tokens": out.usage.prompt_tokens,
                          "cached": int(out.meta.get("cached_tokens") or 0), "prompt_ms": out.meta.get("prompt_ms")})
        return out


def run_variant(n_goals: int, model: str | None, threads: int | None = None) -> List[Dict[str, Any]]:
    from ragix_core.config.reasoning import VotingSection
    from ragix_core.core.types import PlanStep, ReasoningState, StepStatus, TaskComplexity, ToolCall
    from ragix_core.llm.factory import make_client
    from ragix_core.reasoning_v30.agent_fns import AgentFunctions
    from ragix_core.tools import ToolBox

    settings: Dict[str, Any] = {"backend": "embedded"}
    if model:
        settings["model"] = model
    if threads:
        settings["threads"] = threads
    rec = Recorder(make_client(settings))
    work = Path(tempfile.mkdtemp(prefix="ragix-bench-cache-"))
    shutil.copytree(ROOT / "tests" / "reasoning_v30" / "fixtures" / "mock_repo", work / "p")
    try:
        box = ToolBox(work / "p", profile="reflect")
        for goal in GOALS[:n_goals]:
            f = AgentFunctions(planner=rec, worker=rec, verifier=rec, toolbox=box,
                               voting=VotingSection(samples=1, quorum=3, seed=7))
            rec.node = "CLASSIFY"
            f.classify(goal)
            f.last_complexity = TaskComplexity.SIMPLE
            steps = []
            for draw in range(2):
                rec.node = "COMMAND"
                step = PlanStep(draw + 1, goal, ToolCall("shell", {"command": f._ask_command(
                    f.command_prompt(goal), "", draw, draw > 0)}))
                f._run(step)
                steps.append(step)
            rec.node = "ANSWER"
            f.compose_for(goal, [s for s in steps if s.status == StepStatus.SUCCESS] or steps)
            f.last_complexity = TaskComplexity.MODERATE
            rec.node = "PLAN"
            f.generate_plan(goal, "")
            failed = PlanStep(1, "read the manual", ToolCall("shell", {"command": "cat docs/manual.md"}))
            f._run(failed)
            rec.node = "REFLECT"
            f.reflect({"goal": goal, "failed_step_num": 1, "failed_step_description": failed.description,
                       "error": failed.result.stderr, "file_context": f.file_context(),
                       "experience_context": "", "previous_attempts": []})
            state = ReasoningState(goal=goal, session_id="bench")
            state.executed_steps = [s for s in steps if s.status == StepStatus.SUCCESS]
            state.final_answer = "see the output"
            rec.node = "VERIFY"
            if state.executed_steps:
                f.verify(state)
        return rec.rows
    finally:
        shutil.rmtree(work, ignore_errors=True)


def summarize(rows: List[Dict[str, Any]]) -> Dict[str, Any]:
    out: Dict[str, Any] = {}
    for node in dict.fromkeys(r["node"] for r in rows):
        mine = [r for r in rows if r["node"] == node]
        ms = [r["prompt_ms"] for r in mine if r["prompt_ms"] is not None]
        tokens = sum(r["prompt_tokens"] for r in mine)
        out[node] = {"calls": len(mine), "median_prompt_ms": round(statistics.median(ms)) if ms else None,
                     "cached_share": round(sum(r["cached"] for r in mine) / tokens, 3) if tokens else None,
                     "prompt_tokens": tokens}
    ms_all = [r["prompt_ms"] for r in rows if r["prompt_ms"] is not None]
    out["ALL"] = {"calls": len(rows), "total_prompt_s": round(sum(ms_all) / 1000, 1),
                  "cached_share": round(sum(r["cached"] for r in rows) / max(1, sum(r["prompt_tokens"] for r in rows)), 3)}
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--goals", type=int, default=4)
    ap.add_argument("--model", default=None)
    ap.add_argument("--threads", type=int, default=None, help="llama.cpp threads (default: every core we may use)")
    ap.add_argument("--variant", choices=["before", "after"], help=argparse.SUPPRESS)  # child process
    args = ap.parse_args()
    if args.variant:
        print(json.dumps(run_variant(args.goals, args.model, args.threads)))
        return 0
    report = {}
    for variant in ("before", "after"):
        env = dict(os.environ)
        env.pop("RAGIX_PROMPTS_DIR", None)
        if variant == "before":
            env["RAGIX_PROMPTS_DIR"] = str(BEFORE)
        cmd = [sys.executable, __file__, "--variant", variant, "--goals", str(args.goals)]
        if args.model:
            cmd += ["--model", args.model]
        if args.threads:
            cmd += ["--threads", str(args.threads)]
        print(f"running {variant} ...", file=sys.stderr, flush=True)
        done = subprocess.run(cmd, env=env, capture_output=True, text=True, check=True)
        report[variant] = summarize(json.loads(done.stdout.strip().splitlines()[-1]))
    print(json.dumps({"benchmark": "prompt_cache", "goals": args.goals, "threads": args.threads, **report}, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
