"""The main path end to end (graph_v30 with its default routing): real tools on a small project, a
scripted model. What CLASSIFY decides without a model, one greedy command, the vote after a failure,
the retry on the real error, the plan only after that, and the named stop of a disputed answer."""

from __future__ import annotations

from pathlib import Path

import pytest

from ragix_core.config import parse_config
from ragix_core.core.events import EventKind
from ragix_core.runtime.run import run_goal
from tests.scripted_llm import ScriptedLLM


CHECK = {"voting": {"cross_check_draws": 1}}  # one cross-check draw of a short output, none by default
JUDGE = {"voting": {"judge_disputes": True, "cross_check_draws": 1}}  # the dispute judge (judge.py), off by default


def fenced(command: str) -> str:
    return f"This prints it:\n```sh\n{command}\n```"


@pytest.fixture()
def project(tmp_path, monkeypatch) -> Path:
    monkeypatch.setenv("RAGIX_HOME", str(tmp_path / "home"))
    root = tmp_path / "project"
    (root / "docs").mkdir(parents=True)
    (root / "docs" / "install.md").write_text("# Install\n" + "step\n" * 11)
    (root / "docs" / "usage.md").write_text("# Usage\nrun it\n")
    (root / "app.py").write_text("def main():\n    return 0\n")
    return root


def run(goal, project, *replies, reasoning=None, **kw):
    llm = ScriptedLLM(list(replies))
    cfg = parse_config({"reasoning": {"traces": {"enabled": False}, **(reasoning or {})}})
    return run_goal(goal, cwd=project, config=cfg, client_factory=lambda s: llm, **kw), llm


def commands_run(res):
    return [e.data["command"] for e in res.events if e.kind == EventKind.TOOL_CALL]


@pytest.mark.parametrize("goal", ["hello!", "What is the difference between a process and a thread?",
                                  "Why do people like tabs over spaces?"])
def test_a_goal_that_names_nothing_in_the_project_never_runs_a_tool(project, goal):
    res, llm = run(goal, project, {"answer": "a direct answer", "confidence": 0.8})
    assert res.node_trace == ["CLASSIFY", "DIRECT_EXEC", "RESPOND"]
    assert res.state.complexity.value == "bypass" and not commands_run(res)
    assert len(llm.calls) == 1  # no model labelled it: the one call wrote the answer
    assert res.state.final_answer == "a direct answer" and res.state.stop_reason == "success"


def test_a_greedy_command_confirmed_by_one_sample_is_the_whole_run(project):
    res, llm = run("How many lines does docs/install.md have?", project, fenced("wc -l docs/install.md"),
                   fenced("cat docs/install.md | wc -l"), reasoning=CHECK)
    assert res.node_trace == ["CLASSIFY", "DIRECT_EXEC", "RESPOND"]
    # greedy, one sample; wc's line for one file is the answer as printed (read_off.py): no writer
    assert [c["temperature"] for c in llm.calls] == [0.0, 0.7]
    assert res.state.final_answer == "docs/install.md has 12 lines."
    assert res.state.stop_reason == "success" and res.state.confidence == 0.9
    assert res.state.meta["attempt"]["decided_by"] == "greedy" and res.state.meta["attempt"]["confirmed"]
    assert "```sh code block" in llm.calls[0]["messages"][0]["content"]  # the free-text request


def test_a_long_output_is_the_answer_with_no_sample(project):
    (project / "notes").mkdir()
    for n in range(5):
        (project / "notes" / f"n{n}.txt").write_text("x\n")
    res, llm = run("Which files are in notes?", project, fenced("ls notes"), "n0.txt to n4.txt.")
    assert len(llm.calls) == 2 and res.state.confidence == 0.6 and res.state.stop_reason == "success"


def test_an_answer_stating_a_number_no_output_shows_ends_unsupported(project):
    res, llm = run("How many lines do the docs have?", project, fenced("wc -l docs/install.md docs/usage.md"),
                   "The docs have 57 lines.")
    assert res.state.stop_reason == "unsupported_answer" and res.state.confidence <= 0.3
    assert "no command output shows 57" in res.state.final_answer


