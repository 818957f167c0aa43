"""Which reply format gives the worker's one command more often right: JSON or a code block?

    python benchmarks/command_format.py [--model NAME_OR_GGUF] [--only GLOB]

For every tool goal of the shipped scenario sets (those with expected patterns), one greedy
command is asked twice: as the schema-constrained JSON reply of ``s0_json`` (prompts/s0_command.md)
and as the main path's free answer whose first code block is taken (prompts/command.md,
llm/codeblock.py, AgentFunctions._ask_command with the engine's listing). Each command runs in the confined tool box over a fresh copy of the
scenario's fixture. Per format, in the same run: commands obtained, commands that ran
without error, commands whose output holds every expected pattern (the eval's own
matcher: whole numbers, forbidden patterns), tokens and seconds per call.
The output test is a proxy: it checks the command's output, not a written answer.
"""

from __future__ import annotations

import argparse
import fnmatch
import json
import shutil
import sys
import tempfile
import time
from pathlib import Path
from typing import List, Optional, Tuple

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from ragix_core import prompts  # noqa: E402
from ragix_core.baseline_s0 import S0Command  # noqa: E402
from ragix_core.config.reasoning import VotingSection  # noqa: E402
from ragix_core.core.stop import StopRun  # noqa: E402
from ragix_core.eval.matching import find_patterns  # noqa: E402
from ragix_core.eval.suite import load_sources  # noqa: E402
from ragix_core.llm.config import LLMConfig  # noqa: E402
from ragix_core.llm.roles import Roles  # noqa: E402
from ragix_core.llm.structured import ask_json  # noqa: E402
from ragix_core.reasoning_v30.agent_fns import AgentFunctions  # noqa: E402
from ragix_core.tools import ToolBox  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
SETS = ["file_search", "code_analysis", "learning_warmup", "learning_transfer"]
FORMATS = ("json", "text")


def ask(fmt: str, agent: AgentFunctions, goal: str) -> str:
    if fmt == "text":
        return agent._ask_command(agent.command_prompt(goal), "", 0, False)
    system = prompts.render("s0_command", tools=", ".join(agent.tools))
    reply, _ = ask_json(agent.worker, [{"role": "system", "content": system}, {"role": "user", "content": goal}],
                        S0Command, stop_reason="command_generation_failed", max_tokens=160)
    return reply.command


def judge(output: str, scenario) -> bool:
    _, missing = find_patterns(output, scenario.expected_patterns)
    bad, _ = find_patterns(output, getattr(scenario, "forbidden_patterns", []) or [])
    return not missing and not bad


def tool_goals_and_roles(only: List[str], model: Optional[str]) -> Tuple[list, Roles]:
    """The shipped sets' tool goals (with expected patterns and a fixture; ``only``: id globs) and the model roles."""
    files = [str(ROOT / "tests" / "reasoning_v30" / "scenarios" / f"{name}.yaml") for name in SETS]
    scenarios = [s for s in load_sources(files) if s.expected_patterns and s.cwd is not None
                 and (not only or any(fnmatch.fnmatchcase(s.id, p) for p in only))]
    cfg = LLMConfig()
    if model:
        cfg.default.model = model
    return scenarios, Roles(cfg)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--model", default=None, help="model name or GGUF path (default: the embedded default)")
    ap.add_argument("--only", action="append", default=[], help="scenario id glob (repeatable)")
    args = ap.parse_args()
    scenarios, roles = tool_goals_and_roles(args.only, args.model)
    worker = roles.get("worker")
    rows = {f: {"goals": 0, "command": 0, "ran_ok": 0, "output_right": 0, "seconds": 0.0, "tokens": 0}
            for f in FORMATS}
    per_goal = []
    for s in scenarios:
        work = Path(tempfile.mkdtemp(prefix="ragix-bench-fmt-"))
        try:
            shutil.copytree(s.cwd, work / "p")
            box = ToolBox(work / "p", profile="reflect")
            line = {"id": s.id}
            for fmt in FORMATS:
                agent = AgentFunctions(planner=worker, worker=worker, verifier=worker, toolbox=box,
                                       voting=VotingSection(samples=0, retries=0))
                row = rows[fmt]
                row["goals"] += 1
                before = roles.summary()
                start = time.perf_counter()
                try:
                    command = ask(fmt, agent, s.input)
                except StopRun:
                    command = ""
                row["seconds"] += time.perf_counter() - start
                after = roles.summary()
                row["tokens"] += (after["prompt_tokens"] + after["completion_tokens"]
                                  - before["prompt_tokens"] - before["completion_tokens"])
                ok = right = False
                if command:
                    row["command"] += 1
                    result = box.run_command(command)
                    ok = result.ok
                    right = ok and judge(result.stdout or ("(no matches)" if result.no_match else ""), s)
                row["ran_ok"] += ok
                row["output_right"] += right
                line[fmt] = {"command": command, "ok": ok, "right": right}
                print(f"{fmt:>4} {s.id:<28} {'RIGHT' if right else 'ok' if ok else 'FAIL':<5} {command}",
                      file=sys.stderr, flush=True)
            per_goal.append(line)
        finally:
            shutil.rmtree(work, ignore_errors=True)
    report = {}
    for fmt, row in rows.items():
        n = max(row["goals"], 1)
        report[fmt] = {"goals": row["goals"], "command_rate": round(row["command"] / n, 3),
                       "ran_ok_rate": round(row["ran_ok"] / n, 3), "output_right_rate": round(row["output_right"] / n, 3),
                       "s_per_call": round(row["seconds"] / n, 2), "tokens_per_call": round(row["tokens"] / n, 1)}
    print(json.dumps({"benchmark": "command_format", "formats": report, "per_goal": per_goal}, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
