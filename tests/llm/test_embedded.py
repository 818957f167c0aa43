"""Conformance of the embedded backend on real models (SmolLM2 for speed, Qwen for one schema check)."""

from __future__ import annotations

import pytest

from ragix_core.llm.embedded import EmbeddedClient
from ragix_core.llm.jsonout import schema_errors
from ragix_core.llm.models import DEFAULT_MODEL, TEST_MODEL

from .conformance import ADD, ANSWER_SCHEMA, HELLO, SYSTEM, Conformance

pytestmark = pytest.mark.slow


class TestEmbeddedConformance(Conformance):
    @pytest.fixture
    def client(self, smol_embedded):
        return smol_embedded

    @pytest.fixture
    def endpoint(self, tmp_path):
        bad = tmp_path / "not-a-model.gguf"
        bad.write_bytes(b"GGUF" + b"\x00" * 64)  # right magic, nonsense header: the runtime must refuse it
        return str(bad)

    @pytest.fixture
    def down_client(self, endpoint):
        return EmbeddedClient(endpoint, n_ctx=512)

    @pytest.fixture
    def unknown_client(self):
        return EmbeddedClient("no-such-model-7b")


def test_same_model_is_loaded_once(smol_embedded):
    other = EmbeddedClient(TEST_MODEL, n_ctx=smol_embedded.n_ctx, threads=smol_embedded.threads)
    assert other.load() is smol_embedded.load()


def test_second_call_reuses_the_shared_system_prompt(smol_embedded):
    smol_embedded.complete([SYSTEM, {"role": "user", "content": "Name a colour."}], max_tokens=4)
    out = smol_embedded.complete([SYSTEM, {"role": "user", "content": "Name a fruit."}], max_tokens=4)
    # the system prompt's tokens were already in the slot's KV cache
    assert out.meta["cached_tokens"] > 0
    assert out.meta["cached_tokens"] < out.usage.prompt_tokens
    assert out.usage.cached_tokens == out.meta["cached_tokens"]  # reaches usage, hence the eval's computed tokens


def test_bad_messages_are_a_clear_error(smol_embedded):
    from ragix_core.llm import LLMError

    with pytest.raises(LLMError, match="messages"):
        smol_embedded.complete("hello")  # type: ignore[arg-type]


def test_schema_the_grammar_cannot_express_is_a_clear_error(smol_embedded):
    from ragix_core.llm import LLMError

    with pytest.raises(LLMError, match="rejected"):
        smol_embedded.complete(HELLO, schema={"type": "no-such-type"}, max_tokens=4)


def test_the_grammar_closes_a_string_at_its_max_length(smol_embedded):
    # what bounds a plan's commands and a reflection's fields (reasoning_v30/replies.py): a runaway
    # string is closed at maxLength and the reply stays JSON, instead of being cut by max_tokens
    schema = {"type": "object", "properties": {"command": {"type": "string", "maxLength": 40}}, "required": ["command"]}
    ask = [{"role": "user", "content": "Reply with a shell command that creates 300 files, naming every one "
                                       "of them explicitly: touch log1.txt log2.txt log3.txt and so on."}]
    out = smol_embedded.complete(ask, schema=schema, max_tokens=200)
    assert schema_errors(out.data, schema) == [] and 0 < len(out.data["command"]) <= 40


def test_default_model_schema_reply(qwen_path):
    """The shipped default model, constrained by a schema, answers a sum correctly."""
    client = EmbeddedClient(DEFAULT_MODEL, n_ctx=1024)
    out = client.complete(ADD, schema=ANSWER_SCHEMA, max_tokens=16, timeout=600)
    assert schema_errors(out.data, ANSWER_SCHEMA) == []
    assert out.data["answer"] == 5


def test_concurrent_first_loads_share_one_model(smol_path):
    """Threads racing to load the same model+params get the same runtime (one load)."""
    import threading

    from ragix_core.llm import embedded

    clients = [EmbeddedClient(TEST_MODEL, n_ctx=768, threads=1) for _ in range(4)]
    got = []
    barrier = threading.Barrier(len(clients))

    def load(c):
        barrier.wait()
        got.append(c.load())

    threads = [threading.Thread(target=load, args=(c,)) for c in clients]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(got) == 4 and all(g is got[0] for g in got)
    assert sum(1 for key in embedded._SERVERS if key[1:] == (768, 1, 1)) == 1


def test_concurrent_calls_on_one_model(smol_embedded):
    from concurrent.futures import ThreadPoolExecutor

    questions = [[SYSTEM, {"role": "user", "content": f"Say the number {i}."}] for i in range(3)]
    with ThreadPoolExecutor(3) as pool:
        outs = list(pool.map(lambda m: smol_embedded.complete(m, max_tokens=6, timeout=300), questions))
    assert all(o.text.strip() and o.usage.completion_tokens > 0 for o in outs)


def test_alternating_roles_keep_their_system_prompt_cached(smol_embedded):
    """Planner and worker alternate on one slot; llama.cpp's RAM prompt cache restores each prefix."""
    planner = {"role": "system", "content": "You are the planner. Split the task into steps. " * 8}
    worker = {"role": "system", "content": "You are the worker. Run one step and report. " * 8}
    smol_embedded.complete([planner, {"role": "user", "content": "task A"}], max_tokens=2)
    smol_embedded.complete([worker, {"role": "user", "content": "task B"}], max_tokens=2)
    again = smol_embedded.complete([planner, {"role": "user", "content": "task C"}], max_tokens=2)
    assert again.meta["cached_tokens"] > again.usage.prompt_tokens // 2


def test_a_prompt_longer_than_the_window_is_a_named_overflow(smol_embedded):
    from ragix_core.llm.base import LLMContextOverflow

    with pytest.raises(LLMContextOverflow, match="context size"):
        smol_embedded.complete([{"role": "user", "content": "word " * (smol_embedded.n_ctx + 500)}], max_tokens=4)


@pytest.mark.parametrize("timeout", [None, 300])
def test_until_stops_generating_where_the_reply_is_complete_and_counts_what_was_generated(smol_embedded, timeout):
    """With ``until`` the runtime streams and cancels the task there: fewer tokens are generated than the
    whole reply's, and the usage still counts them (the chunks carry the timings so far)."""
    story = [SYSTEM, {"role": "user", "content": "Write a long story about a cat and a dog."}]
    whole = smol_embedded.complete(story, max_tokens=60, timeout=timeout)
    assert whole.usage.completion_tokens >= 40, whole.text

    def until(text):
        return 10 if len(text) >= 12 else None

    cut = smol_embedded.complete(story, max_tokens=60, timeout=timeout, until=until)
    assert cut.text == whole.text[:10]
    assert 0 < cut.usage.completion_tokens < whole.usage.completion_tokens // 2
    assert cut.usage.prompt_tokens == whole.usage.prompt_tokens
