"""The proof-game benchmark (issue 14): the Interpreter-Tutor against the same model answering alone (s0)
and against the v30 graph, on the same tasks, in one run.

    python benchmarks/tutor_games.py                      # every task, tutor + s0 + graph_v30, embedded model
    python benchmarks/tutor_games.py --only 'search-*' --strategy tutor --max-turns 6
    python benchmarks/tutor_games.py --json out.json --markdown out.md --config my-ragix.yaml

Tasks: benchmarks/tutor_games_fixture/tasks.yaml (12 tasks, 4 bands: search, formal reasoning, governance/policy,
engineering diagnosis) over the fixture benchmarks/tutor_games_fixture/project, copied for every run. Every
strategy runs through ragix's runtime and is judged by ragix eval's judge (expected and forbidden patterns).

Reported per strategy: correct answers (with a Wilson 95 % interval; those from runs that did not end in
success are also counted apart), wrong answers the engine reported as a success, and for the tutor the games won (the tutor accepted the answer), the score, the illegal-move rate
(moves rejected / moves), turns, how many wins used an answer the tutor drafted from the facts (the player
chose it among the suggested moves), and two measures of hallucination:

- ``assert_rejection_rate``, issue 14's definition: ASSERT moves whose verdict is ``rejected`` / ASSERT
  moves, with a Wilson 95 % interval (``assert_rejection_ci95``). Rejected: ill-typed, refuted, a repetition
  (also of a claim already validated), or an ASSERT made while another claim is held. A held (undecidable)
  ASSERT is not counted, even when the action that follows refutes it or leaves it unproven; nor are
  REFORMULATE or the claims inside RESPOND.
- ``hallucination_rate``, the broader one: claims not validated when made / claims made, over ASSERT,
  REFORMULATE and the claims inside RESPOND; a held claim counts unless its action validates it. No interval.

Both are summed over all games before dividing (a long game weighs more); the interval treats the ASSERT
moves as independent, which moves of one game are not, so it is likely too narrow.
For all strategies, LLM calls, tokens and wall time.
"""

from __future__ import annotations

import argparse
import json
import platform
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Dict, List, Optional

ROOT = Path(__file__).resolve().parent
sys.path.insert(0, str(ROOT.parent))

import yaml  # noqa: E402

from benchmarks import provenance  # noqa: E402
from ragix_core.config import ConfigError, load_config  # noqa: E402
from ragix_core.eval.evaluate import ScenarioResult  # noqa: E402
from ragix_core.eval.harness import EvalOptions, run_scenarios  # noqa: E402
from ragix_core.eval.metrics import wilson  # noqa: E402
from ragix_core.eval.scenario import Scenario, ScenarioError, load_scenario_file  # noqa: E402
from ragix_core.reasoning_tutor.game import DEFAULT_MAX_TURNS, OptionsError, parse_accept  # noqa: E402
from ragix_core.runtime.run import run_goal  # noqa: E402

TASKS = ROOT / "tutor_games_fixture" / "tasks.yaml"
FIXTURE = ROOT / "tutor_games_fixture" / "project"
CONFIG = ROOT / "tutor_games_fixture" / "ragix.yaml"
STRATEGIES = ("tutor", "s0", "graph_v30")
BANDS = ("search", "formal", "governance", "diagnosis")


@dataclass
class Task:
    scenario: Scenario
    band: str
    accept: List[str]


@dataclass
class Run:
    task: Task
    strategy: str
    result: ScenarioResult
    tutor: Dict[str, Any] = field(default_factory=dict)  # the game's report (tutor only)


def load_tasks(path: Path = TASKS) -> List[Task]:
    """The tasks with their band and acceptance criteria; ScenarioError / OptionsError name what is wrong."""
    scenarios = {s.id: s for s in load_scenario_file(path)}
    raw = yaml.safe_load(path.read_text(encoding="utf-8"))
    out = []
    for item in raw:
        sid = str(item["id"])
        band = item.get("band")
        if band not in BANDS:
            raise ScenarioError(f"{path}: {sid}: 'band' must be one of {', '.join(BANDS)}, got {band!r}")
        accept = item.get("accept") or []
        parse_accept(accept)  # fail now, not in the middle of a run
        out.append(Task(scenarios[sid], band, [str(a) for a in accept]))
    return out


