"""The player's command as free text (command_turn.py), and the answer a short output suggests.

Measured (issue 34): on 8 unseen questions the tutor lost 0/8 to the plain call's 7/8, its player
repeating one JSON `ls` until the game stalled. These tests pin when a turn asks for free text, what
that request shows, and that the tutor still judges the command like any PROPOSE.
"""

import pytest

from ragix_core.reasoning_tutor.graph import ProofGraph
from ragix_core.reasoning_tutor.suggest import printed_claim, suggest, unconfirmed_output
from ragix_core.reasoning_tutor.tutor import Tutor, TutorSettings
from ragix_core.tools import ToolBox
from ragix_core.reasoning_tutor.actions import Executor
from tests.reasoning_tutor.conftest import move
from tests.reasoning_tutor.test_game import play

WC = "Count them:\n```sh\nwc -l README.md\n```"
CHECK = "```sh\ncat README.md | wc -l\n```"  # the cross-check of WC's short output: it prints 3 too


def _game(project, tmp_path):
    box = ToolBox(project, profile="reflect")
    executor = Executor(box)
    return Tutor("How many lines does README.md have?", ProofGraph(tmp_path / "g.jsonl"),
                 lambda action: executor.run(action), TutorSettings())


def test_without_obligations_the_first_move_is_a_free_text_command_then_the_drafted_answer(project):
    respond = {"move": "RESPOND", "answer": "README.md has 3 lines.",
               "claims": [{"predicate": "line_count", "args": ["README.md", "3"]}]}
    result, _, llm = play(project, [WC, CHECK, respond], meta=None)
    first, check, second = llm.calls
    assert check["schema"] is None and check["temperature"] == 0.6  # "3 README.md" is cross-checked first
    assert first["schema"] is None and not first["temperature"]  # free text, greedy
    prompt = first["messages"][-1]["content"]
    assert "```sh code block" in prompt and prompt.rstrip().endswith("Goal: How many lines does README.md have?")
    assert "Commands already run" not in prompt  # nothing ran yet
    assert second["schema"] is not None  # the tutor had a complete move to suggest: a JSON turn
    assert '"answer": "README.md has 3 lines."' in second["messages"][-1]["content"]
    state = result.state
    assert state.stop_reason == "success" and state.final_answer == "README.md has 3 lines."
    moves = state.meta["tutor"]["moves"]
    assert moves[0]["move"]["command_turn"] == "evidence" and moves[0]["move"]["command"] == "wc -l README.md"
    assert moves[1]["move"]["command_turn"] == "cross_check" and "command_turn" not in moves[2]["move"]


def test_a_failed_command_is_retried_in_free_text_with_what_the_shell_said(project):
    replies = ["```sh\nwc -l READ.md\n```", WC, CHECK, {"move": "RESPOND", "answer": "README.md has 3 lines.",
                                                 "claims": [{"predicate": "line_count", "args": ["README.md", "3"]}]}]
    result, _, llm = play(project, replies, meta=None)
    retry = llm.calls[1]["messages"][-1]["content"]
    assert llm.calls[1]["schema"] is None
    assert "Commands already run in this game (do not repeat them):\n- `wc -l READ.md`: exit 1" in retry
    assert "No such file" in retry and "README.md" in retry.split("Commands already run")[1]  # the listing
    assert retry.rstrip().endswith("Write a different command whose output states the answer itself.")
    assert result.state.stop_reason == "success"


def test_with_obligations_a_player_move_stays_json_until_it_repeats_a_command(project):
    ls = {"move": "PROPOSE", "intent": "list", "command": "ls", "mode": "read"}
    result, _, llm = play(project, [ls, ls, WC, {"move": "RESPOND", "answer": "README.md has 3 lines.",
                                                 "claims": [{"predicate": "line_count", "args": ["README.md", "3"]}]}])
    assert [c["schema"] is not None for c in llm.calls] == [True, True, False, True]
    text = llm.calls[2]["messages"][-1]["content"]
    assert "- `ls`: printed 5 line(s)" in text and "exit" not in text.split("Commands already run")[1]
    assert result.state.meta["tutor"]["moves"][2]["move"]["command_turn"] == "repetition"
    assert result.state.stop_reason == "success"


