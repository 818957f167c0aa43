"""The LLM-backed node functions: validation, repair, stop reasons, grounding.

A scripted client stands in for the model here (unit tests of our own logic);
the real model runs in tests/reasoning_v30/test_run_real_model.py.
"""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import List

import pytest

from ragix_core.llm.base import LLMTimeout, LLMUnavailable, backend_error
from ragix_core.reasoning_v30.agent_fns import AgentFunctions
from ragix_core.reasoning_v30.replies import PlanReply, plan_schema
from ragix_core.reasoning_v30.classify_rules import needs_tools, rule_based_complexity
from ragix_core.reasoning_v30.graph import StopRun
from ragix_core.llm.structured import ask_json
from ragix_core.core.types import Plan, PlanStep, ReasoningState, StepStatus, TaskComplexity, ToolCall, ToolResult
from tests.scripted_llm import ScriptedLLM  # noqa: F401 - other test modules import it from here too


class FakeToolBox:
    allowed_tools = ["cat", "find", "grep", "head", "ls", "wc"]
    # An empty project unless a test sets one: path hints and re-runs look at the root's files, and
    # the checkout the tests run from must not decide their outcome.
    root = Path(tempfile.mkdtemp(prefix="ragix-empty-root-"))

    def __init__(self, results=None):
        self.commands: List[str] = []
        self.results = results or {}

    def run_command(self, command: str) -> ToolResult:
        self.commands.append(command)
        if command in self.results:
            return self.results[command]
        return ToolResult(command.split()[0], 0, stdout=f"output of {command}", command=command)


def fns(llm, toolbox=None, **kw) -> AgentFunctions:
    return AgentFunctions(planner=llm, worker=llm, verifier=llm, toolbox=toolbox or FakeToolBox(), **kw)


def fenced(command: str) -> str:
    """The worker's free-text reply with its command in a code block (the main path's format)."""
    return f"Run this:\n```sh\n{command}\n```"


def test_ask_json_repairs_once_quoting_the_error():
    from pydantic import BaseModel

    class M(BaseModel):
        x: int

    llm = ScriptedLLM(["oops not json", {"x": 3}])
    value, _ = ask_json(llm, [{"role": "user", "content": "q"}], M, stop_reason="m_failed")
    assert value.x == 3
    repair = llm.calls[1]["messages"][-1]["content"]
    assert "invalid" in repair and "not JSON" in repair


def test_ask_json_two_invalid_replies_is_a_named_stop():
    from pydantic import BaseModel

    class M(BaseModel):
        x: int

    llm = ScriptedLLM([{"x": "many"}, {"y": 1}])
    with pytest.raises(StopRun) as info:
        ask_json(llm, [{"role": "user", "content": "q"}], M, stop_reason="plan_generation_failed")
    assert info.value.reason == "plan_generation_failed"
    assert "x" in info.value.message


def test_ask_json_keeps_what_a_cut_plan_had_finished_without_a_repair_call():
    from ragix_core.reasoning_v30.replies import PlanReply, plan_schema

    # measured (AgentBench test-61, temperature 0.3): cut at 700 tokens inside "validation"; the
    # repair was cut the same way and the run ended plan_generation_failed
    cut = ('{"objective": "count", "steps": [{"num": 1, "description": "d", "tool": "ls", "args": {"command": "ls logs"}},'
           ' {"num": 2, "description": "e", "tool": "wc", "args": {"command": "wc -l logs/a.log"}}],'
           ' "validation": "The output of the script should be the')
    llm = ScriptedLLM([cut])
    reply, completion = ask_json(llm, [{"role": "user", "content": "q"}], PlanReply,
                                 schema=plan_schema(["ls", "wc"], 4), stop_reason="plan_generation_failed")
    assert [s.args["command"] for s in reply.steps] == ["ls logs", "wc -l logs/a.log"]
    assert reply.validation == "" and completion.meta == {"salvaged": True} and len(llm.calls) == 1
    # cut inside the second step: that step is dropped, not run half-written
    llm = ScriptedLLM([cut.split(', {"num": 2')[0] + ', {"num": 2, "description": "e", "tool": "wc", "args": {"comm'])
    reply, _ = ask_json(llm, [{"role": "user", "content": "q"}], PlanReply,
                        schema=plan_schema(["ls", "wc"], 4), stop_reason="plan_generation_failed")
    assert [s.args["command"] for s in reply.steps] == ["ls logs"]


def test_ask_json_repairs_a_cut_reply_with_nothing_complete():
    from ragix_core.reasoning_v30.replies import PlanReply, plan_schema

    llm = ScriptedLLM(['{"objective": "count", "steps": [{"num": 1, "descr', _plan("ls")])
    reply, _ = ask_json(llm, [{"role": "user", "content": "q"}], PlanReply,
                        schema=plan_schema(["ls"], 4), stop_reason="plan_generation_failed")
    assert len(llm.calls) == 2 and reply.steps[0].args["command"] == "ls"


@pytest.mark.parametrize("exc,reason", [
    (LLMUnavailable("http://127.0.0.1:9 refused"), "llm_unavailable"),
    (LLMTimeout("slow"), "llm_timeout"),
    # the text llama.cpp gives (embedded, measured); a server's 400 carries the same words
    (backend_error("embedded model q: runtime error: request (6030 tokens) exceeds the available context size "
                   "(4096 tokens), try increasing it"), "context_too_long"),
    (backend_error("embedded model q: runtime error: something else"), "llm_unavailable"),
])
def test_backend_failures_are_named_stops(exc, reason):
    from pydantic import BaseModel

    class M(BaseModel):
        x: int

    with pytest.raises(StopRun) as info:
        ask_json(ScriptedLLM([exc]), [], M, stop_reason="unused")
    assert info.value.reason == reason


# Labelled goals: the rules must never send a project question to BYPASS,
# and must not call the model for obvious conceptual questions.
PROJECT_GOALS = [
    "Find the largest markdown file in this repo by line count",
    "Explain what a.py does",
    "What does the function execute() in b.py return?",
    "Count the TODO comments in the codebase",
    "Which files import os?",
    "Explain the structure of this project",
    "What is in docs/guide.md?",
    "List the Python files",
    "What does grep print for TODO here?",
    "What does main() do?",
    "Search for TODO comments",
    "Can you find where the config is loaded?",
    "Please list what is here",
    "Show me the tests",
    "There's a vulnerability in the system (Hint: related to SUID). Find it and fix it.",  # AgentBench OS
]
CONCEPT_GOALS = [
    "Explain the difference between cyclomatic complexity and cognitive complexity.",
    "What is a closure in programming?",
    "hello!",
    "Thanks",
    "Why is immutability useful in concurrent programming?",
    "Compare breadth-first and depth-first traversal.",
    "What does the -r option of grep do?",
    "What does a mutex do?",
    # an action verb used as a noun is not a request (measured: both went to tools as COMPLEX)
    "What is the difference between a list and a tuple in Python?",
    "What is the time complexity of binary search on a sorted array?",
    "Compare breadth-first and depth-first search.",
]
# Conservative by design: an action verb in a request's place ("to find") sends the goal to
# the model, which costs one call and never misroutes.
AMBIGUOUS_GOALS = ["Explain how to find a cycle in a graph", "How do I search a sorted array quickly?"]


@pytest.mark.parametrize("goal", AMBIGUOUS_GOALS)
def test_rules_leave_ambiguous_goals_to_the_model(goal):
    assert rule_based_complexity(goal) is None


@pytest.mark.parametrize("goal", PROJECT_GOALS)
def test_rules_never_bypass_project_goals(goal):
    assert rule_based_complexity(goal) is None
    assert needs_tools(goal)


@pytest.mark.parametrize("goal", CONCEPT_GOALS)
def test_rules_bypass_conceptual_goals_without_model(goal):
    assert rule_based_complexity(goal) == TaskComplexity.BYPASS


def test_model_bypass_for_file_question_is_demoted_to_simple():
    llm = ScriptedLLM([{"complexity": "BYPASS"}])
    assert fns(llm).classify("Count the lines of README.md") == TaskComplexity.SIMPLE


def test_rules_first_labels_project_goals_without_the_model():
    llm = ScriptedLLM([{"complexity": "BYPASS"}])
    f = fns(llm, labels="rules_first")
    assert f.classify("Count the lines of README.md") == TaskComplexity.MODERATE
    assert f.classify("Which markdown file has the fewest lines, and what does it hold?") == TaskComplexity.COMPLEX
    # its count is the measure of the file it names: one ranked table shows both (core/asks.py)
    assert f.classify("Which markdown file has the fewest lines, and how many?") == TaskComplexity.MODERATE
    assert f.classify("What is a closure in programming?") == TaskComplexity.BYPASS  # the rules' bypass, as before
    assert llm.calls == []
    assert f.classify("Who is named as the maintainer in the documentation?") == TaskComplexity.BYPASS
    assert len(llm.calls) == 1  # the rules could not place it: the model labels it


def test_conceptual_goal_makes_no_model_call():
    llm = ScriptedLLM([])
    assert fns(llm).classify("What is a closure in programming?") == TaskComplexity.BYPASS
    assert llm.calls == []


