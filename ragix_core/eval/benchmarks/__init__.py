"""External benchmarks as harness scenarios: each task becomes a goal, a working
directory (set up by ``Scenario.setup``) and a checker (``Scenario.checker``).
Data comes from registry packages; nothing is downloaded at run time."""

from ragix_core.eval.benchmarks.answers import last_number, numbers_equal
from ragix_core.eval.benchmarks.registry import BenchmarkError, benchmark_scenarios, parse_bench_spec

__all__ = ["BenchmarkError", "benchmark_scenarios", "parse_bench_spec", "last_number", "numbers_equal"]
