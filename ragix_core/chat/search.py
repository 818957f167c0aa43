"""The ``search`` tool's providers: one small protocol, local providers built in, others by name.

    class SearchProvider(Protocol):
        name: str
        def search(self, query: str, top_k: int) -> List[SearchHit]: ...

Built in: ``docs`` (the local document collection, ``ragix chat --docs DIR``) and
``experience`` (the experience corpus of past runs). A web search (``web_search``,
Tavily) joins them only when the user's own config has ``chat.search.web``. Any other
provider is added by configuration, ``chat.search.providers: ["pkg.module:factory"]``,
where ``factory(settings) -> SearchProvider`` gets a ``ProviderSettings``; it is
imported only when a chat opens, and a broken name fails then with a clear error.

``search_all`` asks every provider with one time limit each: a provider that
raises or does not answer in time is reported in the result, the others still count.
"""

from __future__ import annotations

import importlib
import threading
from dataclasses import dataclass, field
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

from ragix_core import prompts
from ragix_core.core.text import bounded, one_line

from .search_protocol import ProviderError, SearchHit, SearchProvider

__all__ = ["SearchHit", "SearchProvider", "ProviderSettings", "ProviderError", "DocsProvider",
           "ExperienceProvider", "build_providers", "search_all", "format_hits", "HIT_CHARS"]

HIT_CHARS = 600  # of each hit's text, in the tool result the models read



@dataclass
class ProviderSettings:
    """What a provider factory may use."""

    docs: Optional[str] = None  # the document directory
    corpus: Any = None  # HybridExperienceCorpus, or None when memory is off
    options: Dict[str, Any] = field(default_factory=dict)
    web: Any = None  # config.chat.WebSearchSection from the user's own config, or None: no web search
    timeout: float = 30.0  # seconds, of one provider's search


class DocsProvider:
    """The local document collection, through the research engine's index: ``ragix research index DIR``
    and ``ragix chat --docs DIR`` build and read the same one (``<DIR>/.ragix/``, else a per-user cache).
    Each search first catches up with the directory, so an edit is found by the next question."""

    name = "docs"

    def __init__(self, directory: str, index_dir: Optional[str] = None) -> None:
        from ragix_core.research.index import DocumentIndex, IndexError_

        try:
            self.index = DocumentIndex.open(directory, index_dir)
        except IndexError_ as exc:
            raise ProviderError(str(exc)) from None

    def close(self) -> None:
        """Close the index's database (the chat that opened it is over)."""
        self.index.close()

    def search(self, query: str, top_k: int) -> List[SearchHit]:
        self.index.update()  # unchanged files cost a stat each; a missing parser raises, named
        hits = []
        for h in self.index.search(query, top_k):
            title = " — ".join(dict.fromkeys(t for t in (h.title, h.heading) if t)) or h.path
            hits.append(SearchHit(self.name, title, h.text, ref=h.path, score=h.score))
        return hits


class ExperienceProvider:
    """Past runs' events (goal, step, command, outcome, lesson) from the experience corpus."""

    name = "experience"

    def __init__(self, corpus: Any) -> None:
        self.corpus = corpus

    def search(self, query: str, top_k: int) -> List[SearchHit]:
        hits = []
        for hit in self.corpus.search_events(query, top_k=top_k):
            ev = hit.event
            parts = [f"{k}: {one_line(ev.get(k), 240)}" for k in
                     ("step_description", "tool_input", "outcome_status", "error", "llm_critique") if ev.get(k)]
            hits.append(SearchHit(self.name, one_line(ev.get("goal"), 160), "\n".join(parts),
                                  ref=f"{hit.source} session {ev.get('session_id', '?')}", score=float(hit.score)))
        return hits


def _factory(name: str) -> Callable[[ProviderSettings], SearchProvider]:
    module, _, function = name.partition(":")
    try:
        return getattr(importlib.import_module(module), function)
    except (ImportError, AttributeError) as exc:
        raise ProviderError(f"search provider {name!r} cannot be loaded: {type(exc).__name__}: {exc}") from None


def build_providers(names: Sequence[str], settings: ProviderSettings) -> Tuple[List[SearchProvider], List[str]]:
    """The providers that can work here, and a note for each left out (no docs directory, memory off).
    A provider named by a factory that cannot be loaded raises ``ProviderError``."""
    providers: List[SearchProvider] = []
    notes: List[str] = []
    for name in names:
        if name == "docs":
            if settings.docs:
                providers.append(DocsProvider(settings.docs))
            else:
                notes.append("docs: no document directory (--docs DIR or chat.search.docs)")
        elif name == "experience":
            if settings.corpus is not None:
                providers.append(ExperienceProvider(settings.corpus))
            else:
                notes.append("experience: memory is off under this profile or config")
        else:
            provider = _factory(name)(settings)
            if not callable(getattr(provider, "search", None)) or not isinstance(getattr(provider, "name", None), str):
                raise ProviderError(f"search provider {name!r} returned {type(provider).__name__}, "
                                    "which has no `name` and `search(query, top_k)`")
            providers.append(provider)
    if settings.web is not None:
        from .web_search import web_provider

        providers.append(web_provider(settings.web, settings.timeout))
    return providers, notes


def _call_with_timeout(fn: Callable[[], Any], timeout: float) -> Tuple[Any, Optional[str]]:
    box: Dict[str, Any] = {}

    def work() -> None:
        try:
            box["value"] = fn()
        except Exception as exc:  # a provider's own failure is reported, never raised into the run
            box["error"] = f"{type(exc).__name__}: {one_line(exc, 300)}"

    thread = threading.Thread(target=work, name="ragix-chat-search", daemon=True)
    thread.start()
    thread.join(timeout)
    if thread.is_alive():
        return None, f"no answer within {timeout:g}s"
    return box.get("value"), box.get("error")


def search_all(providers: Sequence[SearchProvider], query: str, top_k: int,
               timeout: float) -> Tuple[List[SearchHit], List[str]]:
    """Hits of every provider (each provider's best first), and one error line per provider that failed."""
    hits: List[SearchHit] = []
    errors: List[str] = []
    for provider in providers:
        value, error = _call_with_timeout(lambda p=provider: p.search(query, top_k), timeout)
        if error:
            errors.append(f"{provider.name}: {error}")
            continue
        for hit in list(value or [])[:top_k]:
            if isinstance(hit, SearchHit):
                hits.append(hit)
            else:
                errors.append(f"{provider.name}: returned {type(hit).__name__}, not SearchHit")
                break
    return hits, errors


def format_hits(hits: Sequence[SearchHit]) -> str:
    if not hits:
        return "no results"
    blocks = [prompts.render("chat_web_results").strip()] if any(h.source == "web" for h in hits) else []
    for i, hit in enumerate(hits, 1):
        where = f" ({hit.source}: {one_line(hit.ref, 120)})" if hit.ref else f" ({hit.source})"
        blocks.append(f"{i}. {one_line(hit.title, 160)}{where}\n{bounded(hit.text.strip(), HIT_CHARS)}")
    return "\n\n".join(blocks)