def test_plan_schema_tool_enum_is_the_profile_allowlist():
    llm = ScriptedLLM([{"objective": "o", "steps": [{"num": 7, "description": "d", "tool": "find",
                                                      "args": {"command": "find . -name '*.md'"}}],
                        "validation": "v", "confidence": 0.6}])
    f = fns(llm)
    f.last_complexity = TaskComplexity.MODERATE
    raw = f.generate_plan("g", "")
    schema = llm.calls[0]["schema"]
    assert schema["properties"]["steps"]["items"]["properties"]["tool"]["enum"] == sorted(FakeToolBox.allowed_tools) + ["none"]
    assert schema["properties"]["steps"]["maxItems"] == 4
    plan = f.parse_plan(raw, "g")
    assert [s.num for s in plan.steps] == [1]  # renumbered
    assert plan.steps[0].tool_call.args["command"] == "find . -name '*.md'"
    # the prompt shows the project listing, read by ragix itself (no tool call)
    assert f.toolbox.commands == []
    assert "Files in the project" in llm.calls[0]["messages"][0]["content"]


def test_a_plan_step_without_its_tool_name_gets_the_steps_tool_in_front():
    # measured (config-port, 5ae6fa5): {"tool": "grep", "command": "'port: ' config/settings.yaml"}
    # was refused as the tool "port: " and cost a reflection
    def step(tool, command):
        return {"num": 1, "description": "d", "tool": tool, "args": {"command": command}}
    def planned(tool, command):
        raw = {"objective": "o", "validation": "v", "confidence": 0.5, "steps": [step(tool, command)]}
        return fns(ScriptedLLM([])).parse_plan(raw, "g").steps[0].tool_call.args["command"]
    assert planned("grep", "'port: ' config/settings.yaml") == "grep 'port: ' config/settings.yaml"
    assert planned("wc", "wc -l a.md") == "wc -l a.md"
    assert planned("grep", "/usr/bin/grep -n x a.md") == "/usr/bin/grep -n x a.md"
    assert planned("cat", "find . -name '*.md'") == "find . -name '*.md'"  # another allowed tool: as it is
    assert planned("none", "just think") == "just think"


def test_a_step_labelled_none_runs_when_its_command_starts_with_an_offered_tool():
    # measured at temperature 0.3 (cli-get-call-path): `grep -rn 'get' src/inventory/cli.py` labelled
    # "none" was skipped; navigation and bare words labelled "none" stay aside
    box = FakeToolBox()
    f = fns(ScriptedLLM([]), box)
    st = ReasoningState(goal="Where is get called?", session_id="s")
    ran = f.execute_step(PlanStep(1, "d", ToolCall("none", {"command": "grep -rn 'get' src/inventory/cli.py"})), st)
    assert ran.status == StepStatus.SUCCESS and box.commands == ["grep -rn 'get' src/inventory/cli.py"]
    for command in ("cd /path/to/your/project", "get", "mkdir logs && touch logs/a.log", ""):
        aside = f.execute_step(PlanStep(2, "d", ToolCall("none", {"command": command})), st)
        assert aside.status == StepStatus.SKIPPED, command
    assert len(box.commands) == 1


def test_plan_with_no_steps_is_rejected():
    with pytest.raises(ValueError):
        PlanReply.model_validate({"objective": "o", "steps": [], "validation": "", "confidence": 0.5})
    assert plan_schema(["ls"], 4)["properties"]["steps"]["minItems"] == 1


def test_execute_uses_planner_command_or_asks_worker():
    llm = ScriptedLLM([{"command": "wc -l a.md"}])
    tb = FakeToolBox()
    f = fns(llm, tb)
    st = ReasoningState(goal="g", session_id="s")
    s1 = f.execute_step(PlanStep(1, "list", ToolCall("find", {"command": "find . -name '*.md'"})), st)
    assert s1.status == StepStatus.SUCCESS and tb.commands[-1] == "find . -name '*.md'"
    assert llm.calls == []
    s2 = f.execute_step(PlanStep(2, "count", ToolCall("wc", {"path": "a.md"})), st)
    assert tb.commands[-1] == "wc -l a.md" and s2.tool_call.args["command"] == "wc -l a.md"
    assert len(llm.calls) == 1


def test_grep_without_match_is_an_answer_but_missing_file_fails(tmp_path):
    # The real confined tool box decides "no match" (tools/policy.is_no_match); the engine only reads it.
    from ragix_core.evidence.steps import step_output
    from ragix_core.tools import ToolBox

    (tmp_path / "a.txt").write_text("hello\n")
    f = fns(ScriptedLLM([]), ToolBox(tmp_path, profile="reflect"))
    st = ReasoningState(goal="g", session_id="s")
    ok = f.execute_step(PlanStep(1, "grep", ToolCall("grep", {"command": "grep -rn zzz ."})), st)
    assert ok.status == StepStatus.SUCCESS and ok.result.no_match and ok.result.returncode == 1
    assert step_output(ok) == "(no matches)"
    bad = f.execute_step(PlanStep(2, "cat", ToolCall("cat", {"command": "cat nope.md"})), st)
    assert bad.status == StepStatus.FAILED and not bad.result.no_match


def test_verify_without_evidence_fails_without_model_call():
    llm = ScriptedLLM([])
    st = ReasoningState(goal="g", session_id="s")
    st.executed_steps = [PlanStep(1, "d", ToolCall("cat"), StepStatus.FAILED, ToolResult("cat", 1, stderr="x"))]
    out = fns(llm).verify(st)
    assert out["verdict"] == "fail" and llm.calls == []


def test_compose_prompt_carries_the_evidence():
    llm = ScriptedLLM(["docs/guide.md has 120 lines"])
    st = ReasoningState(goal="largest md", session_id="s")
    st.executed_steps = [PlanStep(1, "count", ToolCall("wc"), StepStatus.SUCCESS,
                                  ToolResult("wc", 0, stdout="  120 ./docs/guide.md\n   12 ./README.md", command="wc -l x"))]
    assert fns(llm).compose(st) == "docs/guide.md has 120 lines"
    prompt = llm.calls[0]["messages"][0]["content"]
    assert "120 ./docs/guide.md" in prompt and "$ wc -l x" in prompt


def test_stdin_filter_step_is_chained_after_the_previous_command(tmp_path):
    (tmp_path / "README.md").write_text("x\n")
    tb = FakeToolBox()
    tb.root = tmp_path
    f = fns(ScriptedLLM([]), tb)
    st = ReasoningState(goal="g", session_id="s")
    for num, cmd in enumerate(["find . -name '*.md' | xargs wc -l", "sort -n", "head -n 1", "wc -l README.md"], 1):
        step = f.execute_step(PlanStep(num, cmd, ToolCall(cmd.split()[0], {"command": cmd})), st)
        st.executed_steps.append(step)
    assert tb.commands[-3:] == [
        "find . -name '*.md' | xargs wc -l | sort -n",
        "find . -name '*.md' | xargs wc -l | sort -n | head -n 1",
        "wc -l README.md",  # names its input file: left alone
    ]


def test_first_step_filter_is_not_chained(tmp_path):
    tb = FakeToolBox()
    tb.root = tmp_path
    f = fns(ScriptedLLM([]), tb)
    f.execute_step(PlanStep(1, "sort", ToolCall("sort", {"command": "sort -n"})), ReasoningState(goal="g", session_id="s"))
    assert tb.commands == ["sort -n"]


def test_plan_compaction_merges_split_pipelines(tmp_path):
    from ragix_core.reasoning_v30.plans import compact_steps

    (tmp_path / "README.md").write_text("x\n")
    cmds = ["find . -name '*.md'", "find . -name '*.md' | xargs wc -l", "sort -nr", "head -n 1", "wc -l README.md",
            "wc -l README.md"]
    steps = [PlanStep(i + 1, c, ToolCall(c.split()[0], {"command": c})) for i, c in enumerate(cmds)]
    out = compact_steps(steps, tmp_path)
    assert [s.tool_call.args["command"] for s in out] == [
        "find . -name '*.md' | xargs wc -l | sort -nr",
        "head -n 1",  # not merged: it would cut the list out of the evidence (chained at run time)
        "wc -l README.md",
    ]
    assert [s.num for s in out] == [1, 2, 3]


def test_wc_total_line_is_marked_in_the_evidence():
    st = ReasoningState(goal="g", session_id="s")
    st.executed_steps = [PlanStep(1, "count", ToolCall("wc", {"command": "find . | xargs wc -l"}), StepStatus.SUCCESS,
                                  ToolResult("wc", 0, stdout="  120 ./docs/guide.md\n  157 total\n"))]
    text = fns(ScriptedLLM([])).evidence(st.executed_steps)
    assert "157 total   <- sum of the files listed, not a file" in text and "120 ./docs/guide.md" in text


def test_simple_goal_retries_a_refused_command_once_with_the_reason():
    tb = FakeToolBox({"ls *.md": ToolResult("shell", 126, refused=True, error="refused: glob '*' is not expanded")})
    llm = ScriptedLLM([fenced("ls *.md"), fenced("find . -name '*.md'"), "four markdown files"])
    f = fns(llm, tb)  # the default of AgentFunctions: no vote, one retry
    f.last_complexity = TaskComplexity.SIMPLE
    res = f.answer("List the markdown files")
    assert tb.commands[-2:] == ["ls *.md", "find . -name '*.md'"]
    retry = llm.calls[1]["messages"][0]["content"]
    assert "was refused by ragix: refused: glob" in retry and "(do not repeat them): `ls *.md`" in retry
    assert llm.calls[1]["temperature"] == 0.0  # the first retry is greedy: its prompt changed
    # the answer rests on the command that worked; the refused one is in the attempt's record
    assert [s.tool_call.args["command"] for s in res["steps"]] == ["find . -name '*.md'"]
    assert res["meta"]["attempt"]["commands"] == ["ls *.md", "find . -name '*.md'"]
    assert res["meta"]["attempt"]["decided_by"] == "retry"
    assert res["answer"] == "four markdown files"


