"""The search tool's provider protocol and what a provider returns, apart from the providers themselves so
that a provider module (a built-in one, the web's, a user's) can depend on it without depending on the module
that builds them all (chat/search.py)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import List, Protocol

__all__ = ["SearchHit", "SearchProvider", "ProviderError"]


@dataclass(frozen=True)
class SearchHit:
    source: str  # the provider's name
    title: str
    text: str
    ref: str = ""  # where it comes from: a path, a URL, a session id
    score: float = 0.0


class SearchProvider(Protocol):
    name: str

    def search(self, query: str, top_k: int) -> List[SearchHit]:
        ...


class ProviderError(ValueError):
    """A configured provider cannot be built (unknown name, import error, missing directory)."""
