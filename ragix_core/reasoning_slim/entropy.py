"""A node's entropy: how unreliable its direct answer looks (docs/CONTRACTIVE.md, "Entropy").

Three components, each in [0, 1]:

- ``model``: normalised Shannon entropy of the answer clusters of the k samples
  (``ragix_core.sampling.entropy``: -Σ p_i ln p_i / ln n);
- ``inconsistency``: 1 - agreement, the share of samples outside the largest cluster;
- ``structural``: ln(1 + w) / ln(1 + W_MAX) for a question of w words (spec 002 §4 "3.2"
  gives H_s = log len(Q); dividing by ln(1 + W_MAX) puts it on the same scale), capped at 1.

H = 0.6·model + 0.25·inconsistency + 0.15·structural. With no usable sample H = 1 (nothing
supports any answer). Model disagreement dominates on purpose: a long question the model
answers the same way k times is not a reason to decompose (Chen et al., arXiv 2402.10890:
tree search rarely pays for small models), while split samples are.
"""

from __future__ import annotations

import math
import re
from dataclasses import asdict, dataclass
from typing import Any, Dict, Sequence

from ragix_core.sampling import Cluster, agreement, entropy

__all__ = ["EntropyReport", "structural_entropy", "node_entropy", "WEIGHTS", "W_MAX"]

WEIGHTS = {"model": 0.6, "inconsistency": 0.25, "structural": 0.15}
W_MAX = 200  # words: a question this long (or longer) has structural entropy 1
_WORD = re.compile(r"\w+", re.UNICODE)


@dataclass(frozen=True)
class EntropyReport:
    model: float
    inconsistency: float
    structural: float
    total: float
    samples: int  # usable samples behind the figures
    clusters: int

    def to_dict(self) -> Dict[str, Any]:
        return {k: (round(v, 4) if isinstance(v, float) else v) for k, v in asdict(self).items()}


def structural_entropy(question: str) -> float:
    words = len(_WORD.findall(question or ""))
    return min(1.0, math.log1p(words) / math.log1p(W_MAX))


def node_entropy(question: str, clusters: Sequence[Cluster]) -> EntropyReport:
    n = sum(c.size for c in clusters)
    hs = structural_entropy(question)
    if n == 0:
        return EntropyReport(1.0, 1.0, hs, 1.0, 0, 0)
    hm = entropy(clusters)
    hc = 1.0 - agreement(clusters)
    total = WEIGHTS["model"] * hm + WEIGHTS["inconsistency"] * hc + WEIGHTS["structural"] * hs
    return EntropyReport(hm, hc, hs, max(0.0, min(1.0, total)), n, len(clusters))
