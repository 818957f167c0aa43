"""Rescore reports under the rule that a run which found no answer said nothing (eval/evaluate.py).

Before it, a run that ended with the Partial Results report (ragix's account of what it tried) was judged
on that report's text: its "Step 1", a command's "-n 1", a quoted `echo "False"` or "0 recovery
attempt(s)" could pass a task whose answer is that word. Now such a run is judged with an empty answer;
what its commands printed still counts where the benchmark reads outputs (NL2Bash read tasks).

Each passed run whose answer is that report is judged again: AgentBench and the paraphrase set read the
answer only, so it fails; an NL2Bash read task is judged on the outputs the report quotes (each command's
output, cut at 200 characters, and the successful steps' outputs), which is what the harness passes the
checker now, give or take the cut; an NL2Bash write task is judged on the tree, so it stands.

    python benchmarks/results/issue34/rescore_no_answer.py REPORT.json [REPORT.json ...] [--out DIR]

With --out, each report is also written to DIR under its own name, rescored (for engine_vs_plain.py).
"""
import json
import re
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))
from ragix_core.eval.benchmarks.nl2bash import nl2bash_scenarios  # noqa: E402

HEADING = "## Partial Results"
_COMMAND_OUTPUT = re.compile(r"^- `.*?`: (.*)$")


def quoted_outputs(report: str) -> list:
    """What the report shows the commands printed: '- `cmd`: output' lines and the Partial Output blocks."""
    outs = [m.group(1) for line in report.splitlines() if (m := _COMMAND_OUTPUT.match(line))]
    tail = report.split("### Partial Output", 1)[-1]
    outs += [block.split(":\n", 1)[1] for block in tail.split("\n\n") if block.startswith("Step ") and ":\n" in block]
    return [o for o in outs if o and o not in ("(no output)", "(no matches)")]


def main(paths, out=None) -> None:
    checkers = None
    for path in paths:
        report = json.load(open(path))
        before, after = Counter(), Counter()
        for s in report["scenarios"]:
            before[s["strategy"]] += s["passed"]
            passed = s["passed"]
            if passed and (s["final_answer"] or "").startswith(HEADING):
                if s["id"].startswith("nl2bash-"):
                    if not (s.get("checker_detail") or "").startswith("the tree is"):
                        if checkers is None:
                            checkers = {sc.id: sc.checker for sc in nl2bash_scenarios()}
                        passed, detail = checkers[s["id"]]("", Path("."), outputs=quoted_outputs(s["final_answer"]))
                else:
                    passed = False
                if not passed:
                    print(f"{Path(path).name}: {s['strategy']} {s['id']} was a pass on its report's text; now fails")
                    s["passed"] = False
                    s["failure"] = list(s.get("failure") or []) + ["rescored: a report of what was tried is no answer"]
            after[s["strategy"]] += passed
        runs = Counter(s["strategy"] for s in report["scenarios"])
        print(f"{Path(path).name}: " + "; ".join(f"{k} {before[k]} -> {after[k]} of {runs[k]}" for k in sorted(runs)))
        if out:
            json.dump(report, open(Path(out) / Path(path).name, "w"), indent=1)


if __name__ == "__main__":
    args = sys.argv[1:]
    out_dir = args[args.index("--out") + 1] if "--out" in args else None
    main([a for a in args if a not in ("--out", out_dir)], out_dir)
