from pathlib import Path

from ragix_core.eval.evaluate import evaluate_run
from ragix_core.evidence.answers import REPORT_NOT_ANSWER
from ragix_core.eval.metrics import aggregate
from ragix_core.core.types import ToolResult
from ragix_core.eval.scenario import Scenario, checker_takes_outputs
from tests.eval.fakes import make_result, tool_event

SCEN = Scenario(id="largest", input="Find the largest md", expected_patterns=["largest", ".md", "lines"],
                must_run_commands=["find", "wc"], max_steps=3, complexity="MODERATE", category="file_search")


def test_pass_needs_patterns_commands_and_steps():
    r = evaluate_run(SCEN, make_result("The largest is docs/guide.md: 120 LINES", ["find . -name '*.md' | xargs wc -l"]))
    assert r.passed, r.failure
    assert r.complexity_match is True and r.steps == 1 and r.keyword_coverage == 1.0


def test_fails_on_missing_pattern():
    r = evaluate_run(SCEN, make_result("guide.md has 120 lines", ["find . | xargs wc -l"]))
    assert not r.passed and r.missing_patterns == ["largest"]
    assert abs(r.keyword_coverage - 2 / 3) < 1e-9


def test_planned_but_refused_command_does_not_count():
    res = make_result("largest .md has 120 lines", ["find . -name '*.md'"], refused=["wc -l docs/guide.md"])
    r = evaluate_run(SCEN, res)
    assert not r.passed and r.missing_commands == ["wc"]


def test_too_many_steps_fails():
    r = evaluate_run(SCEN, make_result("largest .md 120 lines", ["find .", "wc -l a", "wc -l b", "wc -l c"]))
    assert not r.passed and "4 steps > max_steps 3" in r.failure


def test_skipped_plan_steps_are_not_counted():
    from ragix_core.core.types import PlanStep, StepStatus, ToolCall

    res = make_result("largest .md 120 lines", ["find . | xargs wc -l"], steps=3)
    for step in res.state.executed_steps[1:]:
        step.status, step.tool_call = StepStatus.SKIPPED, ToolCall("none")
    r = evaluate_run(SCEN, res)
    assert r.steps == 1 and r.passed
    res.state.executed_steps.append(PlanStep(9, "d", ToolCall("shell"), StepStatus.FAILED))
    assert evaluate_run(SCEN, res).steps == 2  # a failed step was executed: it counts


def test_direct_answer_counts_tool_calls_as_steps():
    r = evaluate_run(SCEN, make_result("largest .md lines", ["find .", "wc -l x"], steps=0))
    assert r.steps == 2


def test_complexity_mismatch_does_not_decide_pass():
    r = evaluate_run(SCEN, make_result("largest .md lines", ["find . | xargs wc -l"], complexity="COMPLEX"))
    assert r.passed and r.complexity_match is False and r.complexity_got == "COMPLEX"


def test_recovered_only_when_passed_after_reflection():
    ok = evaluate_run(SCEN, make_result("largest .md lines", ["find . | xargs wc -l"], reflections=1))
    bad = evaluate_run(SCEN, make_result("no idea", ["find ."], reflections=2, stop_reason="max_reflections"))
    assert ok.recovered and not bad.recovered


def test_non_string_answer_is_tolerated():
    res = make_result(None, ["find . | xargs wc -l"])
    res.state.final_answer = {"largest": ".md lines"}  # untrusted output of the wrong type
    r = evaluate_run(SCEN, res)
    assert r.passed


def test_checker_replaces_patterns(tmp_path):
    scen = Scenario(id="c", input="q", expected_patterns=["never"], checker=lambda a, w: (a.strip() == "42", "want 42"))
    assert evaluate_run(scen, make_result("42")).passed
    r = evaluate_run(scen, make_result("41"))
    assert not r.passed and "checker: want 42" in r.failure


def test_checker_exception_is_a_failure_not_a_crash():
    def boom(answer, workdir):
        raise RuntimeError("bad checker")
    r = evaluate_run(Scenario(id="c", input="q", checker=boom), make_result("x"))
    assert not r.passed and "bad checker" in r.checker_detail


