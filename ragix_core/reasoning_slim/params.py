"""The ContractiveReasoner's parameters (spec 002 §10.1) and its named presets (§4 "3.7").

Every bound the engine obeys is here, with the spec's defaults. ``ContractiveParams``
validates on construction, so a bad value (a threshold outside [0, 1], a depth below
zero, an unknown preset) is a clear ``ValueError`` before any model is called.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields, replace
from typing import Any, Dict, Mapping, Optional

__all__ = ["ContractiveParams", "PRESETS", "preset", "preset_names"]


@dataclass(frozen=True)
class ContractiveParams:
    # Tree structure (spec 002 §10.1 defaults)
    max_depth: int = 4
    max_loops: int = 10  # decompose→collapse cycles (rebranches included) over the whole tree
    max_global_tokens: int = 64_000
    max_branch_tokens: int = 16_000  # one child subtree's token limit
    max_concurrent_branches: int = 4  # model calls in flight at once, across branches
    # Entropy thresholds (docs/CONTRACTIVE.md has the formulas)
    entropy_decompose_threshold: float = 0.5
    entropy_collapse_threshold: float = 0.4
    entropy_gamma_min_reduction: float = 0.05
    k_entropy_samples: int = 4
    # Semantic filtering
    min_relevance_threshold: float = 0.15
    max_rebranch_attempts: int = 2
    # Timeouts
    timeout_sec: float = 120.0  # per model call
    # Beyond the spec table, all with defaults:
    max_children: int = 3  # sub-questions per decomposition
    sample_temperature: float = 0.7  # draws after the first (the first is greedy)
    quorum: int = 2  # adaptive sampling stops once this many samples agree
    answer_max_tokens: int = 320
    reasoning: bool = True  # each sample reasons briefly before its answer (False: the answer alone)
    similarity: str = "sequence"  # answer clustering: "sequence" | "jaccard" | "exact" (docs/CONTRACTIVE.md)
    similarity_threshold: float = 0.85  # measured: docs/RESULTS.md (a swapped knights answer scores 0.78)
    peer_review: bool = False  # ask the peer role to review children before collapse
    max_peer_calls: int = 8
    peer_max_tokens: int = 160
    clarify: bool = False  # at the root: divergent readings → ask instead of guessing (S6)

    def __post_init__(self) -> None:
        def need(ok: bool, what: str) -> None:
            if not ok:
                raise ValueError(f"ContractiveParams: {what}")

        need(0 <= self.max_depth <= 8, f"max_depth must be 0..8 (got {self.max_depth})")
        need(0 <= self.max_loops <= 100, f"max_loops must be 0..100 (got {self.max_loops})")
        need(self.max_global_tokens >= 100, f"max_global_tokens must be >= 100 (got {self.max_global_tokens})")
        need(self.max_branch_tokens >= 100, f"max_branch_tokens must be >= 100 (got {self.max_branch_tokens})")
        need(1 <= self.max_concurrent_branches <= 64, "max_concurrent_branches must be 1..64")
        for name in ("entropy_decompose_threshold", "entropy_collapse_threshold", "entropy_gamma_min_reduction",
                     "min_relevance_threshold", "similarity_threshold"):
            value = getattr(self, name)
            need(0.0 <= value <= 1.0, f"{name} must be in [0, 1] (got {value})")
        need(1 <= self.k_entropy_samples <= 16, f"k_entropy_samples must be 1..16 (got {self.k_entropy_samples})")
        need(1 <= self.quorum <= self.k_entropy_samples or self.k_entropy_samples == 1,
             f"quorum must be 1..k_entropy_samples (got {self.quorum})")
        need(0 <= self.max_rebranch_attempts <= 10, "max_rebranch_attempts must be 0..10")
        need(0 < self.timeout_sec <= 3600, f"timeout_sec must be in (0, 3600] (got {self.timeout_sec})")
        need(2 <= self.max_children <= 6, "max_children must be 2..6")
        need(0.0 <= self.sample_temperature <= 2.0, "sample_temperature must be 0..2")
        need(32 <= self.answer_max_tokens <= 4096, "answer_max_tokens must be 32..4096")
        need(self.similarity in ("sequence", "jaccard", "exact"), f"similarity must be sequence|jaccard|exact "
                                                                 f"(got {self.similarity!r})")
        need(0 <= self.max_peer_calls <= 100, "max_peer_calls must be 0..100")
        need(32 <= self.peer_max_tokens <= 2048, "peer_max_tokens must be 32..2048")

    def with_overrides(self, **overrides: Any) -> "ContractiveParams":
        """A copy with ``overrides`` applied (None values ignored); unknown names fail."""
        known = {f.name for f in fields(self)}
        unknown = sorted(set(overrides) - known)
        if unknown:
            raise ValueError(f"unknown ContractiveReasoner parameter(s): {', '.join(unknown)}")
        return replace(self, **{k: v for k, v in overrides.items() if v is not None})

    def to_dict(self) -> Dict[str, Any]:
        return asdict(self)


# Spec 002 §4 "3.7" names six presets and says what each is for; these are the numbers.
# Thresholds: a lower decompose threshold decomposes more often. Samples: more samples
# estimate the entropy better and vote better, at k× the cost of one answer.
PRESETS: Dict[str, Dict[str, Any]] = {
    # Simple Q&A: decompose only on strong disagreement, few iterations.
    "factual": dict(max_depth=1, max_loops=2, k_entropy_samples=3, entropy_decompose_threshold=0.7,
                    max_rebranch_attempts=0, max_global_tokens=12_000),
    # Multi-step: lower threshold, more samples.
    "complex": dict(max_depth=2, max_loops=4, k_entropy_samples=5, quorum=3, entropy_decompose_threshold=0.45,
                    max_rebranch_attempts=1, max_global_tokens=32_000),
    # Mathematical: low threshold, deeper trees, exact answers.
    "math": dict(max_depth=3, max_loops=6, k_entropy_samples=4, entropy_decompose_threshold=0.35,
                 similarity="exact", max_rebranch_attempts=1, max_global_tokens=48_000),
    # Research: very low threshold, the spec's maximum depth.
    "exploration": dict(max_depth=4, max_loops=10, k_entropy_samples=4, entropy_decompose_threshold=0.2,
                        max_children=4, max_rebranch_attempts=2, max_global_tokens=64_000),
    # Quick responses: shallow, few iterations, few samples, answers without written reasoning
    # (a sample costs ~10 tokens instead of ~150; the split is the reasoning).
    "fast": dict(max_depth=1, max_loops=1, k_entropy_samples=3, entropy_decompose_threshold=0.5,
                 max_rebranch_attempts=0, max_children=2, reasoning=False, answer_max_tokens=80,
                 max_global_tokens=8_000, max_branch_tokens=3_000),
    # Thorough: deep trees, many iterations.
    "deep": dict(max_depth=4, max_loops=16, k_entropy_samples=6, quorum=3, entropy_decompose_threshold=0.4,
                 max_rebranch_attempts=3, max_global_tokens=96_000, max_branch_tokens=24_000),
}


def preset_names() -> tuple:
    return tuple(PRESETS)


def preset(name: Optional[str], **overrides: Any) -> ContractiveParams:
    """The parameters of preset ``name`` (None = the spec defaults), then ``overrides``."""
    base = ContractiveParams()
    if name:
        values: Optional[Mapping[str, Any]] = PRESETS.get(name)
        if values is None:
            raise ValueError(f"unknown preset {name!r}; presets: {', '.join(PRESETS)}")
        base = base.with_overrides(**values)
    return base.with_overrides(**overrides)
