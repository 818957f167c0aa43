"""Research prompts are files ordered for the prefix cache; the registry engine runs through run_goal;
a missing parser is a clear error."""

from __future__ import annotations

import re

import pytest

from ragix_core import prompts
from ragix_core.research import DocumentIndex, IndexError_
from ragix_core.runtime.run import run_goal

from .conftest import ScriptedLLM, analyst, critic, label, writer

AGENTS = ["research_analyst", "research_critic", "research_writer", "research_clarify"]


@pytest.mark.parametrize("name", AGENTS)
def test_system_prompts_are_fixed_text(name):
    """The system prompt is sent first and is the same on every call of a run (the mode's rules
    are fixed per run), so llama.cpp reuses it from its cache."""
    names = re.findall(r"\{\{\s*(\w+)\s*\}\}", prompts.load(name))
    assert set(names) <= {"mode_rules"}


@pytest.mark.parametrize("name", AGENTS)
def test_tasks_put_the_run_values_before_the_per_call_ones(name):
    names = re.findall(r"\{\{\s*(\w+)\s*\}\}", prompts.load(f"{name}_task"))
    per_call = {"feedback", "round", "draft", "problems", "evidence", "answer", "notes", "options"}
    firsts = [i for i, n in enumerate(names) if n in per_call]
    runs = [i for i, n in enumerate(names) if n not in per_call]
    assert not firsts or not runs or max(runs) < min(firsts), names
    if name == "research_analyst":
        assert names[:2] == ["sources", "question"]  # the big, shared part first


def test_the_research_engine_runs_through_run_goal(docs):
    llm = ScriptedLLM([lambda m: analyst("Quellmere", [("c", label(m, "official/vantoria.html"), "capital of Vantoria is Quellmere")]),
                       critic("PASS"), writer("Quellmere [S1].")])
    result = run_goal("What is the capital of Vantoria?", cwd=docs, strategy="research",
                      client_factory=lambda settings: llm)
    assert result.state.stop_reason == "success" and "Quellmere" in result.state.final_answer
    assert result.state.meta["research_items"][0]["schema_object"]["citations"][0]["path"] == "official/vantoria.html"
    assert result.usage["llm_calls"] == 3 and result.node_trace == ["INDEX", "RESEARCH"]


def test_a_missing_parser_is_a_clear_error_not_a_skip(docs, monkeypatch):
    import builtins

    real = builtins.__import__

    def no_selectolax(name, *a, **k):
        if name.startswith("selectolax"):
            raise ImportError("no selectolax")
        return real(name, *a, **k)

    monkeypatch.setattr(builtins, "__import__", no_selectolax)
    with pytest.raises(IndexError_, match=r"selectolax: pip install 'ragix\[research\]'"):
        DocumentIndex.open(docs).update()
