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


def test_a_long_thread_is_cut_from_its_oldest_steps_to_fit_the_window():
    from ragix_core.chat.messages import reasoning, tool_message
    from ragix_core.chat.prompting import TRANSCRIPT_CHARS, writer_messages
    from ragix_core.chat.state import new_state

    messages = list(new_state("s", "t", "In which year was it first published?")["messages"])
    for i in range(25):
        messages.append(reasoning(f"t-r{i}", f"search again {i}", action="search", tool_name="search",
                                  tool_input={"query": f"words {i}"}, confidence=50, missing_info=[], step=i + 1))
        messages.append(tool_message(f"t-o{i}", tool_call_id=f"t-r{i}", tool="search", tool_input={"query": f"w{i}"},
                                     output=f"result {i}: " + "x" * 300, error=None, duration=0.1))
    out = writer_messages(messages, [], tools=["search"], max_steps=30, history_turns=6)
    assert sum(len(m["content"]) for m in out) <= TRANSCRIPT_CHARS + 2000  # the writer's instruction comes on top
    assert out[0]["role"] == "system" and "first published" in out[1]["content"]
    assert "earlier steps of this thread are left out" in out[1]["content"]
    roles = [m["role"] for m in out[1:]]
    assert all(a != b for a, b in zip(roles, roles[1:]))  # user and assistant still alternate
    text = "\n".join(m["content"] for m in out)
    assert "result 24:" in text and "result 0:" not in text  # the latest steps stay, the oldest go
