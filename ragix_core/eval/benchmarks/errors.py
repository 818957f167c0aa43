"""The one error of the benchmark adapters (its own module: the registry imports the adapters)."""

__all__ = ["BenchmarkError"]


class BenchmarkError(ValueError):
    """A benchmark spec is invalid or its data is not available."""
