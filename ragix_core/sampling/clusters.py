"""Grouping samples that agree, and measuring how much they disagree.

Formulas (docs/SAMPLING.md):
- clusters are groups of samples with the same key (exact clustering) or
  linked to a cluster's first member by similarity >= threshold (greedy);
- with cluster sizes n_1..n_m over n samples, p_i = n_i / n;
- entropy H = -sum p_i ln p_i, normalised by ln n (the most samples can
  disagree): 0 when all agree, 1 when every sample stands alone; n <= 1 gives 0;
- agreement = n_1 / n for the largest cluster.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Callable, Generic, Hashable, Iterable, List, Sequence, TypeVar

__all__ = ["Cluster", "cluster", "cluster_by_similarity", "entropy", "agreement"]

T = TypeVar("T")


@dataclass
class Cluster(Generic[T]):
    key: Hashable  # what the members share (the normalised output / answer of the first member)
    members: List[T] = field(default_factory=list)

    @property
    def size(self) -> int:
        return len(self.members)

    @property
    def representative(self) -> T:
        """The first member drawn: the answer reported for the cluster."""
        return self.members[0]


def _ordered(clusters: List[Cluster[T]]) -> List[Cluster[T]]:
    # Largest first; ties keep draw order (the earliest cluster wins), so results are deterministic.
    return sorted(clusters, key=lambda c: -c.size)


def cluster(items: Iterable[T], key: Callable[[T], Hashable]) -> List[Cluster[T]]:
    """Group ``items`` by ``key``; largest cluster first."""
    by_key: dict = {}
    out: List[Cluster[T]] = []
    for item in items:
        k = key(item)
        c = by_key.get(k)
        if c is None:
            c = by_key[k] = Cluster(k)
            out.append(c)
        c.members.append(item)
    return _ordered(out)


def cluster_by_similarity(items: Iterable[T], text: Callable[[T], str], similarity: Callable[[str, str], float],
                          threshold: float) -> List[Cluster[T]]:
    """Greedy clustering: each item joins the first cluster whose representative is at least
    ``threshold`` similar to it, else starts its own. Largest cluster first."""
    out: List[Cluster[T]] = []
    for item in items:
        t = text(item)
        for c in out:
            if similarity(str(c.key), t) >= threshold:
                c.members.append(item)
                break
        else:
            out.append(Cluster(t, [item]))
    return _ordered(out)


def entropy(clusters: Sequence[Cluster]) -> float:
    """Normalised Shannon entropy of the cluster sizes, in [0, 1]."""
    n = sum(c.size for c in clusters)
    if n <= 1:
        return 0.0
    h = -sum((c.size / n) * math.log(c.size / n) for c in clusters if c.size)
    return max(0.0, min(1.0, h / math.log(n)))


def agreement(clusters: Sequence[Cluster]) -> float:
    """Share of the samples in the largest cluster (1.0 when there is none)."""
    n = sum(c.size for c in clusters)
    return max((c.size for c in clusters), default=0) / n if n else 1.0