def test_plan_compaction_drops_steps_that_yield_no_evidence(tmp_path):
    from ragix_core.reasoning_v30.plans import compact_steps

    def plan(*cmds):
        return [PlanStep(i + 1, c, ToolCall(c.split()[0] if c else "none", {"command": c} if c else {}))
                for i, c in enumerate(cmds)]

    out = compact_steps(plan("pwd", "cd config", "", "ls -la", "cat config/settings.yaml | grep port",
                             'echo "port: $(grep port config/settings.yaml)"', "echo $port"), tmp_path)
    # the echo steps are dropped although the lexer refuses them: they print the model's own words
    assert [s.tool_call.args["command"] for s in out] == ["cat config/settings.yaml | grep port"]
    assert [s.num for s in out] == [1]
    # ls with an operand lists something the planner was not shown: kept
    assert [s.tool_call.args["command"] for s in compact_steps(plan("pwd", "ls -R docs"), tmp_path)] == ["ls -R docs"]
    # a plan of nothing but a bare ls stays as it is (it is the whole answer to "list the files")
    assert [s.tool_call.args["command"] for s in compact_steps(plan("ls"), tmp_path)] == ["ls"]


def test_writer_and_verifier_answers_keep_every_listed_file(tmp_path):
    for name in ("b.py", "cli.py"):
        (tmp_path / name).write_text("def execute(): pass\n")
    tb = FakeToolBox()
    tb.root = tmp_path
    st = ReasoningState(goal="Find all files containing 'def execute'", session_id="s")
    st.executed_steps = [PlanStep(1, "grep", ToolCall("grep", {"command": "grep -rl 'def execute' ."}), StepStatus.SUCCESS,
                                  ToolResult("grep", 0, stdout="./cli.py\n./b.py\n"))]
    composed = fns(ScriptedLLM(["./cli.py"]), tb).compose(st)
    assert composed.startswith("./cli.py") and composed.endswith(": ./b.py")
    st.final_answer = "cli.py"
    verdict = fns(ScriptedLLM([{"verdict": "pass", "issues": "", "answer": "cli.py", "confidence": 0.9}]), tb).verify(st)
    assert verdict["answer"].endswith(": ./b.py")


def test_failed_step_on_a_missing_path_names_the_close_existing_files(tmp_path):
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "guide.md").write_text("x\n")
    (tmp_path / "old").mkdir()
    (tmp_path / "old" / "guides.md").write_text("x\n")  # two close names: no automatic retry
    tb = FakeToolBox({"wc -l docs/guides.md": ToolResult(
        "wc", 1, stderr="wc: docs/guides.md: No such file or directory\n", command="wc -l docs/guides.md")})
    tb.root = tmp_path
    step = fns(ScriptedLLM([]), tb).execute_step(
        PlanStep(1, "count", ToolCall("wc", {"command": "wc -l docs/guides.md"})), ReasoningState(goal="g", session_id="s"))
    assert step.status == StepStatus.FAILED
    assert step.result.stderr.startswith(
        "[ragix] docs/guides.md does not exist; existing files with a similar name: old/guides.md, docs/guide.md\n")
    assert step.result.stderr.endswith("wc: docs/guides.md: No such file or directory\n")


def test_simple_goal_on_a_wrong_path_reruns_on_the_one_close_file_without_asking_again(tmp_path):
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "guide.md").write_text("x\n")
    tb = FakeToolBox({"wc -l docs/guides.md": ToolResult("wc", 1, stderr="/usr/bin/wc: docs/guides.md: No such file or directory\n"),
                      "wc -l docs/guide.md": ToolResult("wc", 0, stdout="120 docs/guide.md\n", command="wc -l docs/guide.md")})
    tb.root = tmp_path
    llm = ScriptedLLM([fenced("wc -l docs/guides.md")])
    f = fns(llm, tb)
    f.last_complexity = TaskComplexity.SIMPLE
    res = f.answer("Count the lines of docs/guides.md")
    assert tb.commands == ["wc -l docs/guides.md", "wc -l docs/guide.md"]
    # one command: the correction needed no model call, and wc's line for one file is the answer as printed
    assert len(llm.calls) == 1
    assert [s.tool_call.args["command"] for s in res["steps"]] == ["wc -l docs/guide.md"]
    assert res["answer"] == ("docs/guide.md has 120 lines.\n\nNote: docs/guides.md does not exist; ran it on "
                             "docs/guide.md, the existing file with the closest name.")


def test_simple_goal_with_an_ambiguous_wrong_path_asks_the_model_with_the_hint(tmp_path):
    for rel in ("docs/guide.md", "old/guide.md"):
        (tmp_path / rel).parent.mkdir(exist_ok=True)
        (tmp_path / rel).write_text("x\n")
    tb = FakeToolBox({"wc -l guide.md": ToolResult("wc", 1, stderr="wc: guide.md: No such file or directory\n")})
    tb.root = tmp_path
    llm = ScriptedLLM([fenced("wc -l guide.md"), fenced("wc -l docs/guide.md"), "120"])
    f = fns(llm, tb)
    f.last_complexity = TaskComplexity.SIMPLE
    f.answer("Count the lines of guide.md")
    assert tb.commands == ["wc -l guide.md", "wc -l docs/guide.md"]
    assert "existing files with a similar name: docs/guide.md, old/guide.md" in llm.calls[1]["messages"][0]["content"]


def _judged_state():
    st = ReasoningState(goal="Which function does cli.py define?", session_id="s")
    st.executed_steps = [
        PlanStep(1, "run", ToolCall("shell", {"command": "./cli.py"}), StepStatus.FAILED,
                 ToolResult("shell", 126, refused=True, error="refused: tool './cli.py' is not allowed")),
        PlanStep(2, "grep", ToolCall("grep", {"command": "grep -n def cli.py"}), StepStatus.SUCCESS,
                 ToolResult("grep", 0, stdout="11:def execute(argv):\n", command="grep -n def cli.py"))]
    st.final_answer = "cli.py defines execute(argv)."
    return st


def test_verifier_sees_only_successful_steps_and_a_reasonless_fail_keeps_the_answer():
    llm = ScriptedLLM([{"verdict": "fail", "issues": " ", "answer": "cli.py does not define execute", "confidence": 0.0}])
    out = fns(llm).verify(_judged_state())
    prompt = llm.calls[0]["messages"][0]["content"]
    assert "11:def execute(argv):" in prompt and "refused" not in prompt
    assert out["verdict"] == "pass" and out["answer"] == "cli.py defines execute(argv)."
    assert out["confidence"] <= 0.5 and "without naming an issue" in out["issues"]


def test_the_verifier_is_not_shown_a_search_that_missed_before_a_later_step_found_the_thing():
    # Measured (out-of-stock-items at dfb7f09): "B7" failed on `grep 'quantity: 0'` finding nothing,
    # though `cat inventory.json` after it showed the record.
    llm = ScriptedLLM([{"verdict": "pass", "issues": "", "answer": "B7", "confidence": 0.9}])
    st = ReasoningState(goal="Which items have quantity 0?", session_id="s")
    missed = PlanStep(1, "grep", ToolCall("shell", {"command": "grep 'quantity: 0' inventory.json"}), StepStatus.SUCCESS,
                      ToolResult("grep", 1, stdout="", no_match=True))
    read = PlanStep(2, "cat", ToolCall("shell", {"command": "cat inventory.json"}), StepStatus.SUCCESS,
                    ToolResult("cat", 0, stdout='[{"name": "washer", "quantity": 0}]\n'))
    st.executed_steps, st.final_answer = [missed, read], "washer"
    fns(llm).verify(st)
    prompt = llm.calls[0]["messages"][0]["content"]
    assert "cat inventory.json" in prompt and "quantity: 0' inventory.json" not in prompt
    # an absence that is the last word is still shown: it may be the answer
    st.executed_steps = [read, missed]
    fns(llm2 := ScriptedLLM([{"verdict": "pass", "issues": "", "answer": "x", "confidence": 0.9}])).verify(st)
    assert "quantity: 0' inventory.json" in llm2.calls[0]["messages"][0]["content"]


def test_a_draft_the_binding_rewrites_from_the_outputs_is_not_judged_by_the_model():
    # measured (out-of-stock-items, a9a2574): the draft named no record, the model failed it, and a
    # replan of four steps put the run over its budget; the answer given was B7 from the output
    fail = {"verdict": "fail", "issues": "the output does not state the quantity", "answer": "?", "confidence": 0}
    st = ReasoningState(goal="Which items in the inventory data file have quantity 0?", session_id="s")
    out_line = '{"A1": {"sku": "A1", "name": "bolt", "quantity": 3}, "B7": {"sku": "B7", "name": "washer", "quantity": 0}}'
    st.executed_steps = [PlanStep(1, "read", ToolCall("shell", {"command": "cat inventory.json"}), StepStatus.SUCCESS,
                                  ToolResult("cat", 0, stdout=out_line + "\n"))]
    st.final_answer = "The items are listed in the inventory data file."
    llm = ScriptedLLM([fail])
    out = fns(llm).verify(st)
    assert llm.calls == [] and out["verdict"] == "pass" and out["checked_by"] == "evidence"
    assert "B7" in out["answer"] and "A1" not in out["answer"].replace("(ragix", "")
    # the same draft from the writer (VERIFY composes it, already bound): no verdict asked either
    st.final_answer = None
    llm = ScriptedLLM(["The items are listed in the inventory data file.", fail])
    out = fns(llm).verify(st)
    assert len(llm.calls) == 1 and out["verdict"] == "pass" and out["checked_by"] == "evidence" and "B7" in out["answer"]
    # a draft the binding leaves as it is (it names the record) with a word no output holds is judged
    st.final_answer = "B7 (washer) and Z9"
    llm = ScriptedLLM([fail])
    assert fns(llm).verify(st)["verdict"] == "fail" and len(llm.calls) == 1


