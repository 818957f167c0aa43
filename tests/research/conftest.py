"""A small fictional collection (so no model could know it), its tiers, and a scripted model."""

from __future__ import annotations

from pathlib import Path
from typing import Any, List

import pytest

from ragix_core.config.research import ResearchSection
from ragix_core.research import DocumentIndex
from tests.scripted_llm import ScriptedLLM as BaseScriptedLLM

TIERS = {
    "sources": {"official/**": "Registry", "news/**": "Gazette", "forum/**": "Forum"},
    "source_tiers": {"Registry": {"tier": 1, "type": "official"}, "Gazette": {"tier": 2, "type": "news"},
                     "Forum": {"tier": 5, "type": "social"}},
}

FILES = {
    "official/zorblat.md": "---\ndate: 2024-03-05\n---\n# Zorblat Industries\n\nZorblat Industries is headquartered "
                           "in Vantoria. It makes quantum teapots.\n\n## Staff\n\nZorblat Industries employs 412 people.\n",
    "official/vantoria.html": "<html><head><title>Vantoria</title><meta name=\"date\" content=\"2023-01-10\"></head>"
                              "<body><nav>menu</nav><h1>Vantoria</h1><p>The capital of Vantoria is "
                              "<b>Quellmere</b>.</p><h2>Economy</h2><p>Vantoria exports glass.</p></body></html>",
    "news/teapots.txt": "Teapot market\n\nThe Gazette reports that quantum teapots sold 9,000 units in 2023.\n",
    "forum/rumours.md": "# Rumours about Zorblat\n\nA forum user claims Zorblat Industries employs 5000 people.\n",
    "official/orion_db.md": "# Orion (database)\n\nOrion is a database engine released in 2019.\n",
    "official/orion_sat.md": "# Orion (satellite)\n\nOrion is a weather satellite launched in 2011.\n",
}


# A manual where one page documents a limit, others mention it in passing (release notes, a
# tier-2 digest) and a tier-5 forum contradicts it; the documenting page opens with a list.
MANUAL = {
    "official/pack-limits.md": "# Pack limits\n\nThe repository settings accept:\n\n"
                               "- open packs: how many pack files stay open at once\n"
                               "- loose objects: how many objects wait before a repack\n"
                               "- delta depth: how long a chain of deltas may grow\n\n"
                               "Each setting has a ceiling. The open pack limit per repository is 64.\n",
    "official/release-notes.md": "# Release notes 3.2\n\nThis release fixes a crash in clone and raises the open pack "
                                 "limit per repository to 64. Fetching is faster.\n",
    "news/weekly.md": "# Weekly digest\n\nThe open pack limit per repository is 64, the maintainers said this week.\n",
    "forum/packs.md": "# Packs thread\n\nSomeone wrote that the open pack limit per repository is 128.\n",
}
LIMIT_QUESTION = "What is the open pack limit per repository?"


def write_collection(root: Path, files=None) -> Path:
    for rel, text in (files or FILES).items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return root


@pytest.fixture
def docs(tmp_path) -> Path:
    return write_collection(tmp_path / "docs")


@pytest.fixture
def index(docs) -> DocumentIndex:
    idx = DocumentIndex.open(docs)
    idx.update()
    yield idx
    idx.close()


@pytest.fixture
def manual_index(tmp_path) -> DocumentIndex:
    idx = DocumentIndex.open(write_collection(tmp_path / "manual", MANUAL))
    idx.update()
    yield idx
    idx.close()


@pytest.fixture
def settings() -> ResearchSection:
    s = ResearchSection.model_validate(TIERS)
    return s


@pytest.fixture
def resolver(index, settings):
    """A resolver over the collection, its context the chunks one search about Zorblat and Vantoria retrieved."""
    from ragix_core.research import SourceTierFilter
    from ragix_core.research.checks import Resolver
    from ragix_core.research.context import Context, item_of
    from ragix_core.research.settings import SourceMap

    smap = SourceMap(settings)
    tf = SourceTierFilter(settings.source_tiers, settings.mode_configs)
    ctx = Context()
    hits = index.search("Zorblat Vantoria capital employs", 6)
    ctx.add(tf.filter_and_enrich([item_of(h, smap.source_of(h.path)) for h in hits], "discovery"))
    return Resolver(ctx, index, index.docs_dir, smap, tf)


class ScriptedLLM(BaseScriptedLLM):
    """The shared scripted model, reporting research-sized prompts (100 + 20 tokens a call)."""

    def __init__(self, replies: List[Any]):
        super().__init__(replies, usage=(100, 20))


def label(messages, path: str) -> str:
    """The context label (S1, S2...) that ``path`` got in this prompt."""
    import re

    m = re.search(r"\[(S\d+)\] " + re.escape(path) + " ", messages[-1]["content"])
    if not m:
        raise AssertionError(f"{path} is not in the prompt's sources")
    return m.group(1)


def analyst(answer: str, claims=(), status="DRAFT_READY", queries=(), other_answer=None, other_claims=()):
    out = {"claims": [{"text": t, "source": s, "quote": q} for t, s, q in claims], "answer": answer,
           "status": status, "new_queries": list(queries), "reasoning_chain": "scripted"}
    if other_answer is not None:
        out["other_answer"] = other_answer
        out["other_claims"] = [{"text": t, "source": s, "quote": q} for t, s, q in other_claims]
    return out


def critic(status="PASS", gaps=()):
    return {"status": status, "critique": "scripted critique", "suggestions": [], "logical_gaps": list(gaps)}


def writer(text):
    return {"final_report": text}
