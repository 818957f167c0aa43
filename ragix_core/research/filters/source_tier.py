"""Source-credibility tiers as a hard filter, and the tier tag on every context item (spec 004 §3.2).

- strict: drops items above the mode's ``max_tier`` (2) and items of unknown sources;
  ``NoValidSourcesError`` when nothing is left;
- discovery: keeps every item up to ``max_tier`` (5), unknown sources included, and marks
  tiers 3–5 and unknown sources with a warning;
- monitor: keeps every item up to ``max_tier`` (5), so tier ``compare_tiers[0]`` can be set
  against tier ``compare_tiers[1]``.

Each kept item is a copy with ``_reasoning_metadata`` = ``{tier, type, original_source}`` and
its description prefixed ``[Tier X | type]`` (``[Tier ? | unknown]`` for an unknown source).
An item's source is its ``site`` (NLWeb items) or its ``source`` key.
"""

from __future__ import annotations

from typing import Any, Dict, List, Mapping, Optional

__all__ = ["SourceTierFilter", "NoValidSourcesError", "WARNING", "UNKNOWN"]

WARNING = "(unverified source) "
UNKNOWN = "unknown"
_DEFAULT_MODES = {"strict": {"max_tier": 2}, "discovery": {"max_tier": 5}, "monitor": {"max_tier": 5}}


class NoValidSourcesError(ValueError):
    """Strict mode left no item: every candidate was above the tier limit or of an unknown source."""


def _plain(value: Any) -> Dict[str, Any]:
    return value.model_dump() if hasattr(value, "model_dump") else dict(value)


class SourceTierFilter:
    def __init__(self, source_tiers: Mapping[str, Any], mode_configs: Optional[Mapping[str, Any]] = None) -> None:
        self.source_tiers = {name: _plain(info) for name, info in (source_tiers or {}).items()}
        self.mode_configs = {**_DEFAULT_MODES, **{m: _plain(c) for m, c in (mode_configs or {}).items()}}

    def get_tier(self, source: str) -> Optional[int]:
        """The source's tier, or None when the source is not in ``source_tiers``."""
        info = self.source_tiers.get(source)
        return int(info["tier"]) if info else None

    def _type(self, source: str) -> str:
        info = self.source_tiers.get(source)
        return str(info.get("type") or UNKNOWN) if info else UNKNOWN

    def max_tier(self, mode: str) -> int:
        if mode not in self.mode_configs:
            raise ValueError(f"unknown research mode {mode!r}; modes are: {', '.join(self.mode_configs)}")
        return int(self.mode_configs[mode].get("max_tier") or 5)

    def allows(self, source: str, mode: str) -> bool:
        """Would an item of ``source`` be kept in ``mode``? (The same rule as ``filter_and_enrich``.)"""
        tier = self.get_tier(source)
        if tier is None:
            return mode != "strict"
        return tier <= self.max_tier(mode)

    def filter_and_enrich(self, items: List[Any], mode: str) -> List[Dict[str, Any]]:
        limit = self.max_tier(mode)
        kept: List[Dict[str, Any]] = []
        dropped = 0
        for item in items:
            item = dict(item)
            source = str(item.get("site") or item.get("source") or UNKNOWN)
            tier = self.get_tier(source)
            if (tier is None and mode == "strict") or (tier is not None and tier > limit):
                dropped += 1
                continue
            kind = self._type(source)
            item["_reasoning_metadata"] = {"tier": tier, "type": kind, "original_source": source}
            tag = f"[Tier {tier if tier is not None else '?'} | {kind}] "
            warn = WARNING if mode == "discovery" and (tier is None or tier >= 3) else ""
            item["description"] = tag + warn + str(item.get("description") or "")
            kept.append(item)
        if mode == "strict" and not kept:
            raise NoValidSourcesError(
                f"strict mode keeps only sources of tier <= {limit} listed in source_tiers; "
                f"all {dropped} candidate item(s) were of a higher tier or an unknown source"
                if dropped else "strict mode: no candidate items to filter")
        return kept