def test_a_reply_with_no_command_ends_with_a_named_stop(project):
    result, _, _ = play(project, ["I would look at the files.", "Still no command."], meta=None)
    assert result.state.stop_reason == "command_generation_failed"
    assert result.state.final_answer.startswith("No answer was proven")


def test_a_short_output_no_rule_reads_is_suggested_once_another_command_prints_the_same(project, tmp_path):
    game = _game(project, tmp_path)
    game.judge(move(move="PROPOSE", intent="count", command="grep a README.md | wc -l", mode="read"))
    assert not [c for _, c in game.evidence.all_facts() if c.predicate not in ("exists", "line")]  # no rule reads it
    # Measured: one short output taken as the answer made 5 wrong wins in 15 ("1" for a file's lines).
    assert printed_claim(game) is None and unconfirmed_output(game) and not suggest(game).moves
    game.judge(move(move="PROPOSE", intent="echo", command="echo 2", mode="read"))
    assert printed_claim(game) is None  # an echo prints what it was given: it bears nothing out
    game.judge(move(move="PROPOSE", intent="count", command="grep -o a README.md | wc -l", mode="read"))
    claim = printed_claim(game)
    assert claim is not None and claim.predicate == "output" and claim.args == ("A3", "2")
    (respond,) = suggest(game).moves
    assert respond["answer"] == "2 (printed by A3)"
    verdict = game.judge(move(**respond))
    assert game.won, verdict.reason


def test_a_short_output_makes_the_next_turn_a_cross_check_in_free_text(project):
    replies = ["```sh\ngrep a README.md | wc -l\n```", "```sh\ngrep -o a README.md | wc -l\n```",
               {"move": "RESPOND", "answer": "2 (printed by A2)", "claims": [{"predicate": "output", "args": ["A2", "2"]}]}]
    result, _, llm = play(project, replies, meta=None)
    check = llm.calls[1]
    assert check["schema"] is None and check["temperature"] == 0.6
    text = check["messages"][-1]["content"]
    assert "computes the same answer another way" in text and "- `grep a README.md | wc -l`: printed 1 line(s)" in text
    assert "\n2\n" not in text.split("Goal:")[1]  # what it printed is not shown: it would be copied into an echo
    assert [m["move"].get("command_turn") for m in result.state.meta["tutor"]["moves"]] == [
        "evidence", "cross_check", None]
    assert result.state.stop_reason == "success" and result.state.final_answer == "2 (printed by A2)"


def test_a_long_or_failed_output_suggests_no_answer(project, tmp_path):
    game = _game(project, tmp_path)
    game.judge(move(move="PROPOSE", intent="list", command="find . -type f", mode="read"))
    assert printed_claim(game) is None  # six paths: material for an answer, not one
    game.judge(move(move="PROPOSE", intent="count", command="wc -l NOPE.md", mode="read"))
    assert printed_claim(game) is None


def test_a_printed_answer_that_does_not_match_the_output_is_refused(project, tmp_path):
    game = _game(project, tmp_path)
    game.judge(move(move="PROPOSE", intent="count", command="grep a README.md | wc -l", mode="read"))
    verdict = game.judge(move(move="RESPOND", answer="4 (printed by A1)",
                              claims=[{"predicate": "output", "args": ["A1", "4"]}]))
    assert not game.won and verdict.status == "rejected"


def test_a_command_too_long_for_a_move_is_drawn_again_then_named(project):
    # One stage, too long for a move (a looping pipeline is cut once past the stage limit: llm/runaway.py).
    long = "```sh\nfind . -type f" + " -not -name 'tests*'" * 30 + "\n```"
    result, _, llm = play(project, [long, WC, CHECK, {"move": "RESPOND", "answer": "README.md has 3 lines.",
                                               "claims": [{"predicate": "line_count", "args": ["README.md", "3"]}]}],
                          meta=None)
    assert llm.calls[1]["temperature"] == 0.6 and llm.calls[1]["schema"] is None  # the redraw, sampled
    assert result.state.stop_reason == "success"
    result, _, llm = play(project, [long, long, long], meta=None)
    assert [c["temperature"] for c in llm.calls][1:] == pytest.approx([0.6, 0.9])
    assert result.state.stop_reason == "command_generation_failed"
    assert "longer than 400 characters" in result.state.last_error