def test_checker_with_outputs_gets_what_the_steps_printed():
    seen = []

    def check(answer, workdir, outputs=()):
        seen.append(list(outputs))
        return any("a.py" in out for out in outputs), "a.py not printed"

    scen = Scenario(id="c", input="q", checker=check)
    res = make_result("done", ["ls", "ls"])
    res.state.executed_steps[0].result = ToolResult(tool="shell", returncode=0, stdout="a.py\nb.py\n")
    res.state.executed_steps[1].result = ToolResult(tool="shell", returncode=1, stdout="")  # nothing printed
    assert evaluate_run(scen, res).passed and seen[0] == ["a.py\nb.py\n"]
    r = evaluate_run(scen, make_result("done", ["ls"]))  # a step without a result printed nothing
    assert not r.passed and seen[-1] == [] and "checker: a.py not printed" in r.failure
    assert not checker_takes_outputs(lambda a, w: (True, "")) and not checker_takes_outputs(len)


def test_a_report_of_what_was_tried_is_not_an_answer_but_its_commands_outputs_still_count():
    # A run that found no answer ends with the Partial Results report; its "Step 1" once passed a task
    # whose gold output is 1. The report is judged as saying nothing: only what the steps printed counts.
    report = "## Partial Results\n\nI attempted ... (no_evidence) after 0 recovery attempt(s).\n- Step 1 failed"
    scen = Scenario(id="n", input="q", expected_patterns=["Step 1"])
    answered = make_result(report, ["ls"], stop_reason="no_evidence")
    assert evaluate_run(scen, answered).passed  # the same text as an answer passes
    unanswered = make_result(report, ["ls"], stop_reason="no_evidence")
    unanswered.state.meta[REPORT_NOT_ANSWER] = True
    r = evaluate_run(scen, unanswered)
    assert not r.passed and r.final_answer == report  # the report is kept for the reader, not judged

    def printed_one(answer, workdir, outputs=()):
        return "1" in answer.split() or "1\n" in outputs, "1 neither printed nor said"

    scen = Scenario(id="o", input="q", checker=printed_one)
    unanswered.state.executed_steps[0].result = ToolResult(tool="shell", returncode=0, stdout="1\n")
    assert evaluate_run(scen, unanswered).passed
    unanswered.state.executed_steps[0].result = ToolResult(tool="shell", returncode=0, stdout="0\n")
    assert not evaluate_run(scen, unanswered).passed


def test_aggregates_follow_spec_definitions():
    good = make_result("largest .md lines", ["find . | xargs wc -l"])
    results = [
        evaluate_run(SCEN, good),  # plan success
        evaluate_run(SCEN, make_result("largest .md lines", ["find .", "wc -l x"], reflections=1)),  # recovered
        evaluate_run(SCEN, make_result("?", ["find ."], reflections=3, stop_reason="max_reflections")),
        evaluate_run(Scenario(id="b", input="explain", complexity="BYPASS"), make_result("x", complexity="MODERATE")),
    ]
    a = aggregate(results)
    assert a["runs"] == 4 and a["passed"] == 3
    assert a["pass_rate"] == 0.75
    assert a["plan_success_rate"] == 0.5  # rows 1 and 4
    assert a["recovery_rate"] == 0.5  # 1 of the 2 that reflected
    assert a["max_reflections_rate"] == 0.25
    assert a["bypass_accuracy"] == 0.75  # the BYPASS question went through a plan
    assert a["avg_steps"] == (1 + 2 + 1 + 0) / 4
    assert a["prompt_tokens"] == 400 and a["total_tokens"] == 480


def test_empty_denominators_are_none():
    a = aggregate([])
    assert a["pass_rate"] is None and a["recovery_rate"] is None and a["runs"] == 0


def _process(command, argv, **data):
    from ragix_core.core.events import Event, EventKind

    return Event(EventKind.TOOL_CALL, "s", {"tool": "shell", "command": command, "argv": argv, "refused": False, **data})


def test_commands_are_judged_from_each_process_argv():
    scen = Scenario(id="c", input="q", expected_patterns=["x"], must_run_commands=["grep", "wc -l"], max_steps=5)
    res = make_result("x")
    res.events = [
        # one process per event: the text may describe the whole line, the argv is what this process ran
        _process("grep -rn x . | wc -l", ["/usr/bin/grep", "-rn", "x", "."]),
        # an internal error is published with the caller's text and an empty argv: nothing ran
        _process("wc -l a.py", [], returncode=1, reason="internal error: boom"),
    ]
    r = evaluate_run(scen, res)
    assert not r.passed and r.missing_commands == ["wc -l"]


def test_required_words_are_arguments_in_any_order():
    scen = Scenario(id="c", input="q", expected_patterns=["x"], must_run_commands=["wc -l"])
    res = make_result("x")
    res.events = [_process("/usr/bin/wc a.py -l", ["/usr/bin/wc", "a.py", "-l"])]
    assert evaluate_run(scen, res).passed