def run_all(tasks: List[Task], strategies: List[str], *, config: Any, model: Optional[str], max_turns: int,
            seed: Optional[int] = None, trace_dir: Optional[Path] = None, client_factory: Any = None,
            log=print) -> List[Run]:
    """Every task under every strategy, each in a fresh copy of the fixture. ``client_factory`` replaces the
    model (tests)."""
    by_goal = {t.scenario.input: t for t in tasks}
    runs: List[Run] = []
    for strategy in strategies:
        captured: Dict[str, Any] = {}

        def runner(goal: str, **kw: Any) -> Any:
            meta = {"tutor": {"accept": by_goal[goal].accept, "max_turns": max_turns}} if strategy == "tutor" else None
            result = run_goal(goal, meta=meta, **kw)
            captured[goal] = result
            return result

        def progress(res: ScenarioResult) -> None:
            log(f"{strategy:10s} {res.id:24s} {'pass' if res.passed else 'FAIL'}  {res.stop_reason}  "
                f"{res.wall_time:6.1f}s  {(res.error or res.final_answer)[:90]!r}")

        scenarios = [t.scenario for t in tasks]
        opts = EvalOptions(cwd=FIXTURE, strategy=strategy, model=model, config=config, seed=seed,
                           trace_dir=trace_dir / strategy if trace_dir else None,
                           extra={"client_factory": client_factory} if client_factory else {})
        for res in run_scenarios(scenarios, runner, opts, on_result=progress):
            task = next(t for t in tasks if t.scenario.id == res.id)
            state = getattr(captured.get(task.scenario.input), "state", None)
            report = dict((state.meta.get("tutor") or {}) if state is not None and strategy == "tutor" else {})
            report.pop("graph", None)  # kept out of the report: one graph per game is in its log
            runs.append(Run(task, strategy, res, report))
    return runs


def _rate(num: float, den: float) -> Optional[float]:
    return round(num / den, 3) if den else None


def summarize(runs: List[Run], strategy: str) -> Dict[str, Any]:
    rs = [r for r in runs if r.strategy == strategy]
    n = len(rs)
    correct = sum(r.result.passed for r in rs)
    out: Dict[str, Any] = {
        "runs": n,
        "correct": correct,
        "correct_ci95": wilson(correct, n),
        "wrong_as_success": sum((not r.result.passed) and r.result.stop_reason == "success" for r in rs),
        # the checker found the answer in a run that did not end in success (a tutor's summary of its truths,
        # a graph's partial-results report): counted as correct, like ragix eval does, and shown apart
        "correct_without_success": sum(r.result.passed and r.result.stop_reason != "success" for r in rs),
        "llm_calls": sum(r.result.llm_calls for r in rs),
        "tokens": sum(r.result.prompt_tokens + r.result.completion_tokens for r in rs),
        "wall_time": round(sum(r.result.wall_time for r in rs), 1),
        "by_band": {b: f"{sum(r.result.passed for r in rs if r.task.band == b)}/"
                       f"{sum(1 for r in rs if r.task.band == b)}" for b in BANDS},
    }
    games = [r.tutor for r in rs if r.tutor.get("tally")]
    if games:
        moves = sum(g["tally"]["moves"] for g in games)
        claims = sum(g["tally"]["claims"] for g in games)
        asserts = sum(g["tally"]["asserts"] for g in games)
        asserts_rejected = sum(g["tally"]["asserts_rejected"] for g in games)
        out.update({
            "won": sum(bool(g.get("won")) for g in games),
            "won_and_correct": sum(bool(r.tutor.get("won")) and r.result.passed for r in rs),
            # won with an answer the tutor drafted from the facts (the player chose it, did not write it)
            "won_with_draft": sum(bool(g.get("won")) and bool(g.get("answer_drafted")) for g in games),
            "score_mean": round(sum(g["score"] for g in games) / len(games), 2),
            "illegal_move_rate": _rate(sum(g["tally"]["illegal"] for g in games), moves),
            "hallucination_rate": _rate(sum(g["tally"]["claims_rejected"] for g in games), claims),
            # issue 14's hallucination rate: ASSERT moves the tutor rejected / ASSERT moves (held ones are not)
            "assert_rejection_rate": _rate(asserts_rejected, asserts),
            "assert_rejection_ci95": wilson(asserts_rejected, asserts),
            "turns_mean": round(sum(g["turns"] for g in games) / len(games), 2),
            "moves": moves,
            "claims": claims,
            "asserts": asserts,
            "asserts_rejected": asserts_rejected,
        })
    return out


def _fmt(v: Any) -> str:
    if v is None:
        return "–"
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(f"{x:.2f}" for x in v) + "]"
    return str(v)


