"""Does the planner's JSON layout change its plans, and what would a compact layout save?

    python benchmarks/plan_json_layout.py [--only GLOB] [--limit N]

For every tool goal of the three main scenario sets whose fixture is the shared mock
repository, the engine's own plan request (AgentFunctions.plan_request: same prompt, same
schema; the label is the scenario's, COMPLEX or else MODERATE) is sent greedily four times
to the embedded default model, one after the other:

- ``flexible``: as the engine sends it (``response_format``; the model chooses whitespace);
- ``flexible_again``: the identical request once more. Its prompt is now wholly in the prefix
  cache, so any difference from ``flexible`` comes from the cache state alone;
- ``oneline`` and ``compact``: the same schema through llama.cpp's llguidance grammar with
  ``x-guidance`` whitespace off (``", "``/``": "`` separators, then none at all). The
  runtime drops ``x-guidance`` from a ``response_format`` schema, so these go as ``grammar``.

Per layout, in the same run: generated tokens, seconds, and how many goals got the same
commands as ``flexible_again`` (the warm-cache reference). Prints one JSON line per goal on
stderr and the totals as JSON on stdout.
"""

from __future__ import annotations

import argparse
import fnmatch
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from ragix_core.eval.suite import load_sources  # noqa: E402
from ragix_core.core.types import TaskComplexity  # noqa: E402
from ragix_core.llm.embedded import EmbeddedClient  # noqa: E402
from ragix_core.reasoning_v30.agent_fns import AgentFunctions  # noqa: E402
from ragix_core.tools import ToolBox  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
SETS = ["file_search", "code_analysis", "bypass_question"]
FIXTURE = ROOT / "tests" / "reasoning_v30" / "fixtures" / "mock_repo"
LAYOUTS = {"flexible": None, "flexible_again": None,
           "oneline": {"whitespace_flexible": False, "item_separator": ", ", "key_separator": ": "},
           "compact": {"whitespace_flexible": False}}
MAX_TOKENS = 700  # the engine's plan budget


def ask(client: EmbeddedClient, text: str, schema: dict, layout) -> tuple:
    """(reply data, generated tokens) for one greedy plan request in ``layout``."""
    messages = [{"role": "user", "content": text}]
    if layout is None:
        done = client.complete(messages, schema=schema, max_tokens=MAX_TOKENS, temperature=0.0)
        return done.data, done.usage.completion_tokens
    grammar = "%llguidance {}\nstart: %json " + json.dumps(dict(schema, **{"x-guidance": layout}))
    reply = client.load().handle_chat_completions({"messages": messages, "max_tokens": MAX_TOKENS,
                                                   "temperature": 0.0, "grammar": grammar})
    return json.loads(reply["choices"][0]["message"]["content"]), reply["usage"]["completion_tokens"]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--only", action="append", default=[], help="scenario id glob (repeatable)")
    ap.add_argument("--limit", type=int, default=0, help="at most this many goals (0: all)")
    args = ap.parse_args()
    files = [str(ROOT / "tests" / "reasoning_v30" / "scenarios" / f"{name}.yaml") for name in SETS]
    scenarios = [s for s in load_sources(files)
                 if s.complexity != "BYPASS" and s.cwd is not None and Path(s.cwd).resolve() == FIXTURE.resolve()
                 and s.setup is None and (not args.only or any(fnmatch.fnmatchcase(s.id, p) for p in args.only))]
    if args.limit:
        scenarios = scenarios[:args.limit]
    client = EmbeddedClient(threads=1)
    box = ToolBox(FIXTURE)  # the default profile: the tools the planner is offered in a run
    totals = {name: {"tokens": 0, "seconds": 0.0, "same_commands": 0} for name in LAYOUTS}
    for s in scenarios:
        agent = AgentFunctions(planner=client, worker=client, verifier=client, toolbox=box)
        agent.last_complexity = TaskComplexity.COMPLEX if s.complexity == "COMPLEX" else TaskComplexity.MODERATE
        text, schema = agent.plan_request(s.input, "")
        line = {"id": s.id}
        for name, layout in LAYOUTS.items():
            start = time.perf_counter()
            data, tokens = ask(client, text, schema, layout)
            line[name] = {"tokens": tokens, "seconds": round(time.perf_counter() - start, 1),
                          "commands": [step["args"].get("command") for step in data["steps"]]}
            totals[name]["tokens"] += tokens
            totals[name]["seconds"] += time.perf_counter() - start
        for name in LAYOUTS:
            totals[name]["same_commands"] += line[name]["commands"] == line["flexible_again"]["commands"]
        print(json.dumps(line), file=sys.stderr, flush=True)
    for row in totals.values():
        row["seconds"] = round(row["seconds"], 1)
    print(json.dumps({"benchmark": "plan_json_layout", "goals": len(scenarios), "layouts": totals}, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