def test_a_failed_command_is_followed_by_sampled_commands_voted_on_their_output(project):
    res, llm = run("How many markdown files are in docs?", project,
                   fenced("ls docs/*.markdown | wc -l"), fenced("find docs -name '*.md' | wc -l"),
                   fenced("find docs -type f -name '*.md' | wc -l"))
    attempt = res.state.meta["attempt"]
    assert attempt["decided_by"] == "vote" and attempt["agreed"] == 2 and attempt["ran"] == 3
    assert [c["temperature"] for c in llm.calls] == [0.0, 0.7, 0.7]  # greedy, then sampled; no writer:
    assert res.state.stop_reason == "success" and res.state.final_answer == "2"  # the output is one number
    assert attempt["answer_from"] == "output"
    assert [s.tool_call.args["command"] for s in res.state.executed_steps] == ["find docs -name '*.md' | wc -l"]
    # the record of every draw: what its run gave, what it printed, which one won
    first, *voted = attempt["draws"]
    assert [(d["kind"], d["output"], d["won"]) for d in voted] == [("read", "2", True), ("read", "2", False)]
    assert first["kind"] == "failed" and "cannot access 'docs/*.markdown'" in first["output"]
    assert first["command"] == "ls docs/*.markdown | wc -l"


def test_a_diff_that_finds_differences_is_an_answer_not_a_failure(project):
    # diff exits 1 when the files differ: that is what the goal asked, not an error to retry on.
    res, llm = run("How do docs/install.md and docs/usage.md differ?", project,
                   fenced("diff docs/install.md docs/usage.md"),
                   "install.md has eleven step lines; usage.md has one run line.")
    attempt = res.state.meta["attempt"]
    assert (attempt["decided_by"], attempt["ran"], attempt["retries"]) == ("greedy", 1, 0)
    assert [c["temperature"] for c in llm.calls] == [0.0, 0.0]  # the command, then the writer: nothing redrawn
    assert "< step" in llm.calls[1]["messages"][0]["content"] and res.state.stop_reason == "success"


def test_a_retry_is_shown_the_error_and_the_nearest_directory(project):
    replies = [fenced("cat docs/setup.txt")] * 2 + [fenced("wc -l docs/install.md"),
                                                    fenced("cat docs/install.md | wc -l"), "It has 12 lines."]
    res, llm = run("Read the install notes and say how long they are", project, *replies,
                   reasoning={"voting": {"samples": 1, "cross_check_draws": 1}})
    retry = llm.calls[2]["messages"][0]["content"]
    assert "The command `cat docs/setup.txt` failed (exit code 1)" in retry
    assert "No such file or directory" in retry
    assert "./docs: install.md, usage.md" in retry  # what a person would `ls` next
    # The retry's short output is put to a command written another way, which confirms it.
    cross_check = llm.calls[3]["messages"][0]["content"]
    assert "Already run: `cat docs/setup.txt`; `wc -l docs/install.md`" in cross_check
    attempt = res.state.meta["attempt"]
    assert attempt["decided_by"] == "retry" and attempt["confirmed"] and res.state.stop_reason == "success"


def test_the_cross_check_request_asks_for_the_code_block_alone_and_hides_the_output(project):
    # Asked only "another way", sampled replies explained at length and then wrote the same pipe
    # (benchmarks/cross_check_reply.py: 61.5 completion tokens a draw before, 33.1 after, same confirmations).
    res, llm = run("How many lines does docs/install.md have?", project, fenced("wc -l docs/install.md"),
                   fenced("cat docs/install.md | wc -l"), "docs/install.md has 12 lines.", reasoning=CHECK)
    cross_check = llm.calls[1]["messages"][0]["content"]
    request = cross_check[cross_check.index("Already run:"):]
    assert "code block only" in request and "no explanation" in request
    assert "12" not in request  # the greedy output is not shown: it could be copied into an `echo`
    assert res.state.meta["attempt"]["confirmed"]


