"""How far can choosing among the model's own commands go? Greedy, best-of-k and an output vote, per task.

    python benchmarks/sample_ceiling.py bench:nl2bash [--k 8] [--only ID ...] [--seed 1] \
        [--config ragix.yaml] [--json R] [--engine-report R.json]

For every scenario of a set, the main path's own request (the worker's free-text prompt,
reasoning_v30/direct.py ``command_prompt``) is asked once greedily and ``k`` times at
``voting.temperature`` (draw i seeded ``seed + i``, as the engine numbers its draws). Each distinct
command runs on a fresh working copy through the engine's own runner (its refusals and the mends it
runs at once: a `find -exec` as xargs, a close file name), and the set's checker judges that one
command alone: its output, taken as the answer too, or the tree it left. Per set, in the same run:

- ``greedy``: the greedy command's output passes (the plain call's command, without its answer);
- ``best_of_k``: some draw's output passes (a failed command's too: a reader could take it). No way of
  choosing among these commands can pass more: it is the ceiling of sampling with execution-based selection
  (MBR-exec, CodeT) at this k;
- ``vote``: the output most draws printed passes (failed and empty draws never win; ties go to the
  greedy command's output, then the earliest): MBR-exec's own choice, at k + 1 model calls per task.

With ``--engine-report`` the engine's and ``s0``'s verdicts from an eval report are printed beside
(the report should come from the same commit and config). No answer is written here: a task that needs
the answer to restate or compute what the output shows reads lower than in an eval.
"""

from __future__ import annotations

import argparse
import fnmatch
import json
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any, Dict, List, Optional, Tuple

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from ragix_core.config import ConfigError, load_config  # noqa: E402
from ragix_core.core.registry import get_engine  # noqa: E402
from ragix_core.core.stop import StopRun  # noqa: E402
from ragix_core.core.types import StepStatus  # noqa: E402
from ragix_core.eval.benchmarks.nl2bash_tree import snapshot  # noqa: E402
from ragix_core.eval.evaluate import _judge_answer  # noqa: E402
from ragix_core.eval.harness import _configured  # noqa: E402
from ragix_core.eval.metrics import wilson  # noqa: E402
from ragix_core.eval.suite import load_sources  # noqa: E402
from ragix_core.eval.workspace import working_copy  # noqa: E402
from ragix_core.evidence.steps import found_nothing  # noqa: E402
from ragix_core.profiles import get_profile  # noqa: E402
from ragix_core.reasoning_v30.agent_fns import AgentFunctions  # noqa: E402
from ragix_core.reasoning_v30.attempt import GREEDY, SAMPLED, AttemptOutcome, CommandAttempt  # noqa: E402
from ragix_core.reasoning_v30.step_kinds import draw_output, output_key, same_command  # noqa: E402
from ragix_core.runtime.context import RunContext  # noqa: E402

ENGINE = "graph_v30"


class Agent:
    """One working copy of a scenario and the engine's node functions over it."""

    def __init__(self, scenario: Any, config: Any, seed: int, client_factory: Any = None):
        self.scenario, self.config, self.seed, self.client_factory = scenario, config, seed, client_factory

    def __enter__(self) -> Tuple[AgentFunctions, Path, RunContext]:
        source = None if self.scenario.empty_workdir else self.scenario.cwd
        self._copy = working_copy(source, prefix="ragix-ceiling-")
        work = self._copy.__enter__()
        if self.scenario.setup is not None:
            self.scenario.setup(work)
        config = _configured(self.scenario, self.config, work)
        self.ctx = RunContext.open(cwd=work, config=config, profile=get_profile(config.profile),
                                   engine=get_engine(ENGINE), assume_yes=True, seed=self.seed,
                                   client_factory=self.client_factory)
        return AgentFunctions.from_context(self.ctx, with_experience=False), work, self.ctx

    def __exit__(self, *exc: Any) -> None:
        try:
            self.ctx.close()
        finally:
            self._copy.__exit__(*exc)


def draw_commands(scenario: Any, config: Any, seed: int, k: int,
                  client_factory: Any = None) -> Tuple[List[Optional[str]], Dict[str, int]]:
    """The greedy command and k sampled ones (None where a reply held no command), and the tokens they took."""
    with Agent(scenario, config, seed, client_factory) as (agent, _work, ctx):
        prompt = agent.command_prompt(scenario.input)
        commands: List[Optional[str]] = []
        for i in range(k + 1):
            try:
                commands.append(agent._ask_command(prompt, "", i, GREEDY if i == 0 else SAMPLED))
            except StopRun:
                commands.append(None)
        return commands, ctx.usage()


