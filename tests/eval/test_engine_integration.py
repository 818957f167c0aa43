"""The harness with the real engine (run_goal, tools, experience corpus) and scripted model replies."""

from pathlib import Path

import pytest

from ragix_core.config import parse_config
from ragix_core.eval.harness import EvalOptions, run_scenarios
from ragix_core.eval.scenario import Scenario
from tests.reasoning_v30.test_agent_fns import ScriptedLLM

run_goal = pytest.importorskip("ragix_core.runtime.run").run_goal
MOCK_REPO = Path(__file__).resolve().parents[1] / "reasoning_v30" / "fixtures" / "mock_repo"


def plan(*commands):
    return {"objective": "o", "validation": "v", "confidence": 0.5,
            "steps": [{"num": i + 1, "description": c, "tool": c.split()[0], "args": {"command": c}}
                      for i, c in enumerate(commands)]}


SCRIPTS = {
    # First task: a wrong path with no file of a close name (ragix would re-run a near miss itself),
    # REFLECT, then the right one.
    "Count the lines of the manual in docs": [
        {"complexity": "MODERATE"}, plan("wc -l docs/manual.md"),
        {"diagnosis": "manual.md does not exist; the guide is docs/guide.md", "new_plan_summary": "wc docs/guide.md"},
        plan("wc -l docs/guide.md"), "docs/guide.md has 120 lines"],
    # Related task: same kind of trap (a name no file is close to, in a directory of two .md files, so
    # ragix has no stand-in to read first and the model plans).
    "How many lines are in docs/notebook.md?": [
        {"complexity": "MODERATE"}, plan("wc -l docs/notes.md"), "docs/notes.md has 6 lines"],
}
SCENARIOS = [
    Scenario(id="warm", input="Count the lines of the manual in docs", expected_patterns=["120"],
             must_run_commands=["wc"], max_steps=4, complexity="MODERATE", category="t"),
    Scenario(id="xfer", input="How many lines are in docs/notebook.md?", expected_patterns=["6"],
             must_run_commands=["wc"], max_steps=4, complexity="MODERATE", category="t"),
]


def run(mode, tmp_path, monkeypatch):
    monkeypatch.setenv("RAGIX_HOME", str(tmp_path / "home"))
    llms = {}

    def runner(goal, **kw):
        llms[goal] = ScriptedLLM(SCRIPTS[goal])
        return run_goal(goal, client_factory=lambda settings: llms[goal], **kw)

    # spec 000's routing: the scripts label each goal MODERATE and plan (the main path tries a command first)
    spec_000 = parse_config({"reasoning": {"routing": "classify_first"}})
    results = run_scenarios(SCENARIOS, runner, EvalOptions(cwd=MOCK_REPO, corpus=mode, strategy="graph_v30",
                                                           config=spec_000))
    return results, llms


def test_real_engine_is_judged_from_its_events(tmp_path, monkeypatch):
    results, _ = run("fresh", tmp_path, monkeypatch)
    warm, xfer = results
    assert warm.passed and warm.recovered and warm.reflections == 1, warm.failure
    # Only the answer's commands count as run: the project listing is read by ragix, and REFLECT's
    # read-only look-around is tagged as diagnosis.
    assert [c.split()[-1] for c in warm.commands_run] == ["docs/manual.md", "docs/guide.md"]
    assert all(c.split()[0].endswith("wc") for c in warm.commands_run)
    assert warm.steps == 2 and warm.complexity_got == "MODERATE"
    assert xfer.passed and not xfer.recovered
    assert warm.prompt_tokens == 50  # 5 scripted calls of 10 prompt tokens


def test_kept_corpus_reaches_the_next_plan(tmp_path, monkeypatch):
    _, kept = run("keep", tmp_path / "k", monkeypatch)
    _, fresh = run("fresh", tmp_path / "f", monkeypatch)

    def plan_prompt(llm):
        return " ".join(m["content"] for m in llm.calls[1]["messages"])

    goal = "How many lines are in docs/notebook.md?"
    assert "manual.md" in plan_prompt(kept[goal])  # the first task's experience was retrieved
    assert "manual.md" not in plan_prompt(fresh[goal])