def test_by_default_a_short_output_rests_on_one_command_and_ends_unconfirmed(project):
    res, llm = run("How many lines does docs/install.md have?", project, fenced("wc -l docs/install.md"))
    # one call: no cross-check draw, and wc's line for one file is the answer as printed (read_off.py)
    assert [c["temperature"] for c in llm.calls] == [0.0]
    assert res.state.stop_reason == "unconfirmed" and res.state.confidence == 0.6
    assert res.state.final_answer == "docs/install.md has 12 lines."
    assert res.state.meta["attempt"]["answer_from"] == "output"
    assert res.state.meta["caveat"] == ("this answer rests on one command; no other command was run to check it: "
                                        "`wc -l docs/install.md`.")
    assert res.state.meta["attempt"]["unconfirmed"] and res.state.meta["attempt"]["drawn"] == 1


def test_a_short_output_no_other_command_reproduces_ends_unconfirmed(project):
    # The cross-check draw repeats the greedy pipe: the same command again is not a second vote.
    res, llm = run("What are the first lines of docs/install.md?", project, *[fenced("head -n 3 docs/install.md")] * 2,
                   "It opens with an Install heading and two step lines.", reasoning=CHECK)
    assert len(llm.calls) == 3  # greedy, one cross-check draw (voting.cross_check_draws), the writer
    assert res.state.meta["attempt"]["answer_from"] == "writer"  # three lines: not an answer as printed
    assert res.state.stop_reason == "unconfirmed" and res.state.confidence == 0.6
    assert "Install heading" in res.state.final_answer and "rests on one command" not in res.state.final_answer
    # The reservation is said beside the answer, not inside it: a reader taking the answer gets the answer alone.
    assert res.state.meta["caveat"].startswith("no second command printed the same output")
    assert res.to_dict()["caveat"] == res.state.meta["caveat"]
    end = [e for e in res.events if e.kind == EventKind.RUN_END][-1]
    assert end.data["caveat"] == res.state.meta["caveat"] and end.data["answer"] == res.state.final_answer
    assert [s.tool_call.args["command"] for s in res.state.executed_steps] == ["head -n 3 docs/install.md"]


def test_a_goal_whose_commands_all_fail_ends_no_evidence_naming_them_by_default(project):
    res, llm = run("How long is the entry point file nowhere.txt?", project, *[fenced("cat nowhere.txt")] * 6,
                   reasoning={"voting": {"samples": 1}})
    # greedy, one sample, then two retries, each repeating the command and drawn once more, hotter
    assert res.node_trace == ["CLASSIFY", "DIRECT_EXEC", "RESPOND"] and len(llm.calls) == 6
    assert [c["temperature"] for c in llm.calls[3::2]] == [1.0, 1.0]
    assert res.state.stop_reason == "no_evidence" and "nowhere.txt does not exist" in res.state.final_answer
    assert res.state.meta["attempt"]["retries"] == 2 and not res.state.meta["attempt"]["found_nothing"]


@pytest.mark.parametrize("tell", [True, False])
def test_voting_tell_samples_decides_whether_the_sample_after_a_failure_reads_it(project, tell):
    res, llm = run("How long is the entry point file nowhere.txt?", project, *[fenced("cat nowhere.txt")] * 6,
                   reasoning={"voting": {"samples": 1, "tell_samples": tell}})
    greedy, sample = (c["messages"][-1]["content"] for c in llm.calls[:2])
    assert llm.calls[1]["temperature"] == 0.7  # the sample, drawn at voting.temperature
    assert (sample != greedy) is tell and ("nowhere.txt does not exist" in sample) is tell