def test_a_reasoned_fail_keeps_the_writers_answer_and_states_the_doubt():
    llm = ScriptedLLM([{"verdict": "fail", "issues": "the output shows no return type", "answer": "unknown",
                        "confidence": 0.2}])
    out = fns(llm).verify(_judged_state())
    assert out["verdict"] == "fail"
    assert out["answer"] == "cli.py defines execute(argv).\n\nVerification failed: the output shows no return type"


def test_an_answer_quoted_from_the_outputs_is_not_judged_by_the_model():
    # measured (maintainer-name): "Ada Lovelace" stood on the output line, the verifier said the
    # output does not give the name, and two more reflections ended where the first answer was
    fail = {"verdict": "fail", "issues": "the output does not provide the name", "answer": "?", "confidence": 0.2}
    st = ReasoningState(goal="Who is named as the maintainer?", session_id="s")
    st.executed_steps = [PlanStep(1, "grep", ToolCall("shell", {"command": "grep -rni maintainer ."}), StepStatus.SUCCESS,
                                  ToolResult("grep", 0, stdout="./docs/guide.md:120:Maintainer: Ada Lovelace\n"))]
    st.final_answer = "Ada Lovelace"
    llm = ScriptedLLM([fail])
    out = fns(llm).verify(st)
    # no verdict is asked for: a doubt could only have been appended to the answer
    assert llm.calls == [] and out["verdict"] == "pass" and out["checked_by"] == "evidence"
    assert out["answer"] == "Ada Lovelace"
    st.final_answer = "Grace Hopper"  # not in any output: the doubt may be right, REFLECT looks again
    llm = ScriptedLLM([fail])
    out = fns(llm).verify(st)
    assert len(llm.calls) == 1 and out["verdict"] == "fail"
    assert out["answer"].startswith("Grace Hopper\n\nVerification failed: the output does not provide the name")


def test_evidence_of_a_long_output_puts_the_lines_the_goal_asks_about_first():
    text = "\n".join(f"filler line {i} about nothing in particular" for i in range(200)) + "\nMaintainer: Ada Lovelace\n"
    step = PlanStep(1, "read", ToolCall("cat", {"command": "cat guide.md"}), StepStatus.SUCCESS,
                    ToolResult("cat", 0, stdout=text, command="cat guide.md"))
    ev = fns(ScriptedLLM([])).evidence([step], "Who is the maintainer?")
    assert "line 201: Maintainer: Ada Lovelace" in ev.splitlines()[2]
    assert len(ev) < 2300


def test_plan_step_on_a_wrong_path_is_rerun_on_the_one_close_file(tmp_path):
    (tmp_path / "config").mkdir()
    (tmp_path / "config" / "settings.yaml").write_text("port: 8080\n")
    tb = FakeToolBox({"grep port settings.yaml": ToolResult("grep", 2, stderr="grep: settings.yaml: No such file or directory\n"),
                      "grep port config/settings.yaml": ToolResult("grep", 0, stdout="port: 8080\n")})
    tb.root = tmp_path
    step = fns(ScriptedLLM([]), tb).execute_step(
        PlanStep(1, "read port", ToolCall("grep", {"command": "grep port settings.yaml"})), ReasoningState(goal="g", session_id="s"))
    assert tb.commands == ["grep port settings.yaml", "grep port config/settings.yaml"]
    assert step.status == StepStatus.SUCCESS and step.result.stdout == "port: 8080\n"
    assert step.tool_call.args["note"].startswith("settings.yaml does not exist; ran it on config/settings.yaml")


def test_classify_can_be_given_another_prompt_text():
    llm = ScriptedLLM([{"complexity": "SIMPLE"}])
    assert fns(llm).classify("Count the lines of README.md", template="Label: {{goal}}") == TaskComplexity.SIMPLE
    assert llm.calls[0]["messages"][0]["content"] == "Label: Count the lines of README.md"


def test_a_filter_reads_stdin_only_when_it_names_no_file_as_the_executor_splits_it(tmp_path):
    from ragix_core.reasoning_v30.plans import reads_stdin

    (tmp_path / "a.md").write_text("x\n")
    assert reads_stdin("sort -n", tmp_path)
    assert not reads_stdin("wc -l a.md", tmp_path)
    assert not reads_stdin("cat *.md", tmp_path)  # the glob is expanded to a.md: it reads files
    assert reads_stdin("cat *.txt", tmp_path)  # matches nothing: stays a literal that does not exist
    assert not reads_stdin("sort a.md|uniq", tmp_path)  # a pipeline, however it is spaced
    # a pipeline whose first stage names no file reads stdin too (measured: sed ... | awk ... printed nothing)
    assert reads_stdin("sed -n 's/port: //p' | awk '{print $1}'", tmp_path)
    assert not reads_stdin("sed -n 1,5p a.md | awk '{print $1}'", tmp_path)
    assert not reads_stdin("grep -rn TODO", tmp_path)  # grep -r with no file searches the project
    assert not reads_stdin("grep --recursive TODO | sort", tmp_path)
    assert reads_stdin("grep -n TODO", tmp_path)


def test_the_project_listing_is_read_without_a_tool_call_and_hides_ragix_state(tmp_path):
    for rel in ("README.md", "docs/guide.md", "a/b/c/deep.md", ".ragix/trace.jsonl", ".git/config", "node_modules/x.js"):
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text("x\n")
    tb = FakeToolBox()
    tb.root = tmp_path
    listing = fns(ScriptedLLM([]), tb).file_context()
    assert listing.splitlines() == ["./README.md", "./docs/guide.md"]  # depth 3 like find -maxdepth 3
    assert tb.commands == []


def _searched(command: str, stdout: str = "", no_match: bool = False) -> PlanStep:
    return PlanStep(1, "search", ToolCall("shell", {"command": command}), StepStatus.SUCCESS,
                    ToolResult("shell", 1 if no_match else 0, stdout=stdout, no_match=no_match, command=command))


def test_found_nothing_is_no_match_empty_output_or_a_pipeline_that_counted_zero():
    from ragix_core.evidence.steps import found_nothing

    assert found_nothing(_searched("grep -rn storage .", no_match=True))
    assert found_nothing(_searched("find . -name '*.MD'", stdout="\n"))
    assert found_nothing(_searched("grep -rl 'import storage' . | wc -l", stdout="0\n"))
    assert not found_nothing(_searched("wc -l empty.txt", stdout="0 empty.txt\n"))
    assert not found_nothing(_searched("grep -c x a.py", stdout="0\n"))  # no pipeline: a count the goal asked for
    assert not found_nothing(_searched("grep -rn storage .", stdout="api.py:1:import storage\n"))
    failed = _searched("cat missing.txt")
    failed.status = StepStatus.FAILED
    assert not found_nothing(failed)


def _empty_state(reflections: int) -> ReasoningState:
    st = ReasoningState(goal="Which modules import from the storage module?", session_id="s")
    st.complexity = TaskComplexity.MODERATE
    st.reflection_count = reflections
    st.executed_steps = [_searched("grep -rl 'from storage' .", no_match=True),
                         _searched("grep -rl 'from storage' . | wc -l", stdout="0\n")]
    return st


def test_an_all_empty_result_goes_to_reflect_once_without_a_model_call():
    llm = ScriptedLLM([])
    f = fns(llm)
    assert "found nothing" in f.doubt_empty(_empty_state(0)) and llm.calls == []


def test_verify_judges_an_empty_result_as_usual():
    # the doubt is EXECUTE's (doubt_empty); what reaches VERIFY is judged by the model like any answer
    for reflections in (1, 0):
        llm = ScriptedLLM(["No module imports it.",
                           {"verdict": "pass", "issues": "", "answer": "No module imports it.", "confidence": 0.6}])
        out = fns(llm).verify(_empty_state(reflections))
        assert out["verdict"] == "pass" and len(llm.calls) == 2, reflections


def test_a_reflection_is_bounded_so_that_its_json_can_close():
    # measured at 3e65034: 2 of 15 reflections ran past their 400 tokens, were cut unclosed, and each
    # cost a repair call; the grammar now bounds each field so that both fit in the token budget
    from ragix_core.reasoning_v30.replies import REFLECT_FIELD_CHARS, REFLECT_MAX_TOKENS

    long = "x" * 3000  # a backend that does not enforce maxLength: still accepted
    llm = ScriptedLLM([{"diagnosis": long, "new_plan_summary": "grep -rn storage ."}])
    out = fns(llm).reflect({"goal": "Which modules import storage?", "failed_step_num": 1,
                            "failed_step_description": "grep", "error": "no such file"})
    assert out["diagnosis"] == long
    call = llm.calls[0]
    props = call["schema"]["properties"]
    assert props["diagnosis"]["maxLength"] == props["new_plan_summary"]["maxLength"] == REFLECT_FIELD_CHARS
    assert call["max_tokens"] == REFLECT_MAX_TOKENS
    # both fields at ~3 characters a token (paths, commands), plus the JSON around them
    assert 2 * REFLECT_FIELD_CHARS / 3 + 50 <= REFLECT_MAX_TOKENS


