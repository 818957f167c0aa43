"""The ``chat:`` section of ragix.yaml: the conversational agent of spec 003.

    chat:
      max_reasoning_steps: 30      # orchestrator steps per question (spec 003 v2: 30-40; no minimum)
      history_turns: 6             # earlier (question, answer) pairs shown to the models
      tool_timeout: 30             # seconds, per tool call (repl, operator, search)
      tools: [repl, operator, search]
      store: null                  # sessions database; null = $RAGIX_HOME/chat/sessions.sqlite
      search:
        providers: [docs, experience]   # or "package.module:factory" for another provider (a web search)
        docs: null                 # the document directory searched by `docs` (ragix chat --docs DIR),
                                   # through the same index as `ragix research index DIR`
        top_k: 4
        web: null                  # a web search; YOUR config only ($RAGIX_HOME/ragix.yaml), never by default:
        #   {provider: tavily, api_key_env: TAVILY_API_KEY (or api_key: ...), base_url: null,
        #    max_results: 5, max_chars: 2000, search_depth: basic}

``chat.search.web`` holds a key and decides what leaves the machine: like
``memory:``, the loader takes it from the user's own file only (config/__init__.py).

Lives with the config loader (like ``reasoning:``) because the loader must not
import an engine package; ``ragix_core.chat`` reads it.
"""

from __future__ import annotations

import re
from typing import List, Literal, Optional

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

__all__ = ["ChatSection", "ChatSearchSection", "WebSearchSection", "CHAT_TOOLS", "BUILTIN_PROVIDERS"]

CHAT_TOOLS = ("repl", "operator", "search")
BUILTIN_PROVIDERS = ("docs", "experience")
_FACTORY = re.compile(r"^[A-Za-z_][\w.]*:[A-Za-z_]\w*$")


class _Section(BaseModel):
    model_config = ConfigDict(extra="forbid", validate_assignment=True)


class WebSearchSection(_Section):
    provider: Literal["tavily"] = "tavily"
    api_key_env: Optional[str] = None  # the variable that holds the key
    api_key: Optional[str] = Field(default=None, repr=False)  # or the key itself
    base_url: Optional[str] = None  # None: the provider's own endpoint
    max_results: int = Field(5, ge=1, le=10)
    max_chars: int = Field(2000, ge=100, le=20000)  # of each result's text kept
    search_depth: Literal["basic", "advanced"] = "basic"

    @model_validator(mode="after")
    def _one_key(self) -> "WebSearchSection":
        if bool(self.api_key) == bool(self.api_key_env):
            raise ValueError("a web search needs exactly one of api_key_env (the variable holding the key, "
                             "e.g. TAVILY_API_KEY) or api_key")
        return self


class ChatSearchSection(_Section):
    providers: List[str] = Field(default_factory=lambda: list(BUILTIN_PROVIDERS))
    docs: Optional[str] = None
    top_k: int = Field(4, ge=1, le=20)
    web: Optional[WebSearchSection] = None  # the user's own config only; see the module docstring

    @field_validator("providers")
    @classmethod
    def _known_providers(cls, names: List[str]) -> List[str]:
        for name in names:
            if name not in BUILTIN_PROVIDERS and not _FACTORY.match(name):
                raise ValueError(f"unknown search provider {name!r}; built in: {', '.join(BUILTIN_PROVIDERS)}, "
                                 "or name a factory as 'package.module:function'")
        return names


class ChatSection(_Section):
    max_reasoning_steps: int = Field(30, ge=1, le=200)
    history_turns: int = Field(6, ge=0, le=100)
    tool_timeout: float = Field(30.0, gt=0, le=600)
    tools: List[str] = Field(default_factory=lambda: list(CHAT_TOOLS))
    # How the orchestrator writes a step: "json" (spec 003's decision object) or "free" (free text: a
    # ```python block runs in the repl, `SEARCH: ...` searches, anything else is the answer; chat/free_form.py).
    decisions: Literal["json", "free"] = "free"
    store: Optional[str] = None
    search: ChatSearchSection = Field(default_factory=ChatSearchSection)

    @field_validator("tools")
    @classmethod
    def _known_tools(cls, tools: List[str]) -> List[str]:
        unknown = [t for t in tools if t not in CHAT_TOOLS]
        if unknown:
            raise ValueError(f"unknown chat tool(s) {', '.join(unknown)}; allowed: {', '.join(CHAT_TOOLS)}")
        return list(dict.fromkeys(tools))