def test_a_goal_whose_commands_all_fail_plans_with_what_was_tried(project):
    replies = [fenced("cat nowhere.txt")] * 6 + [
        {"objective": "o", "validation": "v", "confidence": 0.5,
         "steps": [{"num": 1, "description": "count", "tool": "wc", "args": {"command": "wc -l app.py"}}]},
        "app.py has 2 lines."]
    res, llm = run("How long is the entry point file nowhere.txt?", project, *replies,
                   reasoning={"voting": {"samples": 1}, "plan_after_failure": True})
    assert res.node_trace[:3] == ["CLASSIFY", "DIRECT_EXEC", "PLAN"]
    assert res.state.meta["escalated"] == "no command worked"
    assert res.state.complexity.value == "simple"  # its budget: no reflection after the attempt's retries
    plan_prompt = llm.calls[6]["messages"][-1]["content"]
    assert "Tried first, one command at a time" in plan_prompt and "`cat nowhere.txt` [FAILED]" in plan_prompt
    assert res.state.stop_reason == "success"


def test_a_goal_that_asks_two_things_plans_at_once(project):
    plan = {"objective": "o", "validation": "v", "confidence": 0.5,
            "steps": [{"num": 1, "description": "count", "tool": "wc", "args": {"command": "wc -l app.py"}},
                      {"num": 2, "description": "list", "tool": "ls", "args": {"command": "ls docs"}}]}
    res, llm = run("How many lines does app.py have, and which files are in docs?", project, plan,
                   "app.py has 2 lines; docs holds install.md and usage.md.")
    assert res.node_trace[:3] == ["CLASSIFY", "PLAN", "EXECUTE"]
    assert res.state.complexity.value == "moderate"  # labelled by the rules, no model call for it
    assert res.state.stop_reason == "success"


def test_commands_that_print_different_things_end_disputed_not_success(project):
    # The judge's first reading of each rival keeps the first command: no second reading, no change.
    replies = [fenced("cat missing.md"), fenced("wc -l docs/install.md"), fenced("wc -l docs/usage.md"),
               fenced("grep -c step docs/install.md"), "1", "1", "The guide has 12 lines."]
    res, llm = run("How long is the guide file?", project, *replies, reasoning=JUDGE)
    assert res.state.stop_reason == "disputed" and res.state.meta["attempt"]["decided_by"] == "vote"
    assert [j["picks"] for j in res.state.meta["attempt"]["judged"]] == [[1], [1]]  # one reading each: kept
    caveat = res.state.meta["caveat"]
    assert "3 commands printed 3 different outputs" in caveat and "11" not in res.state.final_answer
    # The rivals are shown beside the basis, as written: the user can judge between them.
    assert 'Other outputs: `wc -l docs/usage.md` printed "2 docs/usage.md"; `grep -c step docs/install.md` printed "11"' \
        in caveat
    assert res.state.confidence < 0.5


def test_a_disputed_count_both_readings_reject_is_replaced_by_its_rival(project):
    # `grep -c step` counts the lines that say "step", not all lines: the cross-check's `wc -l` printed
    # the lines, and the judge, asked in both orders, picked the cross-check both times.
    replies = [fenced("grep -c step docs/install.md"), fenced("wc -l docs/install.md"), "2", "1"]
    res, llm = run("How many lines does docs/install.md have?", project, *replies, reasoning=JUDGE)
    judge_prompt = llm.calls[2]["messages"][0]["content"]
    assert "Command 1: `grep -c step docs/install.md`" in judge_prompt and "12 docs/install.md" in judge_prompt
    assert "Command 1: `wc -l docs/install.md`" in llm.calls[3]["messages"][0]["content"]  # the other order
    assert res.state.final_answer == "docs/install.md has 12 lines."  # the rival's output, read off: no writer
    assert res.state.meta["attempt"]["decided_by"] == "judged" and res.state.stop_reason == "disputed"
    assert "said computes the goal" in res.state.meta["caveat"]
    assert 'Other outputs: `grep -c step docs/install.md` printed "11"' in res.state.meta["caveat"]


def test_without_the_judge_a_dispute_keeps_the_first_command_with_no_extra_call(project):
    replies = [fenced("grep -c step docs/install.md"), fenced("wc -l docs/install.md")]
    res, llm = run("How many lines does docs/install.md have?", project, *replies, reasoning=CHECK)
    assert len(llm.calls) == 2 and res.state.meta["attempt"]["decided_by"] == "greedy"
    # The kept output is one number: it is the answer as printed, the dispute said beside it.
    assert res.state.stop_reason == "disputed" and res.state.final_answer == "11"
    assert "Other outputs: `wc -l docs/install.md`" in res.state.meta["caveat"]


