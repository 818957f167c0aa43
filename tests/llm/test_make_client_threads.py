"""make_client(spec, threads=N): the benchmarks' way to run two model jobs on two cores, one thread each."""

from ragix_core.llm.factory import make_client


def test_make_client_gives_threads_to_an_embedded_model_only():
    assert make_client("/models/x.gguf", threads=1).threads == 1  # a path: the embedded backend (not loaded yet)
    assert make_client(None, threads=1).threads == 1
    assert make_client("ollama:qwen2.5:7b", threads=1).backend == "ollama"  # a server keeps its own threads
