"""Drawing samples until they agree (Adaptive-Consistency, arXiv 2305.11860).

``adaptive_sample`` calls ``draw(i)`` for i = 0, 1, ... and stops as soon as
``quorum`` usable samples share a key, or after ``k_max`` draws. A draw may
return None (a sample that failed: a command refused or erroring, a reply that
did not parse): it costs a draw and joins no cluster. With ``k_max = 1`` it is
a single greedy call.

``group`` (optional) replaces exact clustering by key, for the stopping rule and the
result alike: e.g. ``lambda xs: cluster_by_similarity(xs, text, sim, 0.6)`` for answers
that agree without being equal strings.

``empty`` (optional) marks samples that carry no evidence (a search that matched
nothing). Two commands that both find nothing have not confirmed anything: they agree
on an absence, which a wrong path or pattern produces as easily as a right one. So an
empty sample never makes the quorum (sampling goes on to ``k_max`` looking for one
that finds something), and any cluster with evidence ranks above every empty one.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Generic, Hashable, List, Optional, Sequence, TypeVar

from ragix_core.sampling.clusters import Cluster, agreement, cluster, entropy

__all__ = ["SampleRun", "StopSampling", "adaptive_sample"]

T = TypeVar("T")


@dataclass
class SampleRun(Generic[T]):
    draws: int  # calls made, failed ones included
    samples: List[T] = field(default_factory=list)  # usable samples, in draw order
    clusters: List[Cluster[T]] = field(default_factory=list)  # of the usable samples, largest first
    stopped: str = ""  # "agreed" | "budget" | "exhausted" (a draw asked to stop early)
    empty_keys: frozenset = frozenset()  # keys of the clusters whose samples carry no evidence

    @property
    def best_is_empty(self) -> bool:
        """The winner is an agreement on finding nothing (every usable sample was empty)."""
        return self.best is not None and self.best.key in self.empty_keys

    @property
    def best(self) -> Optional[Cluster[T]]:
        return self.clusters[0] if self.clusters else None

    @property
    def entropy(self) -> float:
        return entropy(self.clusters)

    @property
    def agreement(self) -> float:
        return agreement(self.clusters)

    def summary(self) -> str:
        """For the answer and the trace: "3 commands ran, 2 agreed"."""
        if not self.samples:
            return f"{self.draws} drawn, none usable"
        best = self.best.size if self.best else 0
        return f"{len(self.samples)} usable of {self.draws} drawn, {best} agreed"


class StopSampling(Exception):
    """Raised by ``draw`` to end sampling early (e.g. the token budget is spent)."""


def adaptive_sample(draw: Callable[[int], Optional[T]], key: Callable[[T], Hashable], *, k_max: int,
                    quorum: int = 2,
                    group: Optional[Callable[[Sequence[T]], List[Cluster[T]]]] = None,
                    empty: Optional[Callable[[T], bool]] = None) -> SampleRun[T]:
    if k_max < 1 or quorum < 1:
        raise ValueError(f"k_max and quorum must be >= 1 (got {k_max}, {quorum})")
    if group is not None and empty is not None:
        raise ValueError("empty is for exact clustering by key; a group function decides its own clusters")
    run: SampleRun[T] = SampleRun(draws=0)
    counts: dict = {}
    empty_keys: set = set()
    for i in range(k_max):
        try:
            item = draw(i)
        except StopSampling:
            run.stopped = "exhausted"
            break
        run.draws += 1
        if item is None:
            continue
        run.samples.append(item)
        if group is not None:
            largest = max((c.size for c in group(run.samples)), default=0)
        else:
            k = key(item)
            counts[k] = counts.get(k, 0) + 1
            largest = counts[k]
            if empty is not None and empty(item):
                empty_keys.add(k)
                largest = 0  # agreeing on nothing found confirms nothing
        if largest >= quorum:
            run.stopped = "agreed"
            break
    else:
        run.stopped = "budget"
    run.clusters = group(run.samples) if group is not None else cluster(run.samples, key)
    if empty_keys:
        # Stable sort: clusters with evidence first, each part still largest first, then draw order.
        run.clusters.sort(key=lambda c: c.key in empty_keys)
        run.empty_keys = frozenset(empty_keys)
    return run