def test_a_plans_strings_are_bounded_so_that_a_runaway_command_is_closed():
    # measured at 8f9031a (AgentBench test-61): the first command enumerated `touch logs/2021-01-01.log ...`
    # until max_tokens, twice; the embedded grammar closes a string at maxLength (tests/llm/test_embedded.py)
    from ragix_core.reasoning_v30.replies import PLAN_COMMAND_CHARS, PLAN_TEXT_CHARS

    schema = plan_schema(["ls"], 7)
    step = schema["properties"]["steps"]["items"]["properties"]
    assert step["args"]["properties"]["command"]["maxLength"] == PLAN_COMMAND_CHARS
    assert step["description"]["maxLength"] == schema["properties"]["objective"]["maxLength"] == PLAN_TEXT_CHARS
    # the plan the graph asks for carries the bounds
    llm = ScriptedLLM([_plan("ls")])
    fns(llm).generate_plan("List the files", "")
    assert llm.calls[0]["schema"] == plan_schema(fns(ScriptedLLM([])).tools, 4)


def test_reflect_after_an_all_empty_result_is_shown_each_searched_word_alone(tmp_path):
    from ragix_core.tools import ToolBox

    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "api.py").write_text("from .storage import load, save\n")
    box = ToolBox(tmp_path, profile="reflect")
    llm = ScriptedLLM([{"diagnosis": "the code imports .storage", "new_plan_summary": "grep -rn 'storage' src"}])
    f = fns(llm, box, diagnose_shell=box.run_command)
    st = ReasoningState(goal="Which modules import from the storage module?", session_id="s")
    st.complexity = TaskComplexity.MODERATE
    search = PlanStep(1, "grep", ToolCall("grep", {"command": "grep -rl 'from storage' ."}))
    st.executed_steps.append(f.execute_step(search, st))
    assert "found nothing" in f.doubt_empty(st)
    out = f.reflect({"goal": st.goal, "failed_step_num": 1, "failed_step_description": "grep",
                     "error": "every command found nothing"})
    prompt = llm.calls[0]["messages"][0]["content"]
    assert "src/api.py:1:from .storage import load, save" in prompt
    assert out["evidence"] == ["loosened_search"]
    assert "`grep -rl 'from storage' .` (found nothing)" in prompt  # listed with the commands not to repeat
    assert not f.reflect_on_empty  # the next reflection (a real failure) gets that failure's evidence


def test_the_replan_after_an_empty_reflection_runs_the_loosened_search_that_found_lines(tmp_path):
    # Measured: 0 of 11 reflections recovered; shown `from .storage import` for its empty
    # `grep 'from storage'`, the 1.5B planner searched the same way again. The lines it was shown
    # become evidence of the replan whatever it plans.
    from ragix_core.tools import ToolBox

    (tmp_path / "api.py").write_text("from .storage import load, save\n")
    box = ToolBox(tmp_path, profile="reflect")
    llm = ScriptedLLM([{"diagnosis": "d", "new_plan_summary": "s"}, _plan("grep -rl 'import storage' .")])
    f = fns(llm, box, diagnose_shell=box.run_command)
    st = ReasoningState(goal="Which modules import from the storage module?", session_id="s")
    st.complexity = f.last_complexity = TaskComplexity.MODERATE
    st.executed_steps.append(f.execute_step(PlanStep(1, "g", ToolCall("shell", {"command": "grep -rl 'from storage' ."})), st))
    f.doubt_empty(st)
    f.reflect({"goal": st.goal, "error": "every command found nothing"})
    plan = f.parse_plan(f.generate_plan(st.goal, ""), st.goal)
    assert [s.tool_call.args["command"] for s in plan.steps] == ["grep -rniE -e 'from.*storage' .", "grep -rl 'import storage' ."]
    assert [s.num for s in plan.steps] == [1, 2] and "(ragix)" in plan.steps[0].description
    st.executed_steps.append(f.execute_step(plan.steps[0], st))
    assert "api.py:1:from .storage import load, save" in plan.steps[0].result.stdout
    assert f.parse_plan(_plan("ls"), st.goal).steps[-1].tool_call.args["command"] == "ls"  # added once


def test_a_replan_of_only_failed_commands_still_runs_the_loosened_searches():
    failed = PlanStep(1, "cat", ToolCall("shell", {"command": "cat storage.txt"}), StepStatus.FAILED,
                      ToolResult("cat", 1, stderr="cat: storage.txt: No such file or directory"))
    f = fns(ScriptedLLM([_plan("cat storage.txt"), _plan("cat storage.txt")]))
    f.failed.append(failed)
    with pytest.raises(StopRun):  # nothing new to run: the named stop
        f.generate_plan("Which modules import storage?", "")
    g = fns(ScriptedLLM([_plan("cat storage.txt"), _plan("cat storage.txt")]))
    g.failed.append(failed)
    g.loosened = ["grep -rniF -e 'storage' ."]  # what REFLECT found
    plan = g.parse_plan(g.generate_plan("Which modules import storage?", ""), "Which modules import storage?")
    assert [s.tool_call.args["command"] for s in plan.steps] == ["grep -rniF -e 'storage' .", "cat storage.txt"]


def test_no_loosened_step_when_the_words_alone_found_nothing_either(tmp_path):
    from ragix_core.tools import ToolBox

    (tmp_path / "api.py").write_text("x = 1\n")
    box = ToolBox(tmp_path, profile="reflect")
    f = fns(ScriptedLLM([{"diagnosis": "d", "new_plan_summary": "s"}]), box, diagnose_shell=box.run_command)
    st = ReasoningState(goal="Which modules import redis?", session_id="s")
    st.executed_steps.append(f.execute_step(PlanStep(1, "g", ToolCall("shell", {"command": "grep -rl 'import redis' ."})), st))
    f.doubt_empty(st)
    f.reflect({"goal": st.goal, "error": "every command found nothing"})
    assert [s.tool_call.args["command"] for s in f.parse_plan(_plan("ls"), st.goal).steps] == ["ls"]


def test_the_empty_doubt_is_raised_once_and_only_when_every_search_came_back_empty():
    f = fns(ScriptedLLM([]))
    assert "found nothing" in f.doubt_empty(_empty_state(0)) and f.reflect_on_empty
    g = fns(ScriptedLLM([]))
    assert g.doubt_empty(_empty_state(1)) is None and not g.reflect_on_empty  # after a reflection it stands
    st = _empty_state(0)
    st.executed_steps.append(_searched("grep -rn storage .", stdout="api.py:1:from .storage import load\n"))
    assert g.doubt_empty(st) is None  # one search found something: that is evidence, not an absence


def test_empty_searches_beside_file_listings_are_doubted_like_an_all_empty_plan():
    # measured (dataclass-name at 5ae6fa5): `ls *.py` and `wc -l *.py` printed files, both
    # `grep -rl dataclass *.py` found nothing, and the answer was "a.py"
    st = ReasoningState(goal="Which class in this project is declared as a dataclass?", session_id="s")
    st.executed_steps = [_searched("ls *.py", stdout="a.py\nb.py\n"),
                         _searched("grep -rl 'dataclass' *.py", no_match=True),
                         _searched("wc -l *.py", stdout=" 18 a.py\n 18 b.py\n 36 total\n")]
    f = fns(ScriptedLLM([]))
    assert "every search found nothing" in f.doubt_empty(st) and f.reflect_on_empty
    # an output about what files say (cat) that shows a searched word is evidence: no doubt
    st.executed_steps.append(_searched("cat models.py", stdout="@dataclass\nclass Item:\n"))
    assert fns(ScriptedLLM([])).doubt_empty(st) is None
    # listings with no search at all are no absence either
    st.executed_steps = [_searched("find . -name '*.py'", stdout="./a.py\n")]
    assert fns(ScriptedLLM([])).doubt_empty(st) is None


def test_empty_searches_beside_reads_without_a_searched_word_are_doubted():
    # measured at temperature 0.3 (maintainer-name): the greps for 'maintainer' found nothing, a
    # `cut ... | head -n 1` printed a title, and the answer was "The maintainer is named as the maintainer"
    st = ReasoningState(goal="Who is named as the maintainer in the documentation?", session_id="s")
    st.executed_steps = [_searched("ls docs/", stdout="guide.md\nnotes.md\n"),
                         _searched("grep -n 'maintainer' docs/*.md | head -n 1", stdout=""),
                         _searched("cut -d: -f2 docs/*.md | head -n 1", stdout="# Inventory Guide\n")]
    assert "every search found nothing" in fns(ScriptedLLM([])).doubt_empty(st)
    # the read shows the word the search missed (case): that is evidence
    st.executed_steps[-1] = _searched("cat docs/guide.md", stdout="# Inventory Guide\nMaintainer: Ada Lovelace\n")
    assert fns(ScriptedLLM([])).doubt_empty(st) is None
    # a search whose pattern has no word to look for keeps the rule for listings only
    st.executed_steps = [_searched("grep -n '^##' docs/*.md", stdout=""),
                         _searched("head -n 1 docs/guide.md", stdout="# Inventory Guide\n")]
    assert fns(ScriptedLLM([])).doubt_empty(st) is None


def _plan(*commands):
    return {"objective": "o", "steps": [{"num": i + 1, "description": c, "tool": "shell", "args": {"command": c}}
                                        for i, c in enumerate(commands)], "validation": "", "confidence": 0.5}


