"""What the player reads in the hints and the tutor's suggestions, pinned byte for byte.

The expected strings were computed from the code as it was before these texts moved from string literals to
``ragix_core/prompts/tutor_hints.md``: the move must change nothing the model sees, and a wrong edit of a
template (a lost word, a renamed placeholder, a stray newline) fails here. Every branch of ``hints()`` and
``suggest()`` is reached by one of the states below, and every predicate's drafted answer sentence is pinned.
"""

import hashlib

import pytest

from ragix_core.reasoning_tutor.claims import make_claim
from ragix_core.reasoning_tutor.hints import hints
from ragix_core.reasoning_tutor.player import state_prompt
from ragix_core.reasoning_tutor.suggest import draft, suggest

from .conftest import assert_, make_tutor, move, propose, respond

WC = propose("wc -l README.md")
# name: (obligations, settings, moves played before the hints are read)
STATES = {
    "start_no_accept": ([], {}, []),
    "pending_complete": ([], {}, [assert_("line_count", "README.md", "3")]),
    "pending_incomplete": ([], {}, [assert_("exists", "docs")]),
    "lines_and_nothing": (["contains(config/app.ini, ?)", "line_count(README.md, ?n)"], {},
                          [propose("cat config/app.ini")]),
    "fact_meets_and_repetition": (["line_count(README.md, ?n)"], {}, [WC, WC]),
    "respond_rejected": (["line_count(README.md, ?n)"], {},
                         [WC, respond("README.md has 4 lines.", ("line_count", "README.md", "4"))]),
    "all_met": (["line_count(README.md, ?n)"], {}, [WC, assert_("line_count", "README.md", "3")]),
    "truths_no_accept": ([], {}, [WC, assert_("line_count", "README.md", "3")]),
    "stalled": ([], {"stall_turns": 2}, [WC] + [move(move="CHALLENGE", target=f"X{i}", reason="?") for i in range(3)]),
    "value_unmet": (["setting(config/app.ini, workers, ?)", "value(?, ?total)"], {}, [propose("cat config/app.ini")]),
    "incomplete_obligation": (["file_count(src, ?, ?n)"], {}, []),
    "several_options": (["contains(logs/app.log, ?line)"], {}, [propose("cat logs/app.log")]),
    "complete_obligation": (["setting(config/app.ini, workers, ?)"], {}, []),
}

NO_EVIDENCE = "You have no evidence yet: PROPOSE a read command whose output answers the goal."
MEETS_WC = ('Fact F1 line_count("README.md", 3) meets obligation line_count("README.md", ?n): claim it (ASSERT, or '
            "inside RESPOND's claims).")
RESPOND_WC = ('{"move": "RESPOND", "answer": "README.md has 3 lines.", "claims": [{"predicate": "line_count", '
              '"args": ["README.md", "3"]}]}')
