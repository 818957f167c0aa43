"""How well CLASSIFY labels the shipped scenario goals, per prompt variant, in one run.

    .venv/bin/python benchmarks/classify_accuracy.py [--variant FILE ...] [--model NAME_OR_GGUF]

Every labelled goal of tests/reasoning_v30/scenarios/*.yaml goes through the same
path as `ragix run` (rules first, then the model with the schema-constrained
reply, then the BYPASS demotion), once with the shipped prompt
(ragix_core/prompts/classify.md) and once per --variant template (same
``{{goal}}`` placeholder), so variants are compared on the same model and machine.

Prints, per variant: exact accuracy, bypass accuracy (BYPASS or not decided as
labelled), a confusion table (label -> predicted) and seconds per model call.
"""

from __future__ import annotations

import argparse
import collections
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from ragix_core import prompts  # noqa: E402
from ragix_core.eval.suite import load_sources  # noqa: E402
from ragix_core.llm.factory import make_client  # noqa: E402
from ragix_core.reasoning_v30.agent_fns import AgentFunctions  # noqa: E402
from ragix_core.reasoning_v30.classify_rules import rule_based_complexity  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
SETS = sorted((ROOT / "tests" / "reasoning_v30" / "scenarios").glob("*.yaml"))


def classify(agent: AgentFunctions, template: str, goal: str) -> tuple[str, float]:
    """The engine's own CLASSIFY with this template; seconds only when the model was asked."""
    asked = rule_based_complexity(goal) is None
    start = time.perf_counter()
    label = agent.classify(goal, template=template)
    return label.value.upper(), (time.perf_counter() - start) if asked else 0.0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--variant", action="append", default=[], help="alternative classify template (repeatable)")
    ap.add_argument("--model", default=None, help="model name or GGUF path (default: the embedded default)")
    args = ap.parse_args()
    variants = {"shipped": prompts.load("classify")}
    for path in args.variant:
        variants[Path(path).stem] = Path(path).read_text(encoding="utf-8")
    goals = [(s.id, s.input, s.complexity.upper()) for s in load_sources([str(p) for p in SETS]) if s.complexity]
    client = make_client({"backend": "embedded", "model": args.model} if args.model else None)
    agent = AgentFunctions(planner=client, worker=client, verifier=client, toolbox=None)
    report = {}
    for name, template in variants.items():
        confusion: collections.Counter = collections.Counter()
        seconds = []
        for sid, goal, label in goals:
            got, secs = classify(agent, template, goal)
            if secs:
                seconds.append(secs)
            confusion[(label, got)] += 1
            print(f"{name:>10} {sid:<28} {label:<8} -> {got}", file=sys.stderr, flush=True)
        n = sum(confusion.values())
        exact = sum(v for (a, b), v in confusion.items() if a == b) / n
        bypass = sum(v for (a, b), v in confusion.items() if (a == "BYPASS") == (b == "BYPASS")) / n
        report[name] = {
            "goals": n,
            "accuracy": round(exact, 3),
            "bypass_accuracy": round(bypass, 3),
            "confusion": {f"{a}->{b}": v for (a, b), v in sorted(confusion.items())},
            "s_per_model_call": round(sum(seconds) / len(seconds), 2) if seconds else None,
        }
    print(json.dumps(report, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