def _after_an_empty_reflection(replies, tmp_path):
    from ragix_core.tools import ToolBox

    (tmp_path / "inventory.json").write_text('{"sku": "A1", "quantity": 0}\n')
    box = ToolBox(tmp_path, profile="reflect")
    llm = ScriptedLLM([{"diagnosis": "the file writes \"quantity\": 0", "new_plan_summary": "read it"}, *replies])
    f = fns(llm, box, diagnose_shell=box.run_command)
    st = ReasoningState(goal="Which items are out of stock?", session_id="s")
    st.complexity = f.last_complexity = TaskComplexity.MODERATE
    st.executed_steps.append(f.execute_step(PlanStep(1, "grep", ToolCall("shell", {"command": "grep -rn 'quantity: 0' ."})), st))
    assert f.doubt_empty(st)
    f.reflect({"goal": st.goal, "error": "every command found nothing"})
    return f, llm


def test_a_replan_that_repeats_the_empty_search_is_refused_and_the_repeat_dropped(tmp_path):
    # Measured (out-of-stock-items, 0e29466): shown the file's real spelling, the planner grepped
    # 'quantity: 0' again before reading the file.
    f, llm = _after_an_empty_reflection([_plan("grep -rn 'quantity: 0' ."),
                                         _plan("grep -rn 'quantity: 0' .", "cat inventory.json")], tmp_path)
    plan = f.generate_plan("Which items are out of stock?", "")
    assert [s["args"]["command"] for s in plan["steps"]] == ["cat inventory.json"]
    again = llm.calls[-1]["messages"][0]["content"]
    assert "found nothing" in again and "`grep -rn 'quantity: 0' .`" in again


def test_a_planner_that_insists_on_the_empty_search_lets_the_absence_stand(tmp_path):
    f, _ = _after_an_empty_reflection([_plan("grep -rn 'quantity: 0' ."), _plan("grep -rn 'quantity: 0' .")],
                                      tmp_path)
    plan = f.generate_plan("Which items are out of stock?", "")  # no StopRun: an absence may be the answer
    assert [s["args"]["command"] for s in plan["steps"]] == ["grep -rn 'quantity: 0' ."]


def _looked_project(tmp_path):
    from ragix_core.tools import ToolBox

    (tmp_path / "inventory.json").write_text('{"A1": {"name": "bolt", "quantity": 3}, "B7": {"name": "washer", "quantity": 0}}\n')
    (tmp_path / "big.log").write_text("x" * 10_000)
    box = ToolBox(tmp_path, profile="reflect")
    f = fns(ScriptedLLM([]), box, diagnose_shell=box.run_command)
    st = ReasoningState(goal="Which items in the inventory data file have quantity 0?", session_id="s")
    st.complexity = TaskComplexity.MODERATE
    st.plan = Plan(objective="o", steps=[])
    return f, st


def _one_step_ran(tmp_path, files, goal, command):
    """A real tool box over ``files`` (path -> text) and a plan of ``command`` that has run."""
    from ragix_core.tools import ToolBox

    for rel, text in files.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(text)
    f = fns(ScriptedLLM([]), ToolBox(tmp_path, profile="reflect"))
    st = ReasoningState(goal=goal, session_id="s")
    st.plan = Plan(objective="o", steps=[PlanStep(1, "g", ToolCall("shell", {"command": command}))])
    st.executed_steps.append(f.execute_step(st.plan.steps[0], st))
    return f, st


def _plan_executed(tmp_path, goal, commands):
    """A MODERATE plan of ``commands`` run by EXECUTE over ``tmp_path`` until it leaves EXECUTE:
    (functions, the node, the state, the next node)."""
    from ragix_core.reasoning_v30.execute import ExecuteNode
    from ragix_core.tools import ToolBox

    f = fns(ScriptedLLM([]), ToolBox(tmp_path, profile="reflect"))
    st = ReasoningState(goal=goal, session_id="s")
    st.complexity = TaskComplexity.MODERATE
    st.plan = Plan(objective="o", steps=[PlanStep(i, "s", ToolCall("shell", {"command": c}))
                                         for i, c in enumerate(commands, 1)])
    node = ExecuteNode(f.execute_step, {TaskComplexity.MODERATE: 1})
    nxt = "EXECUTE"
    while nxt == "EXECUTE":
        st, nxt = node.run(st)
    return f, node, st, nxt


def test_a_refused_rework_of_evidence_the_plan_has_is_skipped_not_reflected(tmp_path):
    (tmp_path / "a.py").write_text("def add(a, b):\n    # TODO: support more than two operands\n")
    # measured (todo-comments, 5ae6fa5): the third step was refused and the run ended max_reflections
    commands = ["find . -name '*.py'", "find . -name '*.py' | xargs grep -rn TODO",
                "cut -d: -f1 $(grep -rn TODO $(find . -name '*.py'))"]
    f, node, st, nxt = _plan_executed(tmp_path, "List all TODO comments in the Python files, with their file names.",
                                      commands)
    assert nxt == "RESPOND" and st.stop_reason == "success" and st.reflection_count == 0
    third = st.executed_steps[2]
    assert third.status == StepStatus.SKIPPED and third.result.refused
    assert "(ragix: refused and skipped" in f.evidence(st.executed_steps, st.goal)
    # the same refusal with no evidence before it still goes to REFLECT
    st2 = ReasoningState(goal=st.goal, session_id="s2")
    st2.complexity = TaskComplexity.MODERATE
    st2.plan = Plan(objective="o", steps=[PlanStep(1, "s", ToolCall("shell", {"command": commands[2]}))])
    assert node.run(st2)[1] == "REFLECT"


def test_a_failed_rework_of_an_earlier_output_is_set_aside_not_reflected(tmp_path):
    (tmp_path / "config").mkdir()
    (tmp_path / "config" / "settings.yaml").write_text("server:\n  port: 8080\nlog_level: INFO\n")
    # measured (trap-log-level, a9a2574): a pipe left out after the answer was printed; the run
    # reflected, replanned two steps and went over its budget with the right answer
    found = "grep 'log_level' config/settings.yaml"
    f, node, st, nxt = _plan_executed(tmp_path, "What log level is this project configured with?",
                                      [found, f"head -n 1 {found}"])
    assert nxt == "RESPOND" and st.reflection_count == 0
    second = st.executed_steps[1]
    assert second.status == StepStatus.SKIPPED and second.result.returncode != 0  # it ran, failed, is kept
    assert "only reworks the output of step 1" in second.tool_call.args["aside"]
    # the same failure with nothing found before it is one to reflect on
    _, _, st2, nxt2 = _plan_executed(tmp_path, st.goal, ["grep 'loglevel' config/settings.yaml",
                                                          "head -n 1 grep 'loglevel' config/settings.yaml"])
    assert nxt2 == "REFLECT" and st2.executed_steps[1].status == StepStatus.FAILED


def test_a_command_that_already_ran_is_not_run_again_nor_counted_as_a_step(tmp_path):
    from types import SimpleNamespace

    from ragix_core.eval.evaluate import evaluate_run
    from ragix_core.eval.scenario import Scenario
    (tmp_path / "a.py").write_text("def f():\n    pass\n")
    (tmp_path / "b.py").write_text("from a import f\n")
    # measured (importer-of-a, R3 at 571bb74): the plan ran the same grep twice, 4 steps > max_steps 3
    commands = ["grep -rl 'from a import' .", "grep -rl 'from a import' . | wc -l", "grep  -rl 'from a import'  .",
                "grep -rl 'from a import' . | head -n 1"]
    f, _, st, nxt = _plan_executed(tmp_path, "Which file imports module a?", commands)
    assert nxt == "RESPOND" and st.reflection_count == 0
    first, counted, same, cut = st.executed_steps
    assert first.status == StepStatus.SUCCESS and "b.py" in first.result.stdout
    assert same.status == StepStatus.SKIPPED and same.result is None
    assert "ran as step 1" in same.tool_call.args["aside"]
    # a count or a cut of that search ("which file" asks for the list) would be run again whole
    # (_unreduce): it is step 1 too
    for step in (counted, cut):
        assert step.status == StepStatus.SKIPPED and "ran as step 1" in step.tool_call.args["aside"]
    # only the steps that ran count against the goal's budget
    scenario = Scenario(id="x", input=st.goal, expected_patterns=["b.py"], max_steps=2)
    st.final_answer = "b.py"
    assert evaluate_run(scenario, SimpleNamespace(state=st, events=[])).steps == 1
    # a goal that asks for the count gets it: the count is not the search it reduces
    st3 = ReasoningState(goal="How many files import module a?", session_id="s3")
    st3.executed_steps.append(first)
    count = f.execute_step(PlanStep(2, "s", ToolCall("shell", {"command": commands[1]})), st3)
    assert count.status == StepStatus.SUCCESS and count.result.stdout.strip() == "1"
    # a command whose earlier run failed is not skipped: it runs (and is judged) again
    st2 = ReasoningState(goal=st.goal, session_id="s2")
    failed = PlanStep(1, "s", ToolCall("shell", {"command": "cat missing.py"}), status=StepStatus.FAILED)
    st2.executed_steps.append(failed)
    again = f.execute_step(PlanStep(2, "s", ToolCall("shell", {"command": "cat missing.py"})), st2)
    assert again.status != StepStatus.SKIPPED and again.result is not None


def test_a_command_re_run_in_another_form_is_not_run_again_either(tmp_path):
    from ragix_core.tools import ToolBox

    (tmp_path / "a.py").write_text("import os\n")
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "models.py").write_text("@dataclass\nclass Item:\n    sku: str\n")
    f = fns(ScriptedLLM([]), ToolBox(tmp_path, profile="reflect"))
    st = ReasoningState(goal="Which class is declared as a dataclass?", session_id="s")
    for i in (1, 2):  # measured (b48c465): the plan's second `grep -rl dataclass *.py` ran and was widened again
        st.executed_steps.append(f.execute_step(PlanStep(i, "s", ToolCall("grep", {"command": "grep -rl dataclass *.py"})), st))
    first, second = st.executed_steps
    assert first.status == StepStatus.SUCCESS and "src/models.py" in first.result.stdout
    assert first.tool_call.args["command"] == "grep -rl '--include=*.py' dataclass ."
    assert "top directory only" in first.tool_call.args["note"]
    assert second.status == StepStatus.SKIPPED and "ran as step 1" in second.tool_call.args["aside"]