def run_command(scenario: Any, config: Any, seed: int, command: str, client_factory: Any = None) -> Dict[str, Any]:
    """Run one command on a fresh copy as the engine runs a draw (attempt.py's own step, with the mend it runs
    at once); the checker's verdict on it alone."""
    with Agent(scenario, config, seed, client_factory) as (agent, work, _ctx):
        runner = CommandAttempt(lambda *_: "", lambda step, final=False: agent._run_written(step, scenario.input, final),
                                lambda _step: "")
        out = AttemptOutcome()
        last = runner._run(command, scenario.input, 1, out)
        outputs = [str(s.result.stdout) for s in out.steps if s.result is not None and s.result.stdout]
        # The output stands for the answer too: a set judged on the answer's words reads what the command printed.
        failures, _, _, detail = _judge_answer(scenario, "\n".join(outputs), work, outputs)
        # A write that left the tree as it was found nothing (tools/tree_state.py); one that changed it is
        # voted by the tree it left, compared by content across working copies.
        worked = last.status == StepStatus.SUCCESS and not found_nothing(last)
        tree = repr(sorted(snapshot(work).items())) if worked and last.result.changed else ""
        return {"command": command, "ran": str(last.tool_call.args.get("command")), "worked": worked,
                "key": f"{output_key(last)}\0{tree}" if worked else None, "passed": not failures,
                "detail": detail, "output": draw_output(last)}


def vote(draws: List[Optional[Dict[str, Any]]]) -> Optional[Dict[str, Any]]:
    """MBR-exec's pick: the output most draws printed; ties to the greedy draw's, then the earliest."""
    keys = [d["key"] for d in draws if d is not None and d["key"] is not None]
    if not keys:
        return None
    counts = Counter(keys)
    top = max(counts.values())
    for d in draws:  # draws are in order, greedy first
        if d is not None and d["key"] is not None and counts[d["key"]] == top:
            return d
    return None


def one_task(scenario: Any, config: Any, seed: int, k: int, client_factory: Any = None) -> Dict[str, Any]:
    """Draw, run and judge one scenario's commands (``client_factory``: a scripted model, in tests)."""
    start = time.perf_counter()
    commands, usage = draw_commands(scenario, config, seed, k, client_factory)
    ran: Dict[str, Dict[str, Any]] = {}
    draws: List[Optional[Dict[str, Any]]] = []
    for c in commands:
        if c is None:
            draws.append(None)
            continue
        key = same_command(c)
        if key not in ran:
            ran[key] = run_command(scenario, config, seed, c, client_factory)
        draws.append(ran[key])
    picked = vote(draws)
    greedy = draws[0]
    return {"id": scenario.id, "greedy": bool(greedy and greedy["passed"]),
            "best_of_k": any(d is not None and d["passed"] for d in draws),
            "vote": bool(picked and picked["passed"]),
            "distinct_commands": len(ran), "passing_draws": sum(1 for d in draws if d is not None and d["passed"]),
            "tokens": usage.get("prompt_tokens", 0) - usage.get("cached_prompt_tokens", 0)
            + usage.get("completion_tokens", 0),
            "seconds": round(time.perf_counter() - start, 1),
            "draws": [None if d is None else {f: d[f] for f in ("command", "ran", "worked", "passed", "detail", "output")}
                      for d in draws]}


def broken_task(scenario: Any, error: Exception) -> Dict[str, Any]:
    """A task whose set-up or run broke: it passes no column, and the report says why."""
    return {"id": scenario.id, "greedy": False, "best_of_k": False, "vote": False, "distinct_commands": 0,
            "passing_draws": 0, "tokens": 0, "seconds": 0.0, "draws": [],
            "error": f"{type(error).__name__}: {error}"}


