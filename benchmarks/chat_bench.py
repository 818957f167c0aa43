"""The chat agent against the same model answering directly with the history, on multi-turn conversations.

    .venv/bin/python benchmarks/chat_bench.py [--set FILE] [--conversations N] [--max-steps N] [--threads N]
                                              [--model NAME_OR_GGUF] [--json OUT] [--only ID ...]

Conversations: benchmarks/chat_conversations.yaml by default (arithmetic and unit questions
that need a tool, follow-ups that only make sense with the history, questions
answered from the local documents in benchmarks/chat_docs/, questions that need
no tool: our own, a regression set); ``--set benchmarks/chat_unseen/mtbench_math.yaml``
runs MT-Bench's two-turn math conversations, which nobody here wrote
(benchmarks/chat_unseen/freeze_mtbench.py). Each conversation is one session; its turns run through ``run_turn``,
exactly as ``ragix chat --session`` runs them (store, history, tools, sandbox).
The baseline is the same model and settings answering each question in one call,
with that conversation's earlier turns (its own earlier answers) as chat history.

The two systems run one after the other (agent block, then baseline block), so
neither evicts the other's cached prompt prefix; the machine's load average is
recorded at the start and end of each block.

Per system: answer accuracy per turn (with a Wilson 95 % interval), tool-choice
accuracy (the agent only: the expected tool class was used, or none for a
no-tool question), reasoning steps per turn, tokens and wall time.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Dict, List, Optional, Tuple

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import yaml  # noqa: E402

from benchmarks import provenance  # noqa: E402
from ragix_core.eval.matching import pattern_matches  # noqa: E402
from ragix_core.eval.metrics import wilson  # noqa: E402

CONVERSATIONS = ROOT / "benchmarks" / "chat_conversations.yaml"
DOCS = ROOT / "benchmarks" / "chat_docs"
CALC_TOOLS = {"repl", "operator"}


def load_conversations(path: Path = CONVERSATIONS) -> List[Dict[str, Any]]:
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    for conv in data:
        for turn in conv["turns"]:
            if turn["expect"] not in ("calc", "search", "none"):
                raise ValueError(f"{conv['id']}: expect must be calc, search or none, not {turn['expect']!r}")
            if not (turn.get("answer_any") or turn.get("answer_all") or "value" in turn or "final_value" in turn):
                raise ValueError(f"{conv['id']}: turn {turn['q']!r} has no answer pattern")
    return data


_NUMBER = re.compile(r"(?<![\w.])-?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?(?![\w])")


def numbers_in(text: str) -> List[float]:
    """Every number written in ``text`` ("138,336" is one number; "v8" and "8th" are none)."""
    return [float(m.group(0).replace(",", "")) for m in _NUMBER.finditer(text or "")]


def answer_ok(turn: Dict[str, Any], answer: str) -> bool:
    """Every key the turn has must hold: ``value`` (some number stated is it, within ``rel_tol``),
    ``final_value`` (the last number stated is it: a worked answer restating the question's numbers does
    not pass on them), ``answer_all`` (every pattern matches), ``answer_any`` (one pattern matches)."""
    tol = float(turn.get("rel_tol", 0.0))
    if "value" in turn:
        want = float(turn["value"])
        if not any(abs(got - want) <= tol * abs(want) for got in numbers_in(answer)):
            return False
    if "final_value" in turn:
        want, stated = float(turn["final_value"]), numbers_in(answer)
        if not stated or abs(stated[-1] - want) > tol * abs(want):
            return False
    if turn.get("answer_all") and not all(pattern_matches(p, answer) for p in turn["answer_all"]):
        return False
    return not turn.get("answer_any") or any(pattern_matches(p, answer) for p in turn["answer_any"])


def tool_choice_ok(expect: str, used: List[str]) -> bool:
    if expect == "none":
        return not used
    if expect == "calc":
        return bool(CALC_TOOLS & set(used))
    return "search" in used


def _load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def run_agent(convs: List[Dict[str, Any]], config: Any, workdir: Path, max_steps: Optional[int]) -> List[Dict[str, Any]]:
    from ragix_core.chat.messages import tool_messages
    from ragix_core.chat.session import run_turn
    from ragix_core.chat.store import ChatStore
    from ragix_core.profiles import get_profile

    store = ChatStore(workdir / "sessions.sqlite")
    profile = get_profile("dev")
    rows = []
    for conv in convs:
        session = f"bench-{conv['id']}"
        for i, turn in enumerate(conv["turns"], 1):
            result = run_turn(store, session, turn["q"], cwd=workdir / "project", config=config, profile=profile,
                              docs=str(DOCS), max_reasoning_steps=max_steps)
            used = [m.meta.get("tool") for m in tool_messages(result.messages)]
            view = result.to_dict()
            rows.append({"system": "agent", "conversation": conv["id"], "turn": i, "expect": turn["expect"],
                         "question": turn["q"], "answer": result.final_answer, "stop_reason": result.stop_reason,
                         "answer_ok": answer_ok(turn, result.final_answer), "tools": used,
                         "tool_choice_ok": tool_choice_ok(turn["expect"], used),
                         "tool_errors": sum(1 for c in view["tool_calls"] if c["error"]),
                         "steps": len(view["reasoning"]), "llm_calls": result.usage.get("llm_calls", 0),
                         "prompt_tokens": result.usage.get("prompt_tokens", 0),
                         "completion_tokens": result.usage.get("completion_tokens", 0),
                         "wall_time": round(result.wall_time, 2)})
            _progress(rows[-1])
    return rows


def run_direct(convs: List[Dict[str, Any]], config: Any, history_turns: int) -> List[Dict[str, Any]]:
    from ragix_core.chat.prompting import direct_messages
    from ragix_core.core.stop import StopRun
    from ragix_core.llm.factory import build_client
    from ragix_core.llm.structured import ask_text

    settings = config.llm.for_role("worker")
    client = build_client(settings)
    rows = []
    for conv in convs:
        history: List[Tuple[str, str]] = []
        for i, turn in enumerate(conv["turns"], 1):
            started = time.perf_counter()
            try:
                completion = ask_text(client, direct_messages(history, turn["q"], history_turns=history_turns),
                                      max_tokens=400, temperature=settings.temperature)
                answer, stop = completion.text.strip(), "success"
                usage = (completion.usage.prompt_tokens, completion.usage.completion_tokens)
            except StopRun as exc:
                answer, stop, usage = "", exc.reason, (0, 0)
            wall = time.perf_counter() - started
            history.append((turn["q"], answer))
            rows.append({"system": "direct", "conversation": conv["id"], "turn": i, "expect": turn["expect"],
                         "question": turn["q"], "answer": answer, "stop_reason": stop,
                         "answer_ok": answer_ok(turn, answer), "tools": [], "tool_choice_ok": None,
                         "tool_errors": 0, "steps": 0, "llm_calls": 1, "prompt_tokens": usage[0],
                         "completion_tokens": usage[1], "wall_time": round(wall, 2)})
            _progress(rows[-1])
    return rows


def _progress(row: Dict[str, Any]) -> None:
    mark = "PASS" if row["answer_ok"] else "fail"
    tools = ",".join(row["tools"]) or "-"
    print(f"{row['system']:>6} {row['conversation']:<15} t{row['turn']} {mark} tools={tools:<16} "
          f"steps={row['steps']} {row['wall_time']:>6.1f}s  {' '.join(row['answer'].split())[:90]}",
          file=sys.stderr, flush=True)


def summarise(rows: List[Dict[str, Any]]) -> Dict[str, Any]:
    n = len(rows)
    passed = sum(r["answer_ok"] for r in rows)
    out: Dict[str, Any] = {"turns": n, "answers_correct": passed, "answer_accuracy": round(passed / n, 3) if n else None,
                           "answer_accuracy_ci95": wilson(passed, n)}
    for kind in ("calc", "search", "none"):
        sub = [r for r in rows if r["expect"] == kind]
        out[f"accuracy_{kind}"] = f"{sum(r['answer_ok'] for r in sub)}/{len(sub)}"
    follow = [r for r in rows if r["turn"] > 1]
    out["accuracy_follow_ups"] = f"{sum(r['answer_ok'] for r in follow)}/{len(follow)}"
    choices = [r["tool_choice_ok"] for r in rows if r["tool_choice_ok"] is not None]
    out["tool_choice_accuracy"] = round(sum(choices) / len(choices), 3) if choices else None
    out["tool_choice_ci95"] = wilson(sum(choices), len(choices)) if choices else None
    out["mean_reasoning_steps"] = round(statistics.mean(r["steps"] for r in rows), 2) if n else None
    out["llm_calls"] = sum(r["llm_calls"] for r in rows)
    out["prompt_tokens"] = sum(r["prompt_tokens"] for r in rows)
    out["completion_tokens"] = sum(r["completion_tokens"] for r in rows)
    out["tokens_per_turn"] = round((out["prompt_tokens"] + out["completion_tokens"]) / n) if n else None
    out["wall_time"] = round(sum(r["wall_time"] for r in rows), 1)
    out["median_turn_seconds"] = round(statistics.median(r["wall_time"] for r in rows), 1) if n else None
    out["stop_reasons"] = {s: sum(1 for r in rows if r["stop_reason"] == s) for s in sorted({r["stop_reason"] for r in rows})}
    return out


def table(summary: Dict[str, Dict[str, Any]]) -> str:
    cols = [("turns", "turns"), ("answer accuracy (95% CI)", None), ("calc", "accuracy_calc"),
            ("search", "accuracy_search"), ("no tool", "accuracy_none"), ("follow-ups", "accuracy_follow_ups"),
            ("tool choice", "tool_choice_accuracy"), ("steps/turn", "mean_reasoning_steps"),
            ("tokens (prompt+completion)", None), ("tokens/turn", "tokens_per_turn"), ("wall time", None),
            ("median s/turn", "median_turn_seconds")]
    lines = ["| system | " + " | ".join(c for c, _ in cols) + " |", "|" + " --- |" * (len(cols) + 1)]
    for system, s in summary.items():
        ci = s["answer_accuracy_ci95"]
        cells = []
        for name, key in cols:
            if name.startswith("answer accuracy"):
                cells.append(f"{s['answers_correct']}/{s['turns']} = {s['answer_accuracy']} "
                             f"[{ci[0]:.2f}, {ci[1]:.2f}]" if ci else "-")
            elif name.startswith("tokens ("):
                cells.append(f"{s['prompt_tokens']:,}+{s['completion_tokens']:,}")
            elif name == "wall time":
                cells.append(f"{s['wall_time']} s")
            else:
                value = s.get(key)
                cells.append("-" if value is None else str(value))
        lines.append(f"| {system} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def _set_name(path: Path) -> str:
    """The set as a report names it: relative to the repository when inside it, so --rescore finds it anywhere."""
    full = path.resolve()
    return str(full.relative_to(ROOT)) if full.is_relative_to(ROOT) else str(path)


def rescore(path: Path, out: Any = None) -> int:
    """The recorded answers judged again (after a change to the checks): the same table, no model run."""
    run = json.loads(path.read_text(encoding="utf-8"))
    conversations = ROOT / run["meta"].get("set", str(CONVERSATIONS.relative_to(ROOT)))
    turns = {(c["id"], i): t for c in load_conversations(conversations) for i, t in enumerate(c["turns"], 1)}
    for row in run["turns"]:
        row["answer_ok"] = answer_ok(turns[(row["conversation"], row["turn"])], row["answer"])
    systems = {"agent": "chat agent", "direct": "direct + history"}
    summary = {label: summarise([r for r in run["turns"] if r["system"] == key])
               for key, label in systems.items() if any(r["system"] == key for r in run["turns"])}
    run["summary"] = summary
    run["meta"]["rescored_utc"] = time.strftime("%Y-%m-%d %H:%M", time.gmtime())
    print(table(summary))
    print(json.dumps({"meta": run["meta"], "summary": summary}, indent=1))
    if out:
        Path(out).write_text(json.dumps(run, indent=1, ensure_ascii=False))
    return 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--set", type=Path, default=CONVERSATIONS,
                    help="the conversations (default: benchmarks/chat_conversations.yaml, our own)")
    ap.add_argument("--conversations", type=int, default=None, help="run only the first N conversations")
    ap.add_argument("--only", nargs="*", default=None, help="conversation ids to run")
    ap.add_argument("--max-steps", type=int, default=None,
                    help="the agent's max_reasoning_steps per question (default: the product's, chat.max_reasoning_steps)")
    ap.add_argument("--threads", type=int, default=None, help="llama.cpp threads (default: every core we may use)")
    ap.add_argument("--timeout", type=float, default=None, help="seconds per model call (default: config)")
    ap.add_argument("--model", default=None, help="model for both systems (default: the embedded default)")
    ap.add_argument("--skip-direct", action="store_true", help="run only the agent")
    ap.add_argument("--decisions", choices=("json", "free"), default=None,
                    help="how the agent's orchestrator writes a step (chat.decisions; default: the config's)")
    ap.add_argument("--json", type=Path, default=None, help="write every turn and the summary here")
    ap.add_argument("--rescore", type=Path, default=None,
                    help="judge the answers of an earlier --json file again with the current checks (no model)")
    args = ap.parse_args()
    if args.rescore:
        return rescore(args.rescore, args.json)

    from ragix_core.config import parse_config

    try:
        convs = load_conversations(args.set)
    except (OSError, ValueError, KeyError, TypeError, yaml.YAMLError) as exc:
        print(f"chat_bench: cannot use the set {args.set}: {exc}", file=sys.stderr)
        return 2
    if args.only:
        convs = [c for c in convs if c["id"] in set(args.only)]
    if args.conversations:
        convs = convs[: args.conversations]
    workdir = Path(tempfile.mkdtemp(prefix="ragix-chat-bench-"))
    (workdir / "project").mkdir()
    default: Dict[str, Any] = {}
    for key, value in (("threads", args.threads), ("timeout", args.timeout), ("model", args.model)):
        if value is not None:
            default[key] = value
    config = parse_config({
        "llm": {"default": default},
        # The benchmark's own state: an empty experience corpus and traces inside the work directory.
        "reasoning": {"experience": {"global_root": str(workdir / "global"), "project_root": str(workdir / "exp")},
                      "traces": {"path": str(workdir / "traces")}},
        **({"chat": {"decisions": args.decisions}} if args.decisions else {}),
    }, "benchmarks/chat_bench.py")
    from ragix_core.llm.models import models_dir

    # Sessions and the document index go to the work directory; the model stays where it is installed.
    os.environ["RAGIX_MODELS"] = str(models_dir())
    os.environ["RAGIX_HOME"] = str(workdir / "home")
    commit = provenance.commit()
    settings = config.llm.for_role("worker")
    meta = {"date_utc": time.strftime("%Y-%m-%d %H:%M", time.gmtime()), "commit": commit, "model": settings.model,
            "backend": settings.backend, "threads": settings.threads, "temperature": settings.temperature,
            "max_reasoning_steps": args.max_steps or config.chat.max_reasoning_steps, "conversations": len(convs),
            "decisions": config.chat.decisions,
            "set": _set_name(args.set),
            "turns": sum(len(c["turns"]) for c in convs), "command": " ".join(sys.argv)}
    print(json.dumps(meta), file=sys.stderr, flush=True)
    loads = {"agent_start": _load()}
    agent = run_agent(convs, config, workdir, args.max_steps)
    loads["agent_end"] = _load()
    rows = list(agent)
    summary = {"chat agent": summarise(agent)}
    if not args.skip_direct:
        loads["direct_start"] = _load()
        direct = run_direct(convs, config, config.chat.history_turns)
        loads["direct_end"] = _load()
        rows += direct
        summary["direct + history"] = summarise(direct)
    meta["load_average"] = loads
    print(table(summary))
    print(json.dumps({"meta": meta, "summary": summary}, indent=1))
    if args.json:
        args.json.write_text(json.dumps({"meta": meta, "summary": summary, "turns": rows}, indent=1,
                                        ensure_ascii=False))
    shutil.rmtree(workdir, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
