"""The embedded default model through the whole loop, on the small fictional collection (slow).

One question, strict mode, two short rounds at most, the critic's and writer's model calls off:
about three model calls. What must hold with a real 1.5B model: a valid Item, an answer taken from
the right document, and every citation an existing tier-1/2 file quoted verbatim."""

from __future__ import annotations

import pytest

from ragix_core.llm.base import LLMUnavailable
from ragix_core.llm.models import DEFAULT_MODEL, resolve_model_path
from ragix_core.research import DeepResearchOrchestrator, validate_items

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def qwen():
    pytest.importorskip("xllamacpp")
    try:
        resolve_model_path(DEFAULT_MODEL)
    except LLMUnavailable as exc:
        pytest.skip(f"model not installed: {exc}")
    from ragix_core.llm.embedded import EmbeddedClient

    return EmbeddedClient(DEFAULT_MODEL)


def test_the_embedded_model_answers_with_verbatim_citations(index, settings, qwen):
    settings.retrieval.k = 2
    settings.reasoning.max_iterations = 2
    settings.reasoning.critic_llm = False
    settings.reasoning.writer_llm = False
    settings.reasoning.analyst_timeout = 600
    orch = DeepResearchOrchestrator(index, settings=settings, client=qwen)
    items = orch.run_research("What is the capital of Vantoria?", "strict")
    assert validate_items(items) == items
    schema = items[0]["schema_object"]
    assert schema["status"] == "ANSWERED", items[0]["description"]
    assert "quellmere" in schema["answer"].lower()
    assert schema["citations"] and all(c["tier"] <= 2 for c in schema["citations"])
    for c in schema["citations"]:
        assert (index.docs_dir / c["path"]).is_file() and c["quote"] in index.get(c["chunk"]).text
