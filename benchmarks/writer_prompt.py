"""Which writer prompt answers more goals right from the same evidence?

    python benchmarks/writer_prompt.py TRACE_DIR PROMPT.md [PROMPT.md ...]

TRACE_DIR holds the traces of a `ragix eval --trace-dir` run over the shipped scenario sets
(`<scenario>-1.jsonl`). For every traced run with at least one successful step that printed
something, the executed steps are rebuilt from the trace (command, status, stdout, stderr) and
the engine's own writer (AgentFunctions.compose_for: the writer call, then binding, grounding and
the number marks) answers the goal once per prompt file, greedy, in the same process. Each answer
is judged with the eval's matcher (expected and forbidden patterns; the step budget and commands
run are not judged: the evidence is fixed). Prints one line per run and prompt, then the totals.
The evidence is what the engine gathered in that run: a prompt is compared on the same inputs,
not on what a different prompt would have led the planner to run.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from ragix_core import prompts  # noqa: E402
from ragix_core.core.events import EventKind  # noqa: E402
from ragix_core.core.types import PlanStep, StepStatus, ToolCall, ToolResult  # noqa: E402
from ragix_core.eval.matching import find_patterns  # noqa: E402
from ragix_core.eval.suite import load_sources  # noqa: E402
from ragix_core.llm.config import LLMConfig  # noqa: E402
from ragix_core.llm.roles import Roles  # noqa: E402
from ragix_core.memory.traces import read_trace  # noqa: E402
from ragix_core.reasoning_v30 import agent_fns  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
SETS = ["file_search", "code_analysis", "bypass_question"]


def steps_from_trace(path: Path) -> list:
    steps = []
    for event in read_trace(path):
        if event.get("kind") != EventKind.STEP_EXECUTED.value:
            continue
        data = event["data"].get("event", event["data"])
        command = data.get("tool_input") or ""
        step = PlanStep(len(steps) + 1, data.get("step_description") or "", ToolCall("shell", {"command": command}))
        step.result = ToolResult("shell", data.get("returncode") or 0, stdout=data.get("stdout") or "",
                                 stderr=data.get("stderr") or "", command=command)
        step.status = StepStatus.SUCCESS if data.get("outcome_status") == "success" else StepStatus.FAILED
        steps.append(step)
    return steps


class _Project:
    """What the writer needs of a toolbox: the project root (grounding checks files exist)."""
    allowed_tools: list = []

    def __init__(self, root: Path):
        self.root = root


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("trace_dir", type=Path)
    ap.add_argument("prompt", nargs="+", type=Path, help="compose_answer prompt files to compare")
    args = ap.parse_args()
    scenarios = {s.id: s for s in load_sources([str(ROOT / "tests" / "reasoning_v30" / "scenarios" / f"{n}.yaml")
                                                for n in SETS])}
    writer = Roles(LLMConfig()).get("worker")
    shipped = prompts.render
    texts = {p.name: p.read_text() for p in args.prompt}
    score = {name: 0 for name in texts}
    runs = 0
    for trace in sorted(args.trace_dir.glob("*-1.jsonl")):
        scenario = scenarios.get(trace.name[:-len("-1.jsonl")])
        if scenario is None or scenario.cwd is None:
            continue
        steps = steps_from_trace(trace)
        if not any(s.status == StepStatus.SUCCESS and (s.result.stdout or "").strip() for s in steps):
            continue
        runs += 1
        for name, text in texts.items():
            agent_fns.prompts.render = (lambda t: lambda n, **kw: prompts.render_text(t, **kw)
                                        if n == "compose_answer" else shipped(n, **kw))(text)
            try:
                fns = agent_fns.AgentFunctions(planner=writer, worker=writer, verifier=writer,
                                               toolbox=_Project(Path(scenario.cwd)))
                answer = fns.compose_for(scenario.input, steps)
            finally:
                agent_fns.prompts.render = shipped
            _, missing = find_patterns(answer, scenario.expected_patterns)
            bad, _ = find_patterns(answer, scenario.forbidden_patterns or [])
            ok = not missing and not bad
            score[name] += ok
            print(f"{name:<24} {scenario.id:<28} {'PASS' if ok else 'fail'} | {answer[:120]!r}", flush=True)
    print(json.dumps({"benchmark": "writer_prompt", "runs": runs, "passed": score}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