def test_a_count_of_file_names_for_a_count_of_lines_loses_to_a_sound_rival_without_a_judge(project):
    # `ls DIR | grep FILE | wc -l` counts files named FILE (evidence/count_unit.py; ragix mends only a `find`
    # listing): a mistake, which never wins over a sound output, so there is nothing to dispute.
    replies = [fenced("ls docs | grep install.md | wc -l"), fenced("wc -l docs/install.md"),
               fenced("cat docs/install.md | wc -l")]
    res, llm = run("How many lines does docs/install.md have?", project, *replies)
    assert len(llm.calls) == 3 and res.state.final_answer == "docs/install.md has 12 lines."  # read off wc's line
    attempt = res.state.meta["attempt"]
    assert attempt["decided_by"] == "vote" and not attempt["disputed"] and res.state.final_answer.startswith("docs/")


def test_a_write_in_a_read_only_run_is_planned_and_not_made(project):
    plan = {"objective": "o", "validation": "v", "confidence": 0.5,
            "steps": [{"num": 1, "description": "make", "tool": "mkdir", "args": {"command": "mkdir build"}},
                      {"num": 2, "description": "list", "tool": "ls", "args": {"command": "ls docs"}}]}
    res, llm = run("Create a directory named build next to the docs folder", project, fenced("mkdir build"), plan,
                   "docs holds install.md and usage.md.", profile="dev")
    assert res.state.meta["escalated"] == "the command writes and this run may only read"
    assert len(llm.calls) == 3 and not (project / "build").exists()
    assert "did not run the plan's commands that write" in res.state.final_answer


@pytest.mark.parametrize("goal", ["Where is split_lines defined?", "what does KeywordFilter inherit from?",
                                  "What is MAX_DEPTH set to?", "Who uses @cached?", "What is __version__?",
                                  "Which subpackages does the package have?"])
def test_a_question_that_names_code_is_about_the_project(goal):
    from ragix_core.reasoning_v30.classify_rules import needs_tools, rule_based_complexity

    assert needs_tools(goal) and rule_based_complexity(goal) is None


@pytest.mark.parametrize("goal", ["What is recursion?", "Explain what a Unix pipe does.",
                                  "What is the difference between a list and a tuple in Python?"])
def test_a_conceptual_question_naming_no_code_is_bypass(goal):
    from ragix_core.reasoning_v30.classify_rules import rule_based_complexity

    assert rule_based_complexity(goal) is not None


def test_a_command_that_pastes_a_placeholder_of_the_examples_is_refused_unrun(project):
    # Measured at 3ab9bd7 (NL2Bash): `find . -type f -name '*.EXT'` ran as written and found nothing.
    res, llm = run("How many markdown files are in docs?", project, fenced("find docs -type f -name '*.EXT' | wc -l"),
                   fenced("find docs -name '*.md' | wc -l"), fenced("find docs -type f -name '*.md' | wc -l"),
                   "2 markdown files.")
    assert res.state.meta["attempt"]["decided_by"] == "vote"
    assert not any("EXT" in c for c in commands_run(res))  # the pasted command never ran
    assert res.state.stop_reason == "success"


def test_every_placeholder_the_request_shows_is_known():
    import re as _re

    from ragix_core.llm.command_prompt import PLACEHOLDERS, command_request, pasted_placeholder
    from ragix_core.tools.model_commands import describe
    from ragix_core.tools.policy import MODEL_COMMANDS

    text = command_request("g", ["ls", "grep"], "(listing)", describe(list(MODEL_COMMANDS)))
    shown = set(_re.findall(r"\b[A-Z][A-Z_]{2,}\b", text)) - {"ONE"}  # "Write ONE command": emphasis
    assert shown <= set(PLACEHOLDERS), shown - set(PLACEHOLDERS)
    assert pasted_placeholder("grep -rn MAX_NAME_LEN .") is None and pasted_placeholder("wc -l FILE") == "FILE"