# --- grounding's appended listing is not the writer's answer -------------------------------

MOCK_REPO = Path(__file__).resolve().parents[1] / "reasoning_v30" / "fixtures" / "mock_repo"
GREP = Scenario(id="grep-pattern", input="Find all files containing 'def execute'", expected_patterns=["b.py", "cli.py"],
                must_run_commands=["grep"], max_steps=3)


def grounded(writer_answer, goal=GREP.input):
    """The answer as the engine returns it: the writer's text through the real grounding step."""
    from ragix_core.core.types import PlanStep, StepStatus, ToolCall, ToolResult
    from ragix_core.evidence.grounding import ground_answer

    cmd = "grep -rl 'def execute' ."
    step = PlanStep(1, cmd, ToolCall("shell", {"command": cmd}), StepStatus.SUCCESS,
                    ToolResult("shell", 0, stdout="./src/inventory/cli.py\n./b.py\n"))
    return ground_answer(goal, writer_answer, [step], MOCK_REPO)


def test_patterns_found_only_in_grounding_listing_do_not_pass():
    answer = grounded("No file in this project defines execute.")
    assert "b.py" in answer and "cli.py" in answer  # grounding appended both files grep printed
    r = evaluate_run(GREP, make_result(answer, ["grep -rl execute ."]))
    assert not r.passed and r.passed_via_grounding
    assert r.missing_patterns == ["b.py", "cli.py"] and r.keyword_coverage == 0.0
    assert "only through grounding" in r.failure[0]
    assert r.final_answer == answer  # the report keeps what the user saw


def test_partial_answer_completed_by_grounding_is_counted_apart():
    r = evaluate_run(GREP, make_result(grounded("./src/inventory/cli.py"), ["grep -rl execute ."]))
    assert not r.passed and r.passed_via_grounding and r.missing_patterns == ["b.py"]
    a = aggregate([r, evaluate_run(GREP, make_result("b.py and src/inventory/cli.py", ["grep -rl execute ."]))])
    assert a["passed"] == 1 and a["passed_via_grounding"] == 1


def test_the_writers_own_complete_answer_passes():
    answer = grounded("execute is defined in ./b.py and ./src/inventory/cli.py")
    assert "Also listed" not in answer  # nothing omitted, nothing appended
    r = evaluate_run(GREP, make_result(answer, ["grep -rl execute ."]))
    assert r.passed and not r.passed_via_grounding


def test_not_via_grounding_when_something_else_failed_too():
    r = evaluate_run(GREP, make_result(grounded("./src/inventory/cli.py"), ["cat b.py"]))  # grep never ran
    assert not r.passed and not r.passed_via_grounding and "commands not run: grep" in r.failure


def test_text_after_the_listing_is_still_judged():
    # the verifier's doubt is appended after grounding; it is the engine's text, not a listing
    answer = grounded("./src/inventory/cli.py") + "\n\nVerification failed: b.py also defines it"
    r = evaluate_run(GREP, make_result(answer, ["grep -rl execute ."]))
    assert r.passed, r.failure


def test_checker_sees_the_writers_answer():
    seen = []
    scen = Scenario(id="c", input=GREP.input, checker=lambda a, w: (seen.append(a) or "b.py" in a, "needs b.py"))
    r = evaluate_run(scen, make_result(grounded("./src/inventory/cli.py")))
    assert seen[0] == "./src/inventory/cli.py" and not r.passed and r.passed_via_grounding


def test_computed_tokens_are_the_total_less_the_prompt_tokens_served_from_the_cache():
    usage = {"llm_calls": 2, "prompt_tokens": 100, "completion_tokens": 20, "cached_prompt_tokens": 70}
    r = evaluate_run(SCEN, make_result("largest .md lines", ["find . | xargs wc -l"], usage=usage))
    assert r.cached_prompt_tokens == 70
    odd = evaluate_run(SCEN, make_result("x", usage={"prompt_tokens": 10, "cached_prompt_tokens": 50}))
    a = aggregate([r, odd])  # a backend claiming more cached than prompt tokens counts at most its prompt
    assert a["total_tokens"] == 130 and a["cached_prompt_tokens"] == 80 and a["computed_tokens"] == 50


