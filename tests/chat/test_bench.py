"""The chat benchmark's data and scoring (the run itself needs the real model: benchmarks/chat_bench.py)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
spec = importlib.util.spec_from_file_location("chat_bench", ROOT / "benchmarks" / "chat_bench.py")
bench = importlib.util.module_from_spec(spec)
spec.loader.exec_module(bench)


def test_every_conversation_is_checkable_and_covers_each_kind():
    convs = bench.load_conversations()
    kinds = {t["expect"] for c in convs for t in c["turns"]}
    assert kinds == {"calc", "search", "none"}
    assert all(len(c["turns"]) >= 2 for c in convs)  # every conversation has a follow-up
    assert len({c["id"] for c in convs}) == len(convs)


@pytest.mark.parametrize("conv_id,turn,good,bad", [
    ("arithmetic", 0, "347 × 29 = 10,063.", "It is 10062 or 100630."),
    ("distance-units", 0, "26.2 miles is about 42.16 km.", "26.2 miles is 16.3 km."),
    ("distance-units", 0, "There are 42.164708 kilometres in 26.2 miles.", "That is 42 km."),
    ("distance-units", 1, "That is 138,336 feet.", "That is 138 feet."),
    ("temperature", 0, "100 °F is 37.78 °C.", "100 °F is 38 °C."),
    ("cluster-docs", 0, "Orion has 48 nodes with 64 GB each.", "Orion has 48 nodes."),
    ("train-speed", 1, "It needs 4 hours.", "It needs 4.5 hours."),
    ("temperature", 1, "That is 310.93 K.", "That is 37.78 K."),
])
def test_answer_patterns_accept_right_and_refuse_wrong_answers(conv_id, turn, good, bad):
    convs = {c["id"]: c for c in bench.load_conversations()}
    spec_ = convs[conv_id]["turns"][turn]
    assert bench.answer_ok(spec_, good) and not bench.answer_ok(spec_, bad)


def test_facts_of_search_questions_are_only_in_the_benchmark_documents():
    docs = " ".join(p.read_text() for p in bench.DOCS.glob("*.md"))
    assert "7421" in docs and "Kestrel" in docs and "48 nodes" in docs
    prompts_dir = ROOT / "ragix_core" / "prompts"
    model_facing = list(prompts_dir.glob("chat_*.md")) + list((ROOT / "ragix_core" / "chat").glob("*.py"))
    for path in model_facing:  # prompts, and the tool errors a model reads
        text = path.read_text()
        for fact in ("7421", "Kestrel", "Zephyr", "10063", "347", "26.2", "feet", "Orion"):
            assert fact not in text, f"{path.name} must not contain the benchmark's {fact!r}"


def test_tool_choice_scoring():
    assert bench.tool_choice_ok("calc", ["operator"]) and bench.tool_choice_ok("calc", ["search", "repl"])
    assert not bench.tool_choice_ok("calc", ["search"]) and not bench.tool_choice_ok("calc", [])
    assert bench.tool_choice_ok("none", []) and not bench.tool_choice_ok("none", ["operator"])
    assert bench.tool_choice_ok("search", ["search"]) and not bench.tool_choice_ok("search", ["repl"])


def test_summary_and_table():
    rows = [{"system": "agent", "conversation": "c", "turn": t, "expect": e, "question": "q", "answer": "a",
             "stop_reason": "success", "answer_ok": ok, "tools": [], "tool_choice_ok": tc, "tool_errors": 0,
             "steps": 2, "llm_calls": 3, "prompt_tokens": 100, "completion_tokens": 10, "wall_time": 5.0}
            for t, e, ok, tc in [(1, "calc", True, True), (2, "calc", False, False), (1, "none", True, True)]]
    s = bench.summarise(rows)
    assert s["answers_correct"] == 2 and s["accuracy_calc"] == "1/2" and s["accuracy_follow_ups"] == "0/1"
    assert s["tool_choice_accuracy"] == round(2 / 3, 3) and s["tokens_per_turn"] == 110
    assert s["answer_accuracy_ci95"][0] < 2 / 3 < s["answer_accuracy_ci95"][1]
    text = bench.table({"chat agent": s})
    assert text.splitlines()[2].startswith("| chat agent | 3 | 2/3 = 0.667 [")


def test_numbers_in_text():
    assert bench.numbers_in("138,336 feet, 42.16 km, v8, 8th, -3") == [138336.0, 42.16, -3.0]


def test_rescore_judges_recorded_answers_again(tmp_path, capsys):
    run = {"meta": {"commit": "x"}, "summary": {}, "turns": [
        {"system": "agent", "conversation": "distance-units", "turn": 1, "expect": "calc", "question": "q",
         "answer": "There are 42.164708 kilometres.", "stop_reason": "success", "answer_ok": False,
         "tools": ["operator"], "tool_choice_ok": True, "tool_errors": 0, "steps": 2, "llm_calls": 3,
         "prompt_tokens": 10, "completion_tokens": 5, "wall_time": 1.0}]}
    src = tmp_path / "run.json"
    src.write_text(__import__("json").dumps(run))
    assert bench.rescore(src, tmp_path / "out.json") == 0
    again = __import__("json").loads((tmp_path / "out.json").read_text())
    assert again["turns"][0]["answer_ok"] is True and again["summary"]["chat agent"]["answers_correct"] == 1
    assert "rescored_utc" in again["meta"]