def run_tasks(scenarios: List[Any], config: Any, seed: int, k: int, verdicts: Dict[str, Dict[str, bool]],
              client_factory: Any = None) -> List[Dict[str, Any]]:
    """Every task in order, a progress line each on stderr; a task that broke is counted failing, with why."""
    rows = []
    for i, s in enumerate(scenarios, 1):
        try:
            row = one_task(s, config, seed, k, client_factory)
        except KeyboardInterrupt:
            raise
        except Exception as exc:  # one broken task (a set-up script that failed) must not hide the others
            row = broken_task(s, exc)
            print(f"[{i}/{len(scenarios)}] {s.id}: broken, counted as failing: {row['error']}", file=sys.stderr)
            rows.append(row)
            continue
        rows.append(row)
        seen = verdicts.get(s.id, {})
        beside = f" engine={seen.get(ENGINE)} s0={seen.get('s0')}" if seen else ""
        print(f"[{i}/{len(scenarios)}] {s.id}: greedy={row['greedy']} best_of_{k + 1}={row['best_of_k']} "
              f"vote={row['vote']} passing draws {row['passing_draws']}/{k + 1} "
              f"({row['distinct_commands']} distinct, {row['seconds']} s){beside}", file=sys.stderr, flush=True)
    return rows


def report_verdicts(path: Optional[Path]) -> Dict[str, Dict[str, bool]]:
    if path is None:
        return {}
    try:
        data = json.loads(path.read_text())
    except (OSError, ValueError) as exc:
        raise SystemExit(f"--engine-report {path}: cannot read an eval report: {exc}")
    out: Dict[str, Dict[str, bool]] = {}
    for s in data.get("scenarios", []) if isinstance(data, dict) else []:
        if not (isinstance(s, dict) and {"id", "strategy", "passed"} <= set(s)):
            raise SystemExit(f"--engine-report {path}: a scenario without id, strategy and passed: not an eval report")
        out.setdefault(s["id"], {})[s["strategy"]] = bool(s["passed"])
    if not out:
        raise SystemExit(f"--engine-report {path}: no scenario runs in it: not an eval report")
    return out


def rate(n: int, total: int) -> str:
    lo, hi = wilson(n, total) or (0.0, 0.0)
    return f"{n}/{total} = {n / max(total, 1):.3f} [{lo:.2f}, {hi:.2f}]"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("source", help="a scenario set: bench:nl2bash, bench:agentbench, bench:paraphrase:20 or a YAML file")
    ap.add_argument("--k", type=int, default=8, help="sampled draws beside the greedy one (default 8)")
    ap.add_argument("--only", action="append", default=[], help="scenario id glob (repeatable)")
    ap.add_argument("--seed", type=int, default=1, help="draw i is seeded seed + i (default 1)")
    ap.add_argument("--config", type=Path, default=None, help="ragix.yaml to use")
    ap.add_argument("--json", type=Path, default=None, help="write the per-task report here")
    ap.add_argument("--engine-report", type=Path, default=None,
                    help="an eval report (ragix eval --json) whose graph_v30 and s0 verdicts are printed beside")
    args = ap.parse_args()
    if args.k < 0:
        ap.error(f"--k must be >= 0, got {args.k}")
    try:
        config = load_config(args.config) if args.config else load_config()
        scenarios = [s for s in load_sources([args.source])
                     if not args.only or any(fnmatch.fnmatchcase(s.id, p) for p in args.only)]
    except (ConfigError, ValueError, OSError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if not scenarios:
        print(f"error: no scenario of {args.source} matches {args.only}", file=sys.stderr)
        return 2
    config.reasoning.voting.seed = args.seed
    verdicts = report_verdicts(args.engine_report)
    rows = run_tasks(scenarios, config, args.seed, args.k, verdicts)
    n = len(rows)
    summary = {"greedy": rate(sum(r["greedy"] for r in rows), n),
               f"best_of_{args.k + 1}": rate(sum(r["best_of_k"] for r in rows), n),
               f"vote_of_{args.k + 1}": rate(sum(r["vote"] for r in rows), n),
               "tokens_per_task": round(sum(r["tokens"] for r in rows) / n, 1),
               "seconds_per_task": round(sum(r["seconds"] for r in rows) / n, 1)}
    if verdicts:
        ids = [r["id"] for r in rows if r["id"] in verdicts]
        for name in (ENGINE, "s0"):
            summary[f"report_{name}"] = rate(sum(verdicts[i].get(name, False) for i in ids), len(ids))
    print(json.dumps(summary, indent=1))
    if args.json:
        args.json.write_text(json.dumps({"benchmark": "sample_ceiling", "source": args.source, "k": args.k,
                                         "seed": args.seed, "summary": summary, "tasks": rows}, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
