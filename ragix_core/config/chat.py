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

Lives with the config loader (like ``reasoning:``) because the loader must not
import an engine package; ``ragix_core.chat`` reads it.
"""

from __future__ import annotations

import re
from typing import List, Optional

from pydantic import BaseModel, ConfigDict, Field, field_validator

__all__ = ["ChatSection", "ChatSearchSection", "CHAT_TOOLS", "BUILTIN_PROVIDERS"]

CHAT_TOOLS = ("repl", "operator", "search")
BUILTIN_PROVIDERS = ("docs", "experience")
_FACTORY = re.compile(r"^[A-Za-z_][\w.]*:[A-Za-z_]\w*$")


class _Section(BaseModel):
    model_config = ConfigDict(extra="forbid", validate_assignment=True)


class ChatSearchSection(_Section):
    providers: List[str] = Field(default_factory=lambda: list(BUILTIN_PROVIDERS))
    docs: Optional[str] = None
    top_k: int = Field(4, ge=1, le=20)

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
    store: Optional[str] = None
    search: ChatSearchSection = Field(default_factory=ChatSearchSection)

    @field_validator("tools")
    @classmethod
    def _known_tools(cls, tools: List[str]) -> List[str]:
        unknown = [t for t in tools if t not in CHAT_TOOLS]
        if unknown:
            raise ValueError(f"unknown chat tool(s) {', '.join(unknown)}; allowed: {', '.join(CHAT_TOOLS)}")
        return list(dict.fromkeys(tools))