def test_a_write_that_changes_nothing_does_not_answer_a_count_that_commands_then_compute(project):
    # The goal's files exist already; the model first writes `mkdir -p docs`, which changes nothing.
    res, llm = run("How many files are in the docs directory?", project, fenced("mkdir -p docs"),
                   fenced("ls docs | wc -l"), fenced("find docs -type f | wc -l"), profile="dev", assume_yes=True)
    attempt = res.state.meta["attempt"]
    assert attempt["decided_by"] == "vote" and attempt["confirmed"] and len(llm.calls) == 3
    assert res.state.final_answer.startswith("2") and res.state.stop_reason == "success"
    assert sorted(p.name for p in (project / "docs").iterdir()) == ["install.md", "usage.md"]


def test_an_answer_resting_on_a_write_that_changed_nothing_ends_no_change(project):
    replies = [fenced("mkdir -p docs")] * 8 + ["The docs directory exists."]
    res, llm = run("Make sure the docs directory exists", project, *replies, profile="dev", assume_yes=True)
    assert res.state.meta["attempt"]["decided_by"] == "unchanged"
    assert res.state.stop_reason == "no_change" and res.state.confidence <= 0.3
    assert "changed nothing" in res.state.meta["caveat"]
    assert [(d["kind"], d["won"]) for d in res.state.meta["attempt"]["draws"]] == [("unchanged", True)]


def test_a_count_answered_after_a_write_that_printed_nothing_is_unsupported_not_a_success(project):
    # AgentBench OS test-115 at a6351b3: `touch` on every file, then "0" files, ended `success`. The draws
    # asked for the count after the write (below) only wrote again or stated a number: nothing was read.
    res, llm = run("How many files are in the docs directory?", project, fenced("touch docs/install.md docs/usage.md"),
                   fenced("touch docs/new.md"), fenced("echo 2"), "There are 0 files in the docs directory.",
                   profile="dev", assume_yes=True)
    assert res.state.meta["attempt"]["decided_by"] == "greedy" and len(llm.calls) == 4
    assert res.state.stop_reason == "unsupported_answer" and res.state.confidence <= 0.3
    assert "rests on no output" in res.state.meta["caveat"] and "touch" in res.state.meta["caveat"]


def test_a_write_that_printed_nothing_is_followed_by_a_command_for_the_quantity_the_goal_asks(project):
    # AgentBench OS test-113 at dd1a5f0: `touch log_files/log{1..10}` won, and the answer's count rested on
    # no output. The write is one part of the goal: the next draw is asked for what is left, and answers.
    res, llm = run("How many files are in the docs directory?", project,
                   fenced("touch docs/notes.md"), fenced("find docs -type f | wc -l"), profile="dev", assume_yes=True)
    asked = llm.calls[1]["messages"][0]["content"]
    assert len(llm.calls) == 2 and "`touch docs/notes.md` ran: it changed the project" in asked
    assert "That part of the goal is done" in asked and llm.calls[1]["temperature"] == 0.0  # the first is greedy
    attempt = res.state.meta["attempt"]
    assert attempt["decided_by"] == "after_write" and attempt["answer_from"] == "output"
    assert res.state.final_answer.startswith("3") and res.state.stop_reason == "unconfirmed"
    assert [s.tool_call.args["command"] for s in res.state.executed_steps] == ["touch docs/notes.md",
                                                                              "find docs -type f | wc -l"]
    assert (project / "docs" / "notes.md").is_file()


def test_a_write_the_goal_asks_for_is_a_success_when_its_answer_states_no_quantity(project):
    res, _ = run("Copy app.py to main.py", project, fenced("cp app.py main.py"), "Copied app.py to main.py.",
                 profile="dev", assume_yes=True)
    assert res.state.stop_reason == "success" and (project / "main.py").is_file()
