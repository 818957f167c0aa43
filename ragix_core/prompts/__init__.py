"""Prompt templates, one file per prompt (spec 000 §9 and the worker/writer prompts).

Templates use ``{{name}}`` placeholders. Rendering fails loudly on a missing
value so that a renamed variable can never silently send ``{{goal}}`` to a model.

Every template puts what never changes first, then what changes per run (the
project listing, the goal), then what changes per call (feedback, earlier
outputs): llama.cpp reuses the cached prefix, so only the tail is processed.

``RAGIX_PROMPTS_DIR``: a directory whose ``NAME.md`` files replace the shipped
templates of the same name (prompt experiments, benchmarks); others stay shipped.

A file may hold several short parts instead of one prompt (``section``): each
part starts at a line ``## key`` and runs to the next such line, the newlines
around it excluded; text before the first ``## key`` line describes the file and
is never sent. An override replaces the whole file, every part at once.
"""

from __future__ import annotations

import os
import re
from functools import lru_cache
from pathlib import Path
from importlib import resources
from typing import Any, Dict

__all__ = ["load", "render", "render_text", "sections", "section", "PromptError", "OVERRIDE_ENV"]

_PLACEHOLDER = re.compile(r"\{\{\s*([a-zA-Z_][a-zA-Z0-9_]*)\s*\}\}")
_SECTION = re.compile(r"^## ([a-z_][a-z0-9_]*)[ \t]*$", re.MULTILINE)


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


def render(name: str, /, **values: Any) -> str:
    return render_text(load(name), name, **values)


def render_text(template: str, name: str = "(inline template)", /, **values: Any) -> str:
    """``render`` for a template given as text (e.g. a prompt variant under evaluation)."""

    def sub(match: "re.Match[str]") -> str:
        key = match.group(1)
        if key not in values:
            raise PromptError(f"prompt {name!r} needs a value for {{{{{key}}}}}")
        return str(values[key])

    return _PLACEHOLDER.sub(sub, template)


def sections(name: str) -> Dict[str, str]:
    """The parts of a template file of several parts, by key (see the module's docstring)."""
    text = load(name)
    marks = list(_SECTION.finditer(text))
    if not marks:
        raise PromptError(f"prompt {name!r} has no '## key' parts")
    out: Dict[str, str] = {}
    for mark, after in zip(marks, marks[1:] + [None]):
        key = mark.group(1)
        if key in out:
            raise PromptError(f"prompt {name!r} has two parts named {key!r}")
        out[key] = text[mark.end(): after.start() if after else len(text)].strip("\n")
    return out


def section(name: str, key: str, /, **values: Any) -> str:
    """One part of a template file of several parts, rendered like ``render``. ``name`` and ``key`` are
    positional-only: a placeholder may be called ``name`` or ``key`` (a claim's argument names are)."""
    parts = sections(name)
    if key not in parts:
        raise PromptError(f"prompt {name!r} has no part {key!r}")
    return render_text(parts[key], f"{name}#{key}", **values)