def test_after_a_long_output_the_json_player_moves_and_may_answer_from_it(project):
    # "Which files are in tests?": a listing is the answer but too long to suggest; the player sees it.
    listing = "```sh\nfind . -type f\n```"
    answer = {"move": "RESPOND", "answer": "./README.md and the others",
              "claims": [{"predicate": "output", "args": ["A1", "./README.md"]}]}
    result, _, llm = play(project, [listing, answer], meta=None)
    assert [c["schema"] is not None for c in llm.calls] == [False, True]
    assert "- output(action, text)" in llm.calls[1]["messages"][0]["content"]  # the player knows the predicate
    assert result.state.stop_reason == "success"


def test_a_refused_command_is_listed_with_why_in_the_next_command_turn(project):
    replies = ["```sh\nrm README.md\n```", WC, CHECK, {"move": "RESPOND", "answer": "README.md has 3 lines.",
                                                 "claims": [{"predicate": "line_count", "args": ["README.md", "3"]}]}]
    result, _, llm = play(project, replies, meta=None)
    text = llm.calls[1]["messages"][-1]["content"]
    assert llm.calls[1]["schema"] is None and "- `rm README.md`: " in text and "write" in text.split("rm README.md`:")[1]
    assert result.state.stop_reason == "success" and (project / "README.md").exists()


def test_a_command_already_proposed_is_drawn_again_hotter_within_the_turn(project):
    # Measured: a cross-check turn wrote the very command it was to check, then six turns running.
    first = "```sh\ngrep a README.md | wc -l\n```"
    requoted = "```sh\ngrep 'a' README.md |  wc -l\n```"  # the same command, quoted another way
    replies = [first, first, requoted, "```sh\ngrep -o a README.md | wc -l\n```",
               {"move": "RESPOND", "answer": "2 (printed by A2)", "claims": [{"predicate": "output", "args": ["A2", "2"]}]}]
    result, _, llm = play(project, replies, meta=None)
    assert [c["temperature"] for c in llm.calls[1:4]] == pytest.approx([0.6, 0.9, 1.2])
    assert [m["kind"] for m in result.state.meta["tutor"]["moves"]] == ["executed", "executed", "won"]


def test_two_pipes_that_counted_nothing_do_not_agree_on_an_answer(project, tmp_path):
    game = _game(project, tmp_path)
    game.judge(move(move="PROPOSE", intent="count", command="grep a README.md | wc -l", mode="read"))
    game.judge(move(move="PROPOSE", intent="count", command="grep zzz README.md | wc -l", mode="read"))
    game.judge(move(move="PROPOSE", intent="count", command="grep -i qqq README.md | wc -l", mode="read"))
    assert printed_claim(game) is None and not suggest(game).moves  # "0" and "0" confirm nothing


def test_a_search_for_a_path_text_is_never_the_answer_and_its_retry_is_told_what_it_found(project):
    # Measured (paraphrase set): `grep -rl FILE . | wc -l` printed 1 for "how many lines does FILE have?" (that one
    # is now mended: the test below); the lines that mention the path are a doubt the model is told about.
    (project / "NOTES.txt").write_text("see README.md\n")
    doubted = "```sh\ngrep -rn README.md . | wc -l\n```"
    respond = {"move": "RESPOND", "answer": "README.md has 3 lines.",
               "claims": [{"predicate": "line_count", "args": ["README.md", "3"]}]}
    result, _, llm = play(project, [doubted, WC, CHECK, respond], meta=None)
    retry = llm.calls[1]
    assert retry["schema"] is None and retry["temperature"] != 0.6  # evidence again, not a cross-check of "1"
    text = retry["messages"][-1]["content"]
    assert "`grep` searched the text of the files for `README.md`" in text
    assert [m["move"].get("command_turn") for m in result.state.meta["tutor"]["moves"]] == [
        "evidence", "evidence", "cross_check", None]
    assert result.state.stop_reason == "success" and result.state.final_answer == "README.md has 3 lines."