def test_tokens_are_summed_under_the_node_that_made_each_model_call():
    from ragix_core.core.events import Event, EventKind
    from ragix_core.eval.evaluate import tokens_by_node
    from ragix_core.eval.metrics import aggregate

    def call(prompt, completion):
        return Event(EventKind.LLM_CALL, "s", {"prompt_tokens": prompt, "completion_tokens": completion})

    events = [call(5, 1), Event(EventKind.NODE_ENTER, "s", {"node": "CLASSIFY"}), call(300, 10),
              Event(EventKind.NODE_ENTER, "s", {"node": "PLAN"}), call(800, 200), tool_event("ls"),
              Event(EventKind.NODE_ENTER, "s", {"node": "RESPOND"}), call(250, 40), call(100, None)]
    assert tokens_by_node(events) == {"(outside)": 6, "CLASSIFY": 310, "PLAN": 1000, "RESPOND": 390}
    def run_with(evs):
        result = make_result("a")
        result.events = evs
        return evaluate_run(Scenario(id="x", input="q"), result)

    a, b = run_with(events), run_with([Event(EventKind.NODE_ENTER, "s", {"node": "RESPOND"}), call(10, 0)])
    assert list(aggregate([a, b])["tokens_by_node"].items()) == [("PLAN", 1000), ("RESPOND", 400), ("CLASSIFY", 310),
                                                                 ("(outside)", 6)]  # largest first
    from ragix_core.eval.report import build_report, to_markdown

    md = to_markdown(build_report([a, b], {"strategy": "graph_v30"}))
    assert "| graph_v30 | PLAN: 1000, RESPOND: 400, CLASSIFY: 310, (outside): 6 |" in md


def test_the_report_keeps_how_the_main_path_chose_its_command_and_the_stated_confidence():
    res = make_result("The largest is docs/guide.md: 120 LINES", ["find . -name '*.md' | xargs wc -l"])
    res.state.confidence = 0.9
    draws = [{"command": "find .", "kind": "read", "output": "./docs/guide.md", "won": True}]
    res.state.meta["attempt"] = {"decided_by": "greedy", "agreed": 2, "confirmed": True, "commands": ["find ."],
                                 "draws": draws}
    r = evaluate_run(SCEN, res)
    assert r.confidence == 0.9
    # the bare commands are commands_run's; each draw's record (what it printed) is kept
    assert r.attempt == {"decided_by": "greedy", "agreed": 2, "confirmed": True, "draws": draws}
    plain = evaluate_run(SCEN, make_result("The largest is docs/guide.md: 120 LINES", ["find ."]))
    assert plain.attempt is None


def test_the_report_keeps_each_ensemble_members_stop_group_and_cost_but_not_its_answer():
    res = make_result("12 files")
    res.state.meta["ensemble"] = {"agreement": 0.667, "winner": "graph_v30", "groups": 2, "members": [
        {"member": 0, "engine": "graph_v30", "stop_reason": "success", "answer": "12 files", "group": 0,
         "usage": {"llm_calls": 3, "prompt_tokens": 900, "completion_tokens": 40}},
        {"member": 1, "engine": "s0", "stop_reason": "no_evidence", "answer": "", "error": "x",
         "usage": {"llm_calls": 1, "prompt_tokens": 300, "completion_tokens": 9}}]}
    r = evaluate_run(SCEN, res)
    assert r.ensemble["agreement"] == 0.667 and r.ensemble["winner"] == "graph_v30"
    assert r.ensemble["members"][1] == {"engine": "s0", "stop_reason": "no_evidence", "group": None,
                                        "usage": {"llm_calls": 1, "prompt_tokens": 300, "completion_tokens": 9}}
    assert "answer" not in r.ensemble["members"][0] and "changes" not in r.ensemble
    assert evaluate_run(SCEN, make_result("12 files")).ensemble is None


def test_the_report_keeps_what_each_ensemble_member_changed_and_whether_it_landed():
    res = make_result("Done.")
    counts = {"written": 1, "removed": 0, "dirs_made": 0, "dirs_removed": 0}
    res.state.meta["ensemble"] = {"agreement": 1.0, "winner": "s0", "vote_on": "changes", "members": [
        {"member": 0, "engine": "s0", "stop_reason": "success", "answer": "Done.", "group": 0}],
        "changes": [{"member": 0, "engine": "s0", "applied": True, "written": ["notes.txt"], "counts": counts}]}
    r = evaluate_run(SCEN, res)
    assert r.ensemble["vote_on"] == "changes"
    assert r.ensemble["changes"] == [{"member": 0, "applied": True, "counts": counts}]  # counts, not the paths
