"""benchmarks/parallel_draws.py: both ways draw every seed once and count what was generated; a failed draw
ends the benchmark instead of passing for a fast one."""

import sys
import threading
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from benchmarks import parallel_draws as bench  # noqa: E402
from ragix_core.llm.base import Completion, LLMTimeout, Usage  # noqa: E402


class Client:
    """Replies with as many completion tokens as the seed; ``fail`` seeds raise as a backend would."""

    def __init__(self, fail=()):
        self.seeds, self.fail, self.lock = [], set(fail), threading.Lock()

    def complete(self, messages, *, max_tokens, temperature, seed, stop):
        with self.lock:
            self.seeds.append(seed)
        if seed in self.fail:
            raise LLMTimeout("no complete reply within 1s")
        assert temperature > 0 and stop  # sampled draws, stopped at the command's closing fence
        return Completion(text="```sh\nls\n", usage=Usage(10, seed, 0))


@pytest.mark.parametrize("way", [bench.sequential, bench.concurrent])
def test_each_way_draws_every_seed_once_and_sums_the_generated_tokens(way):
    client = Client()
    wall, tokens = way(client, "prompt", [3, 5, 7])
    assert sorted(client.seeds) == [3, 5, 7] and tokens == 15 and wall >= 0


def test_a_failed_concurrent_draw_ends_the_benchmark_naming_the_error():
    with pytest.raises(SystemExit, match="a concurrent draw failed: no complete reply"):
        bench.concurrent(Client(fail={5}), "prompt", [3, 5, 7])


def test_fewer_than_two_draws_is_refused_before_any_model_loads(capsys):
    with pytest.raises(SystemExit):
        bench.main(["--draws", "1"])
    assert "--draws must be at least 2" in capsys.readouterr().err
