"""Spec 000 §6's config section, at the path the spec gives it.

Every engine and the config loader read it, so it lives in
``ragix_core.config.reasoning``; this module re-exports the same objects.
"""

from ragix_core.config.reasoning import (  # noqa: F401
    ExperienceSection,
    GraphSection,
    MaxReflections,
    ReasoningConfig,
    ReflectSection,
    TracesSection,
)

__all__ = ["ReasoningConfig", "MaxReflections", "GraphSection", "ReflectSection", "ExperienceSection",
           "TracesSection"]
