"""Helpers of the research engine (spec 004 Phase 2: utils/)."""

from .iteration_logger import IterationLogger

__all__ = ["IterationLogger"]