def markdown(summaries: Dict[str, Dict[str, Any]], meta: Dict[str, Any]) -> str:
    cols = [("correct", "correct"), ("correct_ci95", "95 % CI"), ("correct_without_success", "of which not a success"),
            ("wrong_as_success", "wrong, reported as success"),
            ("won", "won (tutor-verified)"), ("won_and_correct", "won and correct"),
            ("won_with_draft", "won with a drafted answer"), ("score_mean", "mean score"), ("illegal_move_rate", "illegal-move rate"),
            ("hallucination_rate", "hallucination rate"), ("assert_rejection_rate", "ASSERT rejection rate"),
            ("assert_rejection_ci95", "its 95 % CI"), ("turns_mean", "mean turns"), ("llm_calls", "LLM calls"),
            ("tokens", "tokens"), ("wall_time", "wall time (s)")]
    lines = [f"Command: `{meta['command']}`  ", f"Date: {meta['date']} · commit {meta['commit']} · model "
             f"{meta['model']} · {meta['tasks']} tasks × {len(summaries)} strategies, one run each · "
             f"max turns {meta['max_turns']} · {meta['machine']}", "",
             "| strategy | runs | " + " | ".join(c[1] for c in cols) + " |",
             "| --- | --- | " + " | ".join("---" for _ in cols) + " |"]
    for name, s in summaries.items():
        row = [f"{s['correct']}/{s['runs']}" if k == "correct" else _fmt(s.get(k)) for k, _ in cols]
        lines.append(f"| {name} | {s['runs']} | " + " | ".join(row) + " |")
    lines += ["", "| strategy | " + " | ".join(BANDS) + " |", "| --- | " + " | ".join("---" for _ in BANDS) + " |"]
    for name, s in summaries.items():
        lines.append(f"| {name} | " + " | ".join(s["by_band"][b] for b in BANDS) + " |")
    return "\n".join(lines) + "\n"


def main(argv: Optional[List[str]] = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--strategy", action="append", choices=STRATEGIES, help="repeat; default: all three")
    ap.add_argument("--only", action="append", default=[], help="task ids (glob), repeatable")
    ap.add_argument("--model", help="model for every role (GGUF path or server model name)")
    ap.add_argument("--config", type=Path, default=CONFIG, help=f"ragix.yaml (default: {CONFIG.relative_to(ROOT.parent)})")
    ap.add_argument("--trace-dir", type=Path, help="keep every run's trace here (one folder per strategy)")
    ap.add_argument("--max-turns", type=int, default=DEFAULT_MAX_TURNS)
    ap.add_argument("--seed", type=int)
    ap.add_argument("--json", type=Path, help="write the full report here")
    ap.add_argument("--markdown", type=Path, help="write the tables here")
    args = ap.parse_args(argv)
    import fnmatch

    try:
        tasks = [t for t in load_tasks() if not args.only or any(fnmatch.fnmatch(t.scenario.id, p) for p in args.only)]
        config = load_config(args.config, cwd=FIXTURE)
    except (ScenarioError, OptionsError, ConfigError, OSError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if not tasks:
        print("error: no task selected (check --only)", file=sys.stderr)
        return 2
    strategies = args.strategy or list(STRATEGIES)
    started = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    commit = provenance.commit()  # before the run: the tree may change while it runs
    t0 = time.time()
    runs = run_all(tasks, strategies, config=config, model=args.model, max_turns=args.max_turns, seed=args.seed,
                   trace_dir=args.trace_dir, log=lambda line: print(line, file=sys.stderr, flush=True))
    summaries = {s: summarize(runs, s) for s in strategies}
    meta = {"command": "python benchmarks/tutor_games.py " + " ".join(argv if argv is not None else sys.argv[1:]),
            "date": f"{started} ({round(time.time() - t0)} s)", "commit": commit,
            "model": args.model or config.llm.default.model, "tasks": len(tasks), "max_turns": args.max_turns,
            "machine": f"{platform.machine()}, {platform.system()}, Python {platform.python_version()}"}
    table = markdown(summaries, meta)
    print(table)
    if args.markdown:
        args.markdown.write_text(table, encoding="utf-8")
    if args.json:
        args.json.write_text(json.dumps({"meta": meta, "summaries": summaries, "runs": [
            {"id": r.task.scenario.id, "band": r.task.band, "strategy": r.strategy, **r.result.to_dict(),
             "tutor": r.tutor} for r in runs]}, indent=1, default=str) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