EXPECTED = {
    "start_no_accept": ([NO_EVIDENCE], "PROPOSE a read command whose output answers the goal."),
    "pending_complete": (
        ["C1 is undecidable. Your next move must be PROPOSE (e.g. `wc -l README.md`) or REFORMULATE C1."],
        '{"move": "PROPOSE", "intent": "test C1", "command": "wc -l README.md", "mode": "read"}'),
    "pending_incomplete": (
        ["C1 is undecidable. Your next move must be PROPOSE (e.g. `ls DIRECTORY`) or REFORMULATE C1."],
        "PROPOSE a command whose output settles C1 (for example ls DIRECTORY, with the uppercase part replaced), "
        "or REFORMULATE it."),
    "lines_and_nothing": (
        ['Obligation contains("config/app.ini", ?): the line facts of config/app.ini can prove it. Claim '
         "contains(file, TEXT) with TEXT copied from the line that answers the goal.",
         'Nothing proves line_count("README.md", ?n) yet: PROPOSE a command such as `wc -l README.md`.'],
        '{"move": "PROPOSE", "intent": "evidence for line_count(\\"README.md\\", ?n)", "command": "wc -l README.md", '
        '"mode": "read"}'),
    "fact_meets_and_repetition": ([MEETS_WC, "You repeated a move. Do something different."], RESPOND_WC),
    "respond_rejected": ([MEETS_WC, "Your answer was rejected; fix exactly what the verdict names."], RESPOND_WC),
    "all_met": (
        ["Every obligation is met by a validated truth: RESPOND now. State the values of your truths; state no "
         "number or name that they do not contain."], RESPOND_WC),
    "truths_no_accept": (
        ["You have validated truths: RESPOND when they answer the goal, citing them as claims."], RESPOND_WC),
    "stalled": (  # without obligations "3 README.md" waits for a cross-check (command_turn.py) before RESPOND_WC
        ["No progress for 3 turns (1 more and the game ends). Try another command or claim a fact from the list."],
        "PROPOSE a read command whose output answers the goal."),
    "value_unmet": (
        ['Fact F9 setting("config/app.ini", "workers", 4) meets obligation setting("config/app.ini", "workers", ?): '
         "claim it (ASSERT, or inside RESPOND's claims).",
         "Nothing proves value(?, ?total) yet: PROPOSE a command such as `calc EXPR`."],
        "Nothing proves value(?, ?total) yet: write the arithmetic yourself from the numbers in your facts and "
        "PROPOSE it as the command: calc followed by the expression."),
    "incomplete_obligation": (
        [NO_EVIDENCE, "Nothing proves file_count(\"src\", ?, ?n) yet: PROPOSE a command such as "
                      "`find src -name 'GLOB'`."],
        "Nothing proves file_count(\"src\", ?, ?n) yet: PROPOSE a command whose output shows it (for example "
        "find src -name 'GLOB', with the uppercase part replaced by what the goal and facts name)."),
    "several_options": (
        ['Obligation contains("logs/app.log", ?line): the line facts of logs/app.log can prove it. Claim '
         "contains(file, TEXT) with TEXT copied from the line that answers the goal."],
        "(several facts fit: copy the one move that answers the goal)\n"
        '{"move": "RESPOND", "answer": "logs/app.log says: \\"INFO start\\"", "claims": [{"predicate": "contains", '
        '"args": ["logs/app.log", "INFO start"]}]}\n'
        '{"move": "RESPOND", "answer": "logs/app.log says: \\"ERROR missing key \'payment_key\'\\"", "claims": '
        '[{"predicate": "contains", "args": ["logs/app.log", "ERROR missing key \'payment_key\'"]}]}\n'
        '{"move": "RESPOND", "answer": "logs/app.log says: \\"INFO retry\\"", "claims": [{"predicate": "contains", '
        '"args": ["logs/app.log", "INFO retry"]}]}'),
    "complete_obligation": (
        [NO_EVIDENCE, 'Nothing proves setting("config/app.ini", "workers", ?) yet: PROPOSE a command such as '
                      "`grep -n workers config/app.ini`."],
        '{"move": "PROPOSE", "intent": "evidence for setting(\\"config/app.ini\\", \\"workers\\", ?)", '
        '"command": "grep -n workers config/app.ini", "mode": "read"}'),
}
# sha256 (first 16 hex digits) of the whole state prompt of each state, max_turns=10: the hints and the
# suggestion in their place among the headings, exactly as the player reads them (since issue 34 with the
# line naming every move rejected as a repetition).
STATE_PROMPT_SHA = {
    "start_no_accept": "52029618a03806e8", "pending_complete": "de635ac4bb4e9cb9",
    "pending_incomplete": "1333ae599b3a82da", "lines_and_nothing": "55199f0520c48736",
    "fact_meets_and_repetition": "b06987854ed3df54", "respond_rejected": "7ebd6cf024106571",
    "all_met": "0b469ea5721b6326", "truths_no_accept": "b3175639c5ca935e", "stalled": "f53289effae2efab",
    "value_unmet": "cb449e8b51d53202", "incomplete_obligation": "e15b9b2bd8be9cff",
    "several_options": "3db7b42e7729fedf", "complete_obligation": "dcc877bef89cec9c",
}
DRAFTS = {
    "contains": (("a.md", "x y"), 'a.md says: "x y"'),
    "line": (("a.md", "L"), 'a.md has the line: "L"'),
    "line_count": (("a.md", "3"), "a.md has 3 lines."),
    "match_count": (("a.md", "ERR", "2"), '2 lines of a.md contain "ERR".'),
    "file_count": (("src", "*.py", "2"), "2 files match *.py under src."),
    "setting": (("a.ini", "port", "80"), "a.ini sets port to 80."),
    "defines": (("a.py", "main"), "a.py defines main."),
    "imports": (("a.py", "os"), "a.py imports os."),
    "exists": (("a.md",), "a.md exists."),
    "missing": (("b.md",), "b.md does not exist."),
    "no_match": (("src", "TODO"), 'No line under src contains "TODO".'),
    "value": (("4*6", "24"), "4*6 = 24."),
    "output": (("A1", "ok"), 'ok (printed by A1)'),
    "listed": (("src",), "src was listed."),
    "complete": (("a.md",), "a.md was read in full."),
}


