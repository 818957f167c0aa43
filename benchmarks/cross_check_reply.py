"""What a cross-check draw costs and gives: the shipped request against the one before, in one run.

    python benchmarks/cross_check_reply.py [--draws 2] [--only GLOB] [--model NAME_OR_GGUF]

The main path puts a greedy command's short output (a count, a name) to commands drawn at a temperature
and asked to compute it another way (prompts/command_followup.md, ``cross_check``). Generated tokens are
what a run's wall time goes to on a CPU, and a draw that writes the same pipe again confirms nothing.
For every tool goal of the shipped scenario sets whose greedy command (the engine's own request) ran and
printed at most CONFIRM_LINES lines, ``--draws`` sampled cross-check replies are asked with each
request: "before" (benchmarks/cross_check_before/, through RAGIX_PROMPTS_DIR) and "after" (the shipped
one), alternating which goes first, same seeds. Per request: draws, completion tokens a draw (mean,
median), seconds a draw, draws with no command, draws that repeat the greedy pipe, draws whose command
printed the greedy output (a confirmation) or another output (a dispute).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from ragix_core import prompts  # noqa: E402
from ragix_core.config.reasoning import VotingSection  # noqa: E402
from ragix_core.core.stop import StopRun  # noqa: E402
from ragix_core.reasoning_v30.agent_fns import AgentFunctions  # noqa: E402
from ragix_core.reasoning_v30.attempt import CONFIRM_LINES, GREEDY, SAMPLED  # noqa: E402
from ragix_core.tools import ToolBox  # noqa: E402

from command_format import tool_goals_and_roles  # noqa: E402  (benchmarks/, beside this file)

ROOT = Path(__file__).resolve().parent.parent
BEFORE = ROOT / "benchmarks" / "cross_check_before"
REQUESTS = ("before", "after")


def _same(command: str) -> str:
    return " ".join(command.split())


def _output(box: ToolBox, command: str):
    result = box.run_command(command)
    text = (result.stdout or "").strip()
    return result.ok and bool(text), text


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--draws", type=int, default=2, help="cross-check replies per goal and request (default 2)")
    ap.add_argument("--only", action="append", default=[], help="scenario id glob (repeatable)")
    ap.add_argument("--model", default=None, help="model name or GGUF path (default: the embedded default)")
    ap.add_argument("--seed", type=int, default=1, help="draw i is sampled with seed + i (default 1)")
    args = ap.parse_args()
    scenarios, roles = tool_goals_and_roles(args.only, args.model)
    worker = roles.get("worker")
    rows = {r: {"draws": 0, "tokens": [], "seconds": 0.0, "no_command": 0, "repeats": 0, "confirms": 0,
                "disputes": 0} for r in REQUESTS}
    per_goal = []
    checked = 0
    for n, s in enumerate(scenarios):
        work = Path(tempfile.mkdtemp(prefix="ragix-bench-xc-"))
        try:
            shutil.copytree(s.cwd, work / "p")
            box = ToolBox(work / "p", profile="reflect")
            agent = AgentFunctions(planner=worker, worker=worker, verifier=worker, toolbox=box,
                                   voting=VotingSection(seed=args.seed))
            prompt = agent.command_prompt(s.input)
            try:
                greedy = agent._ask_command(prompt, "", 0, GREEDY)
            except StopRun:
                continue
            ok, printed = _output(box, greedy)
            if not ok or len(printed.splitlines()) > CONFIRM_LINES:
                print(f"skip {s.id:<28} {'long output' if ok else 'greedy failed'}: {greedy}", file=sys.stderr)
                continue
            checked += 1
            line = {"id": s.id, "greedy": greedy, "printed": printed}
            for request in (REQUESTS if n % 2 == 0 else REQUESTS[::-1]):
                if request == "before":
                    os.environ[prompts.OVERRIDE_ENV] = str(BEFORE)
                else:
                    os.environ.pop(prompts.OVERRIDE_ENV, None)
                feedback = "\n\n" + prompts.section("command_followup", "cross_check", tried=f"`{greedy}`")
                row, drawn = rows[request], []
                for i in range(1, args.draws + 1):
                    before = roles.summary()["completion_tokens"]
                    start = time.perf_counter()
                    try:
                        command = agent._ask_command(prompt, feedback, i, SAMPLED)
                    except StopRun:
                        command = ""
                    row["seconds"] += time.perf_counter() - start
                    row["tokens"].append(roles.summary()["completion_tokens"] - before)
                    row["draws"] += 1
                    verdict = "no command"
                    if not command:
                        row["no_command"] += 1
                    elif _same(command) == _same(greedy):
                        row["repeats"] += 1
                        verdict = "repeat"
                    else:
                        ran, text = _output(box, command)
                        verdict = "confirms" if ran and text == printed else "disputes" if ran else "failed"
                        row["confirms"] += verdict == "confirms"
                        row["disputes"] += verdict == "disputes"
                    drawn.append({"command": command, "tokens": row["tokens"][-1], "verdict": verdict})
                    print(f"{request:>6} {s.id:<28} {row['tokens'][-1]:>4} tok {verdict:<10} {command}",
                          file=sys.stderr, flush=True)
                line[request] = drawn
            per_goal.append(line)
        finally:
            os.environ.pop(prompts.OVERRIDE_ENV, None)
            shutil.rmtree(work, ignore_errors=True)
    report = {}
    for request, row in rows.items():
        n = max(row["draws"], 1)
        report[request] = {"draws": row["draws"], "tokens_per_draw_mean": round(sum(row["tokens"]) / n, 1),
                           "tokens_per_draw_median": statistics.median(row["tokens"]) if row["tokens"] else 0,
                           "s_per_draw": round(row["seconds"] / n, 2), "no_command": row["no_command"],
                           "repeats": row["repeats"], "confirms": row["confirms"], "disputes": row["disputes"]}
    print(json.dumps({"benchmark": "cross_check_reply", "goals_checked": checked, "requests": report,
                      "per_goal": per_goal}, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
