"""GSM8K-style word problems generated offline by ``reasoning-gym`` (``gsm_symbolic``).

The generator is seeded, so the same (size, seed) gives the same problems on
every machine. The checker compares the last number of the reply with the
reference answer. Problems run in an empty working directory: no tools are needed.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import List, Tuple

from ragix_core.eval.benchmarks.answers import last_number, numbers_equal
from ragix_core.eval.scenario import Scenario

__all__ = ["gsm_scenarios", "DEFAULT_SEED"]

DEFAULT_SEED = 42


@dataclass(frozen=True)
class NumberChecker:
    """The answer's last number equals ``expected`` (an object, not a closure: sent to workers with --jobs)."""
    expected: str

    def __call__(self, answer: str, workdir: Path) -> Tuple[bool, str]:
        got = last_number(answer)
        return (numbers_equal(answer, self.expected),
                f"expected {self.expected}, got {got if got is not None else 'no number'}")


def gsm_scenarios(size: int = 20, seed: int = DEFAULT_SEED) -> List[Scenario]:
    try:
        import reasoning_gym
    except ImportError as exc:
        from ragix_core.eval.benchmarks.errors import BenchmarkError

        raise BenchmarkError(f"gsm needs the 'reasoning-gym' package (pip install 'ragix[eval]'): {exc}") from None
    data = reasoning_gym.create_dataset("gsm_symbolic", size=size, seed=seed)
    out: List[Scenario] = []
    for i, entry in enumerate(data):
        expected = str(entry["answer"])
        out.append(Scenario(
            id=f"gsm-{seed}-{i}",
            input=str(entry["question"]),
            description="gsm_symbolic (reasoning-gym)",
            max_steps=10,
            complexity=None,  # unlabelled: whether a calculator step helps is the engine's call
            source=f"reasoning-gym gsm_symbolic seed={seed}",
            category="gsm_symbolic",
            empty_workdir=True,
            checker=NumberChecker(expected),
        ))
    return out