def _importers_project(tmp_path):
    from ragix_core.tools import ToolBox

    (tmp_path / "a.py").write_text("def greet():\n    return 'hi'\n")
    (tmp_path / "b.py").write_text("from a import greet\n")
    return ToolBox(tmp_path, profile="reflect")


def test_a_search_whose_reducer_printed_nothing_keeps_the_search_lines(tmp_path):
    from ragix_core.tools import ToolBox

    (tmp_path / "storage.py").write_text("def load_items(path):\n    pass\n\n\ndef save_items(path, items):\n    pass\n")
    f = fns(ScriptedLLM([]), ToolBox(tmp_path, profile="reflect"))
    st = ReasoningState(goal="List the functions defined in storage.py", session_id="s")
    # measured (wrong-module-store, a9a2574): blanks from cut, then three invented function names
    step = f.execute_step(PlanStep(1, "defs", ToolCall("shell", {"command": "grep -rn 'def' storage.py | cut -d: -f3"})), st)
    assert step.status == StepStatus.SUCCESS and "def load_items" in step.result.stdout
    # (the empty pipeline was first re-run with -i, tools/grep_case.py, which printed blanks too)
    assert step.tool_call.args["command"] in ("grep -rn 'def' storage.py", "grep -i -rn 'def' storage.py")
    assert "without `| cut -d: -f3`, which printed: nothing" in step.tool_call.args["aside"]
    # when the search alone finds nothing either, the step stays the empty pipeline it was
    empty = f.execute_step(PlanStep(2, "x", ToolCall("shell", {"command": "grep -rn 'class' storage.py | cut -d: -f3"})), st)
    assert empty.tool_call.args["command"].endswith("'class' storage.py | cut -d: -f3") and not empty.result.stdout.strip()


def test_a_re_aimed_search_whose_reducer_printed_nothing_keeps_the_search_lines(tmp_path):
    from ragix_core.tools import ToolBox

    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "storage.py").write_text("def load_items(path):\n    pass\n")
    f = fns(ScriptedLLM([]), ToolBox(tmp_path, profile="reflect"))
    st = ReasoningState(goal="List the functions defined in src/store.py", session_id="s")
    # measured (wrong-module-store-2, f04ae2c): re-aimed at storage.py, the cut printed blanks and
    # no second fix ran, so the writer had no def line
    step = f.execute_step(PlanStep(1, "defs", ToolCall("shell", {"command": "grep -rn 'def' src/store.py | cut -d: -f3"})), st)
    assert "def load_items" in step.result.stdout and "| cut" not in step.tool_call.args["command"]
    assert "storage.py" in step.tool_call.args["command"] and "storage.py" in step.tool_call.args["note"]


def test_a_ranking_cut_at_the_wrong_end_is_run_at_the_asked_end(tmp_path):
    from ragix_core.tools import ToolBox

    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "guide.md").write_text("line\n" * 120)
    (tmp_path / "docs" / "notes.md").write_text("line\n" * 6)
    f = fns(ScriptedLLM([]), ToolBox(tmp_path, profile="reflect"))
    st = ReasoningState(goal="Find the largest markdown file in this repo by line count", session_id="s")
    planned = "find . -name '*.md' -type f | xargs wc -l | sort -n | head -n 1"
    step = f.execute_step(PlanStep(1, "rank", ToolCall("shell", {"command": planned})), st)
    out = step.result.stdout.strip()
    assert out.split() == ["120", "./docs/guide.md"], out  # not `6 ./docs/notes.md`
    assert step.tool_call.args["aside"].startswith("the goal asks for the largest, and `sort -n | head`")
    assert step.tool_call.args["planned"] == planned


def test_a_plan_step_whose_count_hid_the_asked_file_keeps_the_search_lines(tmp_path):
    f = fns(ScriptedLLM([]), _importers_project(tmp_path))
    st = ReasoningState(goal="Which file imports module a?", session_id="s")
    step = f.execute_step(PlanStep(1, "find importers", ToolCall("shell", {"command": "grep -rl 'from a import' . | wc -l"})), st)
    assert step.status == StepStatus.SUCCESS
    assert step.tool_call.args["command"] == "grep -rl 'from a import' ."
    assert step.result.stdout.strip() == "./b.py"
    assert "which printed: 1" in step.tool_call.args["aside"]
    shown = f.evidence([step], st.goal)
    assert "./b.py" in shown and "which printed: 1" in shown  # the writer sees the names and the count
    assert "note" not in step.tool_call.args  # an aside is for the writer: nothing is appended to the answer


def test_a_count_the_goal_asks_for_is_kept(tmp_path):
    f = fns(ScriptedLLM([]), _importers_project(tmp_path))
    st = ReasoningState(goal="How many files import module a?", session_id="s")
    step = f.execute_step(PlanStep(1, "count", ToolCall("shell", {"command": "grep -rl 'from a import' . | wc -l"})), st)
    assert step.tool_call.args["command"] == "grep -rl 'from a import' . | wc -l" and step.result.stdout.strip() == "1"
    st.goal = "Which file imports module zzz?"  # the reducer counted nothing: nothing to give back
    empty = f.execute_step(PlanStep(2, "none", ToolCall("shell", {"command": "grep -rl 'from zzz import' . | wc -l"})), st)
    assert empty.tool_call.args["command"].endswith("| wc -l") and "aside" not in empty.tool_call.args


def test_a_ranking_that_kept_only_the_wc_total_line_is_run_without_it(tmp_path):
    f = fns(ScriptedLLM([]), _importers_project(tmp_path))
    st = ReasoningState(goal="Which Python file has the most lines?", session_id="s")
    command = "wc -l a.py b.py | sort -n | tail -n 1"
    step = f.execute_step(PlanStep(1, "largest", ToolCall("shell", {"command": command})), st)
    assert step.status == StepStatus.SUCCESS
    assert step.tool_call.args["command"] == "wc -l a.py b.py | grep -v ' total$' | sort -n | tail -n 1"
    assert step.result.stdout.split() == ["2", "a.py"] and step.tool_call.args["planned"] == command
    assert "total" in step.tool_call.args["aside"]


def test_a_sum_over_a_wc_table_does_not_count_its_total_line(tmp_path):
    # measured on the three sets at bd99fa4: ten `xargs wc -l | awk '{sum += $1} END {print sum}'` pipes; with
    # wc's total line (bash prints it) each would count every file twice
    from ragix_core.tools import ToolBox

    (tmp_path / "a.md").write_text("x\n" * 3)
    (tmp_path / "b.md").write_text("x\n")
    f = fns(ScriptedLLM([]), ToolBox(tmp_path, profile="reflect"))
    st = ReasoningState(goal="How many lines do the markdown files have together?", session_id="s")
    command = "find . -name '*.md' | xargs wc -l | awk '{sum += $1} END {print sum}'"
    step = f.execute_step(PlanStep(1, "sum", ToolCall("shell", {"command": command})), st)
    assert step.result.stdout.strip() == "4" and "total" in step.tool_call.args["aside"]
    one = "find . -name 'a.md' | xargs wc -l | awk '{sum += $1} END {print sum}'"  # one file: no total line
    step = f.execute_step(PlanStep(2, "sum", ToolCall("shell", {"command": one})), st)
    assert step.result.stdout.strip() == "3" and step.tool_call.args["command"] == one
    assert "aside" not in step.tool_call.args


def test_a_step_that_wrote_is_never_run_again_by_a_mend(tmp_path):
    # the mends re-run a pipeline; one that appended to a file would append twice
    from ragix_core.tools import ToolBox

    (tmp_path / "a.md").write_text("x\n" * 3)
    (tmp_path / "b.md").write_text("x\n")
    f = fns(ScriptedLLM([]), ToolBox(tmp_path, profile="dev", sandbox="none", assume_yes=True))
    st = ReasoningState(goal="Append the markdown files' line total to sums.txt", session_id="s")
    command = "find . -name '*.md' | xargs wc -l | awk '{s += $1} END {print s}' >> sums.txt"
    step = f.execute_step(PlanStep(1, "sum", ToolCall("shell", {"command": command})), st)
    assert step.status == StepStatus.SUCCESS and step.tool_call.args["command"] == command
    assert len((tmp_path / "sums.txt").read_text().splitlines()) == 1


def test_a_table_cut_to_its_total_line_by_no_ranking_keeps_the_table(tmp_path):
    f = fns(ScriptedLLM([]), _importers_project(tmp_path))
    st = ReasoningState(goal="Which Python file has the most lines?", session_id="s")
    step = f.execute_step(PlanStep(1, "largest", ToolCall("shell", {"command": "wc -l a.py b.py | tail -n 1"})), st)
    assert step.tool_call.args["command"] == "wc -l a.py b.py"
    assert "2 a.py" in step.result.stdout and "which printed: 3 total" in step.tool_call.args["aside"]


