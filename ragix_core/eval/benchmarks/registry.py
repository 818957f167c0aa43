"""Benchmark specs on the command line: ``bench:NAME[:ARG[:ARG]]``.

    bench:agentbench           AgentBench OS, test split
    bench:agentbench:dev       AgentBench OS, dev split
    bench:nl2bash              InterCode-ALFA NL2Bash, fixtures fs_1 and fs_5
    bench:nl2bash:fs_1         one fixture (fs_1 or fs_5)
    bench:gsm                  20 gsm_symbolic problems, seed 42
    bench:gsm:50:7             50 problems, seed 7
    bench:paraphrase           the paraphrase set: every fact about sqlparse's tree, each asked 3 ways
    bench:paraphrase:10        its first 10 facts (30 scenarios)
"""

from __future__ import annotations

from typing import List, Optional, Tuple

from ragix_core.eval.benchmarks.errors import BenchmarkError
from ragix_core.eval.scenario import Scenario

__all__ = ["BenchmarkError", "parse_bench_spec", "benchmark_scenarios", "BENCH_PREFIX"]

BENCH_PREFIX = "bench:"


def parse_bench_spec(spec: str) -> Tuple[str, List[str]]:
    if not spec.startswith(BENCH_PREFIX):
        raise BenchmarkError(f"{spec!r}: a benchmark spec starts with {BENCH_PREFIX!r}")
    parts = spec[len(BENCH_PREFIX):].split(":")
    return parts[0], parts[1:]


def _int(value: str, what: str, spec: str) -> int:
    try:
        n = int(value)
    except ValueError:
        raise BenchmarkError(f"{spec!r}: {what} must be an integer, got {value!r}") from None
    if n < 0:
        raise BenchmarkError(f"{spec!r}: {what} must be >= 0")
    return n


def benchmark_scenarios(spec: str, skipped: Optional[List[Tuple[str, str]]] = None) -> List[Scenario]:
    name, args = parse_bench_spec(spec)
    if name == "agentbench":
        from ragix_core.eval.benchmarks.agentbench import agentbench_scenarios

        if len(args) > 1:
            raise BenchmarkError(f"{spec!r}: expected bench:agentbench[:dev|test]")
        return agentbench_scenarios(args[0] if args else "test", skipped=skipped)
    if name == "nl2bash":
        from ragix_core.eval.benchmarks.nl2bash import FIXTURES, nl2bash_scenarios

        if len(args) > 1 or (args and args[0] not in FIXTURES):
            raise BenchmarkError(f"{spec!r}: expected bench:nl2bash[:{'|'.join(FIXTURES)}]")
        return nl2bash_scenarios(tuple(args) or FIXTURES, skipped=skipped)
    if name == "gsm":
        from ragix_core.eval.benchmarks.gsm import DEFAULT_SEED, gsm_scenarios

        if len(args) > 2:
            raise BenchmarkError(f"{spec!r}: expected bench:gsm[:SIZE[:SEED]]")
        size = _int(args[0], "size", spec) if args else 20
        seed = _int(args[1], "seed", spec) if len(args) > 1 else DEFAULT_SEED
        return gsm_scenarios(size, seed)
    if name == "paraphrase":
        from ragix_core.eval.benchmarks.paraphrase import paraphrase_scenarios

        if len(args) > 1:
            raise BenchmarkError(f"{spec!r}: expected bench:paraphrase[:FACTS]")
        return paraphrase_scenarios(_int(args[0], "the number of facts", spec) if args else None)
    raise BenchmarkError(f"{spec!r}: unknown benchmark {name!r}; known: agentbench, gsm, nl2bash, paraphrase")
