"""benchmarks/research_bench.py builds the model it is told to: --threads reaches the embedded client
(two model jobs on a 2-core machine each need 1 thread, or they wait for each other at every token)."""

import argparse
import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from benchmarks import research_bench as bench  # noqa: E402


def test_threads_reach_the_embedded_client_and_default_to_every_core():
    # the client is built, the model is not loaded (that happens at the first call)
    assert bench.make_model(argparse.Namespace(model=None, threads=1)).threads == 1
    assert bench.make_model(argparse.Namespace(model=None, threads=None)).threads == len(os.sched_getaffinity(0))

