"""Hard filters applied to the context before any agent sees it (spec 004 §3.2)."""

from .source_tier import NoValidSourcesError, SourceTierFilter

__all__ = ["SourceTierFilter", "NoValidSourcesError"]
