"""The specialist router: each general signal routes, ties go to the model label, a bad label falls back,
and `ragix ask --route-only` says which route and why. Goals here are not from the benchmark sets."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from ragix_core.cli import app
from ragix_core.collective.router import ROUTE_STRATEGY, check_route_table, choose_route, project_names
from ragix_core.collective.rules import ROUTES, RouteContext, route_by_rules
from ragix_core.llm.base import LLMUnavailable
from ragix_core.core.registry import engine_names
from tests.scripted_llm import ScriptedLLM

PROJECT = RouteContext(frozenset({"src", "billing", "billing.py", "Makefile", "setup.cfg"}), docs_available=False)
WITH_DOCS = RouteContext(PROJECT.project_names, docs_available=True)


@pytest.mark.parametrize("goal, context, route", [
    ("What does setup.cfg pin?", PROJECT, "graph"),  # a file name
    ("Which class handles invoice_totals?", PROJECT, "graph"),  # a code identifier
    ("Open the Makefile and list its targets", PROJECT, "graph"),  # a project name that is not a plain word
    ("What do the installation manuals say about proxies?", WITH_DOCS, "research"),
    ("Why is the sky blue?", WITH_DOCS, "research"),  # a question not about the project, documents given
    ("Tom is taller than Ann and Ann is taller than Lee; who is the shortest?", PROJECT, "tree"),
    ("Prove with evidence that billing.py never logs card numbers.", PROJECT, "tutor"),
    ("good evening!", PROJECT, "chat"),
    ("(3 + 4) * 12", PROJECT, "chat"),
    ("Which parts of the codebase carry the most technical debt?", PROJECT, "audit"),
    ("Are the functions in billing.py too complex?", PROJECT, "audit"),  # risk outweighs naming a file
])
def test_general_signals_route(goal, context, route):
    decision = route_by_rules(goal, context)
    assert decision.route == route, (decision.scores, decision.signals)
    assert decision.signals  # the reason is never empty when the rules decide


@pytest.mark.parametrize("goal", [
    # misroutes measured with the phrase rules the review removed (issue 38): a phrase is not a signal
    "How do I split a string in Python?",
    "How many tests are there in total?",
    "Is the cross-entropy loss computed per token?",
    "Does the config meet the requirements?",
    "What is the quality of the embeddings?",
    # paraphrases: a puzzle's or an audit's word in a goal that is neither
    "Which sorting algorithm has the worst average case?",
    "What is the risk of rain tomorrow?",
    "Who is the maintainer of numpy?",
    "Where do the two roads meet?",
    "Is the lookup table labelled in the output?",
    "How many retries happen before a timeout?",
    "Can we cross-compile for ARM?",
])
def test_words_a_question_set_happens_to_use_decide_nothing(goal):
    decision = route_by_rules(goal, PROJECT)
    assert decision.route is None, (decision.scores, decision.signals)


def test_an_undecided_goal_falls_through_to_the_model_label_then_the_fallback():
    goal = "How do I split a string in Python?"
    assert choose_route(goal, PROJECT, ScriptedLLM([{"route": "chat"}])).by == "model"
    assert choose_route(goal, PROJECT).by == "fallback"


def test_a_general_risk_word_is_an_audit_only_in_a_project_question():
    assert route_by_rules("Which modules of the codebase are the riskiest?", PROJECT).route == "audit"
    assert route_by_rules("Is the complexity of billing.py too high?", PROJECT).route == "audit"
    assert route_by_rules("Is a complex number's modulus always positive?", PROJECT).scores["audit"] == 0


def test_plain_words_that_are_project_names_are_not_project_signals():
    context = RouteContext(frozenset({"docs", "tests", "data"}), docs_available=True)
    decision = route_by_rules("What do the docs say about data retention?", context)
    assert decision.route == "research", decision.signals
    assert not any("names project files" in s for s in decision.signals)


def test_a_slashed_unit_is_not_a_path_but_a_project_path_is():
    assert route_by_rules("Two cars at 50 km/h and 70 km/h meet after how long, 240 km apart?", PROJECT).route == "tree"
    assert "names project files" in route_by_rules("What is in src/config?", PROJECT).reason


def test_documents_without_a_docs_root_are_not_research():
    decision = route_by_rules("What do the manuals say about backups?", PROJECT)
    assert decision.route is None and decision.scores["research"] == 0
    assert "no docs root" in decision.reason


def test_when_rules_cannot_tell_the_model_labels_and_research_is_offered_only_with_documents():
    llm = ScriptedLLM([{"route": "tree"}])
    routing = choose_route("What port does the daemon use?", PROJECT, llm)
    assert (routing.route, routing.by, routing.strategy) == ("tree", "model", "contractive")
    assert "rules could not tell" in routing.reason and "the model labelled it tree" in routing.reason
    offered = llm.calls[0]["schema"]["properties"]["route"]["enum"]
    assert "research" not in offered and "audit" in offered


@pytest.mark.parametrize("reply", [{"route": "research"}, {"route": "shell"}, {"other": 1},
                                   LLMUnavailable("no model file")])
def test_an_unusable_label_falls_back_to_graph_and_says_why(reply):
    routing = choose_route("What port does the daemon use?", PROJECT, ScriptedLLM([reply]))
    assert (routing.route, routing.by) == ("graph", "fallback")
    assert "the default route" in routing.reason
    assert ("LLMUnavailable" in routing.reason) == isinstance(reply, Exception)


def test_rules_decide_without_asking_the_model():
    llm = ScriptedLLM([])
    assert choose_route("hi!", PROJECT, llm).by == "rules" and llm.calls == []


def test_a_broken_route_table_raises_a_real_error_naming_what_is_wrong():
    check_route_table(ROUTE_STRATEGY, ROUTES, engine_names())  # the shipped table
    with pytest.raises(RuntimeError, match=r"routes without a target \['chat'\]"):
        check_route_table({r: s for r, s in ROUTE_STRATEGY.items() if r != "chat"}, ROUTES, engine_names())
    with pytest.raises(RuntimeError, match=r"engines not in the registry \['nosuch'\]"):
        check_route_table({**ROUTE_STRATEGY, "tree": "nosuch"}, ROUTES, engine_names())
    with pytest.raises(RuntimeError, match=r"targets of no route \['shell'\]"):
        check_route_table({**ROUTE_STRATEGY, "shell": None}, ROUTES, engine_names())


def test_an_empty_goal_is_refused():
    with pytest.raises(ValueError, match="empty"):
        choose_route("   ", PROJECT)


def test_project_names_read_two_levels_and_skip_hidden(tmp_path):
    (tmp_path / "pkg" / "deep").mkdir(parents=True)
    (tmp_path / "pkg" / "deep" / "hidden_deeper.py").write_text("")
    (tmp_path / "pkg" / "engine_core.py").write_text("")
    (tmp_path / ".secret").mkdir()
    (tmp_path / ".secret" / "x.py").write_text("")
    names = project_names(tmp_path)
    assert {"pkg", "engine_core.py", "engine_core", "deep"} <= names
    assert ".secret" not in names and "hidden_deeper.py" not in names and "x" not in names


def test_ask_route_only_prints_the_route_and_why(tmp_path, monkeypatch):
    monkeypatch.setenv("RAGIX_HOME", str(tmp_path / "home"))
    (tmp_path / "billing.py").write_text("def total():\n    return 1\n")
    result = CliRunner().invoke(app, ["ask", "Where is billing.py risky?", "--cwd", str(tmp_path), "--route-only",
                                      "--json", "--rules-only"])
    assert result.exit_code == 0, result.output
    assert "route: audit (the audit kernels) by rules: " in result.stderr
    assert json.loads(result.stdout)["routing"]["route"] == "audit"


def test_ask_bad_input_exits_2_with_a_message(tmp_path, monkeypatch):
    monkeypatch.setenv("RAGIX_HOME", str(tmp_path / "home"))
    for argv, message in ((["ask", "x", "--cwd", str(tmp_path / "nope")], "is not a directory"),
                          (["ask", "x", "--cwd", str(tmp_path), "--docs", str(tmp_path / "nope")], "--docs"),
                          (["ask", "  ", "--cwd", str(tmp_path)], "the goal is empty")):
        result = CliRunner().invoke(app, argv)
        assert result.exit_code == 2 and message in result.output, (argv, result.output)


@pytest.mark.parametrize("goal, route, strategy", [
    ("How many lines does setup.py have, and which files import os?", "graph", "hierarchical"),
    ("How many lines does setup.py have?", "graph", "graph_v30"),
    ("If Alice is older than Bob and Bob is older than Carol, who is the oldest? Who is the youngest?",
     "tree", "contractive"),
])
def test_a_graph_goal_that_asks_several_things_runs_the_hierarchical_engine(goal, route, strategy):
    routing = choose_route(goal, RouteContext())
    assert (routing.route, routing.strategy) == (route, strategy)
    assert ("asks several things" in routing.reason) == (strategy == "hierarchical")
