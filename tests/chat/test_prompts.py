"""The chat prompts are files, fixed text first, and every model-facing string comes from them."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from ragix_core import prompts

PROMPTS = Path(prompts.__file__).parent
CHAT = sorted(p.stem for p in PROMPTS.glob("chat_*.md"))


def test_the_system_prompt_is_fixed_for_a_configuration():
    """Its only placeholder is the tool list, fixed by the config: the cached prefix holds across turns."""
    assert re.findall(r"\{\{\s*(\w+)\s*\}\}", prompts.load("chat_orchestrator")) == ["tools"]
    for name in ("chat_writer", "chat_direct", "chat_tool_repl", "chat_tool_operator", "chat_tool_search"):
        assert "{{" not in prompts.load(name), name


def test_history_comes_before_the_question():
    text = prompts.load("chat_orchestrator_question")
    assert text.index("{{history}}") < text.index("{{question}}")


@pytest.mark.parametrize("name", CHAT)
def test_every_chat_prompt_is_used_by_the_code(name):
    code = " ".join(p.read_text() for p in (PROMPTS.parent / "chat").glob("*.py"))
    used = name in code or (name.startswith("chat_tool_") and 'f"chat_tool_{name}"' in code)
    assert used, f"{name}.md is not rendered anywhere in ragix_core/chat"


def test_no_model_facing_prose_in_the_chat_code():
    """Prompts are files: the chat modules hold no multi-sentence string literal sent to a model."""
    for path in (PROMPTS.parent / "chat").glob("*.py"):
        text = path.read_text()
        assert "You are" not in text.replace('"""', ""), path.name
