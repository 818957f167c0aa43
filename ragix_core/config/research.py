"""The `research:` section of ragix.yaml, and the shape of a `--sources FILE` (spec 004 Phase 1).

    research:
      reasoning: {max_iterations: 3, analyst_timeout: 240, critic_timeout: 180, writer_timeout: 180}   # the defaults
      sources: {"docs/**": "Vendor docs", "forum/**": "Forum"}        # path glob -> source name
      source_tiers: {"Vendor docs": {tier: 1, type: official}, "Forum": {tier: 5, type: social}}
      mode_configs: {strict: {max_tier: 2}, discovery: {max_tier: 5}, monitor: {compare_tiers: [1, 5]}}
      retrieval: {k: 6, gap_k: 4, max_gap_queries: 2, max_context_chunks: 10}

A sources file has the same keys at its top level. It lives with the config loader (not
in ``ragix_core.research``) because the loader validates every section and must not
import an engine package. Unknown keys fail with their path, like every section.
"""

from __future__ import annotations

from typing import Dict, List, Literal, Optional

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

__all__ = ["ResearchSection", "ResearchParams", "TierInfo", "ModeConfig", "RetrievalParams", "MODES"]

MODES = ("strict", "discovery", "monitor")


class _Section(BaseModel):
    model_config = ConfigDict(extra="forbid", validate_assignment=True)


class ResearchParams(_Section):
    """Spec 004's ``reasoning:`` keys. Timeouts are per model call, in seconds; the spec's 60/30/45
    are too short for a 1.5B model on two CPU cores (a 1,500-token prompt alone takes ~30 s), so
    the defaults are larger (docs/DECISIONS.md)."""

    enabled: bool = True
    max_iterations: int = Field(3, ge=1, le=10)
    analyst_timeout: float = Field(240.0, gt=0, le=3600)
    critic_timeout: float = Field(180.0, gt=0, le=3600)
    writer_timeout: float = Field(180.0, gt=0, le=3600)
    critic_llm: bool = True  # ask the model's opinion after the deterministic checks pass
    writer_llm: bool = True  # let the model phrase the report (checked; falls back to the draft)
    # A revision that repeats a rejected answer word for word is asked again at this temperature in the next
    # round (greedy decoding shown the same facts writes the same draft: docs/DECISIONS.md); 0 = never.
    repeat_temperature: float = Field(0.7, ge=0, le=2)
    # A question the loop could not answer is split into the questions it asks (one short call), and each is
    # researched on its own (research/parts.py); false = a decline stands.
    decompose: bool = True


class TierInfo(_Section):
    tier: int = Field(..., ge=1, le=5)
    type: str = Field("unknown", min_length=1, max_length=40)


class ModeConfig(_Section):
    max_tier: int = Field(5, ge=1, le=5)
    compare_tiers: Optional[List[int]] = None

    @field_validator("compare_tiers")
    @classmethod
    def _two_tiers(cls, value: Optional[List[int]]) -> Optional[List[int]]:
        if value is not None and (len(value) != 2 or not all(1 <= t <= 5 for t in value) or value[0] >= value[1]):
            raise ValueError("compare_tiers must be two tiers from 1 to 5, the more credible first, e.g. [1, 5]")
        return value


def _default_modes() -> Dict[str, ModeConfig]:
    return {"strict": ModeConfig(max_tier=2), "discovery": ModeConfig(max_tier=5),
            "monitor": ModeConfig(max_tier=5, compare_tiers=[1, 5])}


class RetrievalParams(_Section):
    k: int = Field(6, ge=1, le=50)  # chunks from the first search
    gap_k: int = Field(4, ge=1, le=50)  # chunks per gap-search query
    max_gap_queries: int = Field(2, ge=0, le=10)  # queries run per SEARCH_REQUIRED
    max_context_chunks: int = Field(10, ge=1, le=100)  # chunks shown to the agents at most
    max_context_chars: int = Field(7000, ge=500, le=200_000)  # of chunk text in one prompt (n_ctx 4096)


class ResearchSection(_Section):
    reasoning: ResearchParams = Field(default_factory=ResearchParams)
    default_mode: Literal["strict", "discovery", "monitor"] = "discovery"
    sources: Dict[str, str] = Field(default_factory=dict)
    source_tiers: Dict[str, TierInfo] = Field(default_factory=dict)
    mode_configs: Dict[str, ModeConfig] = Field(default_factory=_default_modes)
    retrieval: RetrievalParams = Field(default_factory=RetrievalParams)

    @field_validator("mode_configs")
    @classmethod
    def _known_modes(cls, value: Dict[str, ModeConfig]) -> Dict[str, ModeConfig]:
        unknown = [m for m in value if m not in MODES]
        if unknown:
            raise ValueError(f"unknown mode(s) {', '.join(unknown)}; modes are: {', '.join(MODES)}")
        merged = _default_modes()
        merged.update(value)  # a file that configures one mode keeps the others' defaults
        return merged

    @model_validator(mode="after")
    def _sources_have_tiers(self) -> "ResearchSection":
        missing = sorted({name for name in self.sources.values() if name not in self.source_tiers})
        if missing:
            raise ValueError(f"sources without a tier in source_tiers: {', '.join(missing)}")
        return self