def _tutor(name, project):
    accept, settings, moves = STATES[name]
    t = make_tutor(project, accept=accept, **settings)
    for m in moves:
        t.judge(m)
    return t


@pytest.mark.parametrize("name", sorted(STATES))
def test_hints_and_suggestion_read_exactly_as_before(name, project):
    t = _tutor(name, project)
    want_hints, want_suggestion = EXPECTED[name]
    assert hints(t) == want_hints
    assert suggest(t).render() == want_suggestion
    assert hashlib.sha256(state_prompt(t, 10).encode()).hexdigest()[:16] == STATE_PROMPT_SHA[name]


@pytest.mark.parametrize("predicate", sorted(DRAFTS))
def test_drafted_answer_sentences_read_exactly_as_before(predicate):
    args, sentence = DRAFTS[predicate]
    assert draft([make_claim(predicate, list(args))]) == sentence


def test_a_drafted_path_of_dot_reads_as_the_project_directory(project):
    # Measured on an unseen question: the tutor won with "42 files match *.py under .."
    assert draft([make_claim("file_count", [".", "*.py", "42"])]) == \
        "42 files match *.py under the project directory."
    t = make_tutor(project)
    t.judge(propose("find . -name '*.py'"))
    assert not suggest(t).moves  # two short lines: cross-checked first
    t.judge(propose("ls src/app.py src/util.py"))  # the same two paths: the facts of the pair are suggested
    (respond,) = suggest(t).moves
    assert respond["answer"] == "2 files match *.py under the project directory."
    t.judge(move(**respond))
    assert t.won


def test_drafted_sentences_join_with_one_space():
    claims = [make_claim("setting", ["config/app.ini", "workers", "4"]), make_claim("value", ["4*6", "24"])]
    assert draft(claims) == "config/app.ini sets workers to 4. 4*6 = 24."


def test_every_part_of_the_hint_prompt_is_used_and_every_predicate_has_a_sentence():
    from pathlib import Path

    from ragix_core import prompts
    from ragix_core.reasoning_tutor import hints as hints_module
    from ragix_core.reasoning_tutor.claims import PREDICATES

    parts = prompts.sections(hints_module.PROMPT)
    code = "".join(Path(hints_module.__file__).with_name(f).read_text() for f in ("hints.py", "suggest.py"))
    sentences = {k for k in parts if k.startswith("sentence_")}
    assert sentences == {f"sentence_{p}" for p in PREDICATES}
    unused = [k for k in parts if k not in sentences and f'"{k}"' not in code]
    assert not unused, f"parts of {hints_module.PROMPT}.md no code renders: {unused}"
    assert all("\n" not in text for text in parts.values()), "each hint is one line of the state prompt"


def test_no_player_facing_prose_is_left_in_the_hint_and_suggestion_code():
    """Prompts live in files: besides docstrings, these modules hold only keys, predicates and commands."""
    import ast
    import re
    from pathlib import Path

    from ragix_core.reasoning_tutor import hints as hints_module

    for name in ("hints.py", "suggest.py"):
        tree = ast.parse(Path(hints_module.__file__).with_name(name).read_text())
        docstrings = {id(n.body[0].value) for n in ast.walk(tree)
                      if isinstance(n, (ast.Module, ast.FunctionDef, ast.ClassDef)) and n.body
                      and isinstance(n.body[0], ast.Expr) and isinstance(n.body[0].value, ast.Constant)}
        prose = [n.value for n in ast.walk(tree) if isinstance(n, ast.Constant) and isinstance(n.value, str)
                 and id(n) not in docstrings and sum(bool(re.search("[A-Za-z]{2}", w)) for w in n.value.split()) >= 3]
        assert not prose, f"{name}: {prose}"
