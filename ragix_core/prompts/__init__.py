"""Prompt templates, one file per prompt (spec 000 §9 and the worker/writer prompts).

Templates use ``{{name}}`` placeholders. Rendering fails loudly on a missing
value so that a renamed variable can never silently send ``{{goal}}`` to a model.

Every template puts what never changes first, then what changes per run (the
project listing, the goal), then what changes per call (feedback, earlier
outputs): llama.cpp reuses the cached prefix, so only the tail is processed.

``RAGIX_PROMPTS_DIR``: a directory whose ``NAME.md`` files replace the shipped
templates of the same name (prompt experiments, benchmarks); others stay shipped.
"""

from __future__ import annotations

import os
import re
from functools import lru_cache
from pathlib import Path
from importlib import resources
from typing import Any

__all__ = ["load", "render", "render_text", "PromptError", "OVERRIDE_ENV"]

_PLACEHOLDER = re.compile(r"\{\{\s*([a-zA-Z_][a-zA-Z0-9_]*)\s*\}\}")


class PromptError(KeyError):
    """A template is missing or a placeholder has no value."""


OVERRIDE_ENV = "RAGIX_PROMPTS_DIR"


def load(name: str) -> str:
    override = os.environ.get(OVERRIDE_ENV)
    if override:
        path = Path(override).expanduser() / f"{name}.md"
        if path.is_file():
            return path.read_text(encoding="utf-8")
    return _shipped(name)


@lru_cache(maxsize=None)
def _shipped(name: str) -> str:
    try:
        return resources.files(__name__).joinpath(f"{name}.md").read_text(encoding="utf-8")
    except FileNotFoundError:
        raise PromptError(f"no prompt template named {name!r} in ragix_core/prompts") from None


def render(name: str, **values: Any) -> str:
    return render_text(load(name), name, **values)


def render_text(template: str, name: str = "(inline template)", **values: Any) -> str:
    """``render`` for a template given as text (e.g. a prompt variant under evaluation)."""

    def sub(match: "re.Match[str]") -> str:
        key = match.group(1)
        if key not in values:
            raise PromptError(f"prompt {name!r} needs a value for {{{{{key}}}}}")
        return str(values[key])

    return _PLACEHOLDER.sub(sub, template)