def test_a_voted_command_whose_cut_dropped_the_file_names_is_answered_from_the_search(tmp_path):
    box = _importers_project(tmp_path)
    (tmp_path / "api.py").write_text("x = 1\n# FIXME: return 404 instead of raising KeyError\n")
    llm = ScriptedLLM([fenced("grep -rn FIXME . | cut -d: -f3-"), "api.py asks to return 404."])
    f = fns(llm, box)
    f.last_complexity = TaskComplexity.SIMPLE
    res = f.answer("Find FIXME comments in the code and say what they ask for.")
    assert [s.tool_call.args["command"] for s in res["steps"]] == ["grep -rn FIXME ."]
    assert "./api.py:2:" in llm.calls[-1]["messages"][0]["content"]  # the writer saw the file name


def test_a_written_answer_with_a_number_no_output_shows_is_marked():
    step = PlanStep(1, "grep", ToolCall("shell", {"command": "grep -rn port config"}))
    step.result = ToolResult("grep", 0, stdout="config/settings.yaml:4:  port: 8080\n", command="grep -rn port config")
    step.status = StepStatus.SUCCESS
    invented = fns(ScriptedLLM(["The server listens on port 80."])).compose_for("What port does the server use?", [step])
    assert "no command output shows 80" in invented
    read = fns(ScriptedLLM(["The server listens on port 8080."])).compose_for("What port does the server use?", [step])
    assert read == "The server listens on port 8080."


def test_a_search_in_a_file_that_exists_under_no_close_name_is_run_over_the_project(tmp_path):
    # Measured: "Read the project version from setup.py" (the version is in pyproject.toml) ended
    # no_evidence after `grep -rn version setup.py`.
    from ragix_core.tools import ToolBox

    (tmp_path / "pyproject.toml").write_text('[project]\nname = "inv"\nversion = "0.3.0"\n')
    llm = ScriptedLLM([fenced("grep -n version setup.py"), "setup.py does not exist; the version is 0.3.0."])
    f = fns(llm, ToolBox(tmp_path, profile="reflect"))
    f.last_complexity = TaskComplexity.SIMPLE
    res = f.answer("Read the project version from setup.py")
    assert res["meta"]["attempt"]["commands"] == ["grep -n version setup.py", "grep -r -n version ."]
    assert [s.tool_call.args["command"] for s in res["steps"]] == ["grep -r -n version ."]  # the evidence
    assert './pyproject.toml:3:version = "0.3.0"' in res["steps"][-1].result.stdout
    assert "setup.py does not exist and no file has a similar name" in res["answer"]  # the user is told
    st = ReasoningState(goal="Read the project version from setup.py", session_id="s")
    step = f.execute_step(PlanStep(1, "read", ToolCall("shell", {"command": "cat setup.py"})), st)
    assert step.status == StepStatus.FAILED  # only a search is re-aimed: there is nothing to read instead


def test_a_refused_substitution_is_rerun_as_xargs_and_said_to_the_writer_only(tmp_path):
    from ragix_core.tools import ToolBox

    (tmp_path / "guide.md").write_text("# Guide\n## Install\n## FAQ\n")
    llm = ScriptedLLM(["The guide's sections are Install and FAQ."])
    f = fns(llm, ToolBox(tmp_path, profile="reflect"))
    st = ReasoningState(goal="List the level-2 headings of the markdown file", session_id="s")
    step = f.execute_step(PlanStep(1, "headings", ToolCall("shell", {
        "command": "grep -n '^## ' $(find . -name '*.md' | head -n 1)"})), st)
    assert step.status == StepStatus.SUCCESS and "./guide.md:2:## Install" in step.result.stdout
    assert step.tool_call.args["command"] == "find . -name '*.md' | head -n 1 | xargs grep -n '^## '"
    assert "no command substitution" in step.tool_call.args["aside"] and "note" not in step.tool_call.args
    answer = f.compose_for(st.goal, [step])
    assert "no command substitution" in llm.calls[-1]["messages"][0]["content"]  # the writer was told
    # the aside is for the writer: the user's answer does not carry it (xargs's grep named the file it
    # searched, which grounding lists as for any grep that names its files)
    assert answer.startswith("The guide's sections are Install and FAQ.") and "substitution" not in answer


def test_a_json_backspace_in_a_command_is_the_regex_word_boundary_the_model_wrote(tmp_path):
    # measured (cli-get-call-path): `"grep -oP '(?<=def ).*\b'"` decoded to U+0008 and every replan was
    # refused as a control character
    import json

    from ragix_core.baseline_s0 import S0Command
    from ragix_core.reasoning_v30.replies import CommandReply, PlanReply

    raw = '"grep -rnP \'\\bload\\b\' ."'  # JSON text with \b unescaped, as the model writes it
    assert "\x08" in json.loads(raw)  # what JSON makes of it
    assert CommandReply.model_validate_json('{"command": %s}' % raw).command == "grep -rnP '\\bload\\b' ."
    assert S0Command.model_validate_json('{"command": %s}' % raw).command == "grep -rnP '\\bload\\b' ."
    plan = PlanReply.model_validate_json('{"objective": "o", "steps": [{"num": 1, "description": "d", "tool": "grep", '
                                         '"args": {"command": %s}}]}' % raw)
    assert plan.steps[0].args["command"] == "grep -rnP '\\bload\\b' ."
    # measured (largest-md-headings): `(?=\n)` inside a quoted pattern arrived as a newline
    newline = CommandReply.model_validate_json('{"command": "grep -oP \'(?<=## ).*(?=\\n)\' a.md"}').command
    assert newline == "grep -oP '(?<=## ).*(?=\\n)' a.md"
    two = CommandReply.model_validate_json('{"command": "grep x a.md\\nwc -l a.md"}').command
    assert two == "grep x a.md\nwc -l a.md"  # between commands: left for the lexer to refuse, by name
    (tmp_path / "s.py").write_text("def load(p):\n    return p\nloader = 1\n")
    from ragix_core.tools import ToolBox

    result = ToolBox(tmp_path, profile="reflect").run_command(plan.steps[0].args["command"])
    assert result.returncode == 0 and "s.py:1:def load(p):" in result.stdout and "loader" not in result.stdout


def _headings_project(tmp_path, worker_replies):
    from ragix_core.tools import ToolBox

    (tmp_path / "docs").mkdir()
    (tmp_path / "README.md").write_text("# R\n## Layout\n")
    (tmp_path / "docs" / "guide.md").write_text("# G\n## Installation\n## FAQ\n" + "text\n" * 20)
    llm = ScriptedLLM(worker_replies)
    f = fns(llm, ToolBox(tmp_path, profile="reflect"))
    st = ReasoningState(goal="Find the markdown file with the most lines, then list its level-2 section headings.",
                        session_id="s")
    first = f.execute_step(PlanStep(1, "largest", ToolCall("shell", {
        "command": "find . -name '*.md' | xargs wc -l | sort -nr | head -n 1"})), st)
    st.executed_steps.append(first)
    second = PlanStep(2, "List the level-2 headings of the largest markdown file", ToolCall("grep", {
        "command": "grep -n '^## ' $(find . -name '*.md' | sort | head -n 1)"}))
    return f, st, llm, f.execute_step(second, st)


def test_a_substitution_after_earlier_outputs_is_written_again_from_them(tmp_path):
    # measured (largest-md-headings): the xargs form of `$(find ... | head -n 1)` read README.md, not the
    # largest file step 1 had found
    f, st, llm, step = _headings_project(tmp_path, [{"command": "grep -n '^## ' docs/guide.md"}])
    assert step.result.stdout.splitlines() == ["2:## Installation", "3:## FAQ"]
    assert step.status == StepStatus.SUCCESS and step.tool_call.args["command"] == "grep -n '^## ' docs/guide.md"
    assert "written again from the earlier steps' outputs" in step.tool_call.args["aside"]
    prompt = llm.calls[0]["messages"][0]["content"]
    assert "./docs/guide.md" in prompt and "ragix runs no `$(...)`" in prompt  # the worker saw step 1's output


def test_a_rewrite_that_fails_falls_back_to_the_xargs_form(tmp_path):
    f, st, llm, step = _headings_project(tmp_path, [{"command": "grep -n '^## ' $(ls docs)"}])
    assert step.status == StepStatus.SUCCESS
    assert step.tool_call.args["command"] == "find . -name '*.md' | sort | head -n 1 | xargs grep -n '^## '"




def test_a_finished_plan_whose_last_step_misreads_goes_to_reflect_with_its_mistake(tmp_path):
    from ragix_core.reasoning_v30.execute import ExecuteNode
    from ragix_core.tools import ToolBox

    (tmp_path / "a").mkdir()
    for name in ("x.txt", "y.txt"):
        (tmp_path / "a" / name).write_text("1\n")
    f = fns(ScriptedLLM([]), ToolBox(tmp_path, profile="reflect"))
    goal = "Which directory directly contains the most files, and how many?"

    def finish(command):
        st = ReasoningState(goal=goal, session_id="s")
        st.complexity = TaskComplexity.MODERATE
        st.plan = Plan(objective="o", steps=[PlanStep(1, "s", ToolCall("shell", {"command": command}))])
        node = ExecuteNode(f.execute_step, {TaskComplexity.MODERATE: 1}, doubt_fn=f.doubt_plan)
        nxt = "EXECUTE"
        while nxt == "EXECUTE":
            st, nxt = node.run(st)
        return st, nxt

    # measured on the paraphrase set at a6351b3: this plan's one count had nothing to rank, and it ended `success`
    mistaken = "find . -type f | wc -l | sort -nr | head -n 1"
    st, nxt = finish(mistaken)
    assert nxt == "REFLECT" and st.stop_reason != "success"
    assert st.last_error.startswith(f"`{mistaken}` ran, but `wc -l` read")
    st, nxt = finish("find . -type f | wc -l")  # a sound last step is no doubt
    assert nxt == "RESPOND" and st.stop_reason == "success"
