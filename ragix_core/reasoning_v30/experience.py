"""Spec 000 §5's experience corpus, at the path the spec gives it.

The corpus is memory, shared by every engine, so it lives in
``ragix_core.memory.experience``; this module re-exports the same objects.
"""

from ragix_core.memory.experience import (  # noqa: F401
    CorpusWriteError,
    Experience,
    ExperienceCorpus,
    HybridExperienceCorpus,
    Pattern,
    ScoredEvent,
)

__all__ = ["ExperienceCorpus", "HybridExperienceCorpus", "ScoredEvent", "CorpusWriteError", "Experience", "Pattern"]
