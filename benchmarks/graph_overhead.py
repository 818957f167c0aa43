"""Engine overhead: ragix's ReasoningGraph vs LangGraph vs a plain Python loop.

The same 3-node cycle (A -> B -> C -> A ...) runs N steps on each, in one
process, one after the other; each node does the same trivial work, so the
figures are the orchestration cost per step. ragix runs with events ON (one
subscriber counting them). Also measured: cold import time of
``ragix_core.reasoning_v30`` (and of the modules a graph needs) vs LangGraph's
graph module, each in fresh interpreters.

    python benchmarks/graph_overhead.py [--steps 1000 10000] [--repeats 3]

Prints one JSON object.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from typing import Dict, List, Tuple

from ragix_core.core.events import EventBus
from ragix_core.reasoning_v30.graph import BaseNode, ReasoningGraph
from ragix_core.core.types import ReasoningState

NEXT = {"A": "B", "B": "C", "C": "A"}


class CycleNode(BaseNode):
    def __init__(self, name: str):
        self.name = name
        self.next = NEXT[name]

    def run(self, state: ReasoningState) -> Tuple[ReasoningState, str]:
        state.current_step_index += 1
        return state, self.next


def bench_ragix(n: int) -> Tuple[float, int]:
    bus = EventBus()
    count = [0]

    def on_event(event) -> None:
        count[0] += 1

    bus.subscribe(on_event)
    graph = ReasoningGraph({k: CycleNode(k) for k in NEXT}, start="A", end="END", events=bus)
    state = ReasoningState(goal="bench", session_id="bench")
    t0 = time.perf_counter()
    graph.run(state, max_iterations=n)
    elapsed = time.perf_counter() - t0
    assert state.current_step_index == n, state.current_step_index
    return elapsed, count[0]


def bench_plain(n: int) -> float:
    def a(s):
        s["i"] += 1
        return "B"

    def b(s):
        s["i"] += 1
        return "C"

    def c(s):
        s["i"] += 1
        return "A"

    fns = {"A": a, "B": b, "C": c}
    state = {"i": 0}
    current = "A"
    t0 = time.perf_counter()
    for _ in range(n):
        current = fns[current](state)
    elapsed = time.perf_counter() - t0
    assert state["i"] == n
    return elapsed


def bench_langgraph(n: int) -> float:
    from typing import TypedDict

    from langgraph.graph import END, START, StateGraph

    class S(TypedDict):
        i: int

    def step(s: S) -> dict:
        return {"i": s["i"] + 1}

    g = StateGraph(S)
    for name in NEXT:
        g.add_node(name, step)
    g.add_edge(START, "A")
    g.add_edge("A", "B")
    g.add_edge("B", "C")
    g.add_conditional_edges("C", lambda s: END if s["i"] >= n else "A")
    app = g.compile()
    t0 = time.perf_counter()
    out = app.invoke({"i": 0}, {"recursion_limit": n + 10})
    elapsed = time.perf_counter() - t0
    # The cycle only checks for the end after C, so it may overshoot by up to 2 steps.
    steps = out["i"]
    assert n <= steps <= n + 2, steps
    return elapsed * n / steps


def cold_import_ms(statement: str, repeats: int) -> float:
    code = f"import time; t=time.perf_counter(); {statement}; print(time.perf_counter()-t)"
    samples = []
    for _ in range(repeats):
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
        samples.append(float(out.stdout.strip()) * 1000)
    return round(statistics.median(samples), 2)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--steps", type=int, nargs="+", default=[1000, 10000])
    ap.add_argument("--repeats", type=int, default=3, help="best of R runs per engine and N")
    args = ap.parse_args()

    results: Dict[str, Dict[str, float]] = {}
    for n in args.steps:
        ragix: List[float] = []
        lang: List[float] = []
        plain: List[float] = []
        events = 0
        for _ in range(args.repeats):
            t, events = bench_ragix(n)
            ragix.append(t)
            lang.append(bench_langgraph(n))
            plain.append(bench_plain(n))
        r, l, p = (min(x) / n * 1e6 for x in (ragix, lang, plain))
        results[str(n)] = {
            "ragix_us_per_step": round(r, 3),
            "langgraph_us_per_step": round(l, 3),
            "plain_loop_us_per_step": round(p, 3),
            "ragix_over_langgraph": round(r / l, 4),
            "ragix_over_plain": round(r / p, 1),
            "ragix_events_delivered": events,
        }

    imports = {
        "ragix_core.reasoning_v30_ms": cold_import_ms("import ragix_core.reasoning_v30", 7),
        "ragix_graph_and_nodes_ms": cold_import_ms(
            "import ragix_core.reasoning_v30.graph, ragix_core.reasoning_v30.nodes", 7),
        "langgraph.graph_ms": cold_import_ms("import langgraph.graph", 5),
    }
    print(json.dumps({"benchmark": "graph_overhead", "python": sys.version.split()[0],
                      "steps": results, "cold_import": imports}, indent=2))


if __name__ == "__main__":
    main()
