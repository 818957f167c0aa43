"""Sampling, clustering and agreement: k samples -> clusters -> entropy.

One module used by every engine that votes: the shell engines' execution
voting (cluster commands by the output they produced) and the tree engine's
entropy (cluster answers by meaning). See ``docs/SAMPLING.md`` for the formulas.

    from ragix_core.sampling import adaptive_sample, cluster, entropy
"""

from ragix_core.sampling.clusters import Cluster, agreement, cluster, cluster_by_similarity, entropy
from ragix_core.sampling.draw import SampleRun, StopSampling, adaptive_sample
from ragix_core.sampling.normalize import (SIMILARITIES, exact_similarity, normalize_answer, normalize_output,
                                          sequence_similarity, short_output_key, similarity,
                                          token_jaccard)

__all__ = [
    "Cluster",
    "cluster",
    "cluster_by_similarity",
    "entropy",
    "agreement",
    "SampleRun",
    "StopSampling",
    "adaptive_sample",
    "normalize_output",
    "short_output_key",
    "normalize_answer",
    "token_jaccard",
    "sequence_similarity",
    "exact_similarity",
    "similarity",
    "SIMILARITIES",
]