def test_the_command_request_is_kept_per_goal(tmp_path):
    from ragix_core.reasoning_tutor.command_turn import CommandTurns

    (tmp_path / "notes.md").write_text("x\n")
    turns = CommandTurns(worker=None, tools=["wc", "grep"], root=tmp_path, listing_chars=2000)
    first = turns.request("How many lines does notes.md have?")
    assert "How many lines does notes.md have?" in first
    assert turns.request("How many lines does notes.md have?") is first  # built once for its goal
    other = turns.request("Which file mentions TODO?")
    assert "Which file mentions TODO?" in other and "How many lines" not in other


def test_a_pipe_that_printed_nothing_is_retried_knowing_which_stage_left_no_line(project):
    replies = ["```sh\ngrep -rn ERROR logs | grep -v logs\n```", "```sh\ngrep -c ERROR logs/app.log\n```",
               "I cannot."]
    result, _, llm = play(project, replies, meta=None)
    retry = llm.calls[1]["messages"][-1]["content"]
    assert "`grep -rn ERROR logs` printed 2 lines (the first: `logs/app.log:2:ERROR missing key" in retry
    assert "and `| grep -v logs` left none of them." in retry


# A game that ends without a win still says what a command printed, marked unproven (the main path's
# `unconfirmed`): measured on the paraphrase set's first ten questions, 4 games ran out of turns after the
# first command printed the right count, each ending "No answer was proven", while the plain call answered.
OTHER = "```sh\ngrep -c a README.md\n```"  # a cross-check that counts something else: it prints 2


def test_a_lost_game_ends_with_the_first_commands_short_output_marked_unproven(project):
    result, _, _ = play(project, [WC, OTHER], meta={"tutor": {"max_turns": 2}})
    state = result.state
    assert state.stop_reason == "max_turns"
    assert state.final_answer.startswith("No answer was proven")
    assert state.final_answer.splitlines()[-1] == (
        "Unproven answer, printed by `wc -l README.md` alone (no other command printed the same): 3 README.md")
    assert state.meta["tutor"]["unproven"] == {"command": "wc -l README.md", "output": "3 README.md", "agreed": False}


def test_a_lost_game_prefers_an_output_two_commands_agree_on(project):
    echo = "```sh\necho 2\n```"  # prints what it was given: never the unproven answer, never agreement
    wrong = {"move": "RESPOND", "answer": "README.md has 12 lines.",
             "claims": [{"predicate": "line_count", "args": ["README.md", "12"]}]}
    again = {"move": "PROPOSE", "intent": "count", "command": "grep a README.md | wc -l", "mode": "read"}
    result, _, _ = play(project, [OTHER, echo, again, wrong], meta={"tutor": {"max_turns": 4}})
    state = result.state
    assert [m["move"].get("command") for m in state.meta["tutor"]["moves"]][:3] == [
        "grep -c a README.md", "echo 2", "grep a README.md | wc -l"]
    assert state.stop_reason == "max_turns"
    assert state.final_answer.splitlines()[-1] == (
        "Unproven answer, printed by `grep -c a README.md` and by another command: 2")


def test_a_lost_game_with_no_short_output_adds_no_unproven_answer(project):
    result, _, _ = play(project, ["```sh\nwc -l READ.md\n```", "```sh\nfind . -type f\n```"],
                        meta={"tutor": {"max_turns": 2}})
    assert "Unproven" not in result.state.final_answer and "unproven" not in result.state.meta["tutor"]


def test_a_count_of_names_where_the_goal_counts_lines_is_mended_as_on_the_main_path(project):
    """`grep -rl README.md . | wc -l` counts the files that name README.md; the goal counts README.md's lines.
    The game runs `wc -l README.md` at once (evidence/line_count_mends.py), as the main path does, and says so."""
    respond = {"move": "RESPOND", "answer": "README.md has 3 lines.",
               "claims": [{"predicate": "line_count", "args": ["README.md", "3"]}]}
    result, _, llm = play(project, ["```sh\ngrep -rl README.md . | wc -l\n```", CHECK, respond], meta=None)
    first = result.state.executed_steps[0].result
    assert first.written == "wc -l README.md" and first.stdout.strip() == "3 README.md"
    assert "counted file names, and the question asks for lines" in first.stderr
    assert not first.doubt and not first.mistake
    assert result.state.stop_reason == "success" and result.state.final_answer == "README.md has 3 lines."
    assert len(llm.calls) == 3  # no retry turn: the mend asked the model nothing
