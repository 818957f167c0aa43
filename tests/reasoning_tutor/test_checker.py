"""Claim checking: provable only through an observation or a rule derivation; word overlap is not proof."""

from ragix_core.reasoning_tutor.checker import (PROVABLE, REFUTABLE, UNDECIDABLE, Evidence, check_claim, unify)
from ragix_core.reasoning_tutor.claims import parse_claim, parse_pattern
from ragix_core.reasoning_tutor.rules import Output, default_rules


def evidence(*outputs):
    """Evidence as the tutor builds it: each (command, stdout[, status]) through the shipped rules and fact rules."""
    ev, n = Evidence(), 0
    rules = default_rules()
    for i, out in enumerate(outputs, start=1):
        command, stdout = out[0], out[1]
        status = out[2] if len(out) > 2 else "ok"
        ev.add_output(f"A{i}", f"O{i}", stdout, False)
        frontier = [d.claim for d in rules.from_output(Output(command, status, stdout))[0]]
        while frontier:
            claim = frontier.pop(0)
            if ev.fact_id(claim):
                continue
            n += 1
            ev.add_fact(f"F{n}", claim)
            frontier += [d.claim for d in rules.from_fact(claim)]
    return ev


def status(text, ev):
    return check_claim(parse_claim(text), ev).status


INI = ("cat config/app.ini", "[server]\nport = 8080\ntimeout = 30\n")


def test_the_same_fact_or_a_line_containing_the_text_proves_a_claim():
    ev = evidence(INI)
    check = check_claim(parse_claim("setting(config/app.ini, port, 8080)"), ev)
    assert check.status == PROVABLE and check.supports and check.supports[0][0].startswith("F")
    assert status('contains(config/app.ini, "port = 80")', ev) == PROVABLE
    assert status("exists(config/app.ini)", ev) == PROVABLE


def test_word_overlap_is_not_proof():
    ev = evidence(INI)
    # Every word of these claims is in the output, but no fact states them.
    assert status('contains(other.ini, "port")', ev) == UNDECIDABLE
    assert status("line_count(config/app.ini, 8080)", ev) == UNDECIDABLE
    assert status('setting(config/app.ini, port, 30)', ev) == REFUTABLE  # the file states port = 8080
    assert status('match_count(config/app.ini, "port", 1)', ev) == UNDECIDABLE


def test_a_complete_view_of_a_file_refutes_what_it_does_not_contain():
    ev = evidence(INI)  # cat, not truncated: complete(config/app.ini)
    assert status('contains(config/app.ini, "debug")', ev) == REFUTABLE
    assert status("setting(config/app.ini, debug, true)", ev) == REFUTABLE
    partial = evidence(("head -n 2 config/app.ini", "[server]\nport = 8080\n"))
    assert status('contains(config/app.ini, "debug")', partial) == UNDECIDABLE


def test_functional_predicates_are_refuted_by_a_different_value():
    ev = evidence(("wc -l README.md", "3 README.md\n"), ("calc '4*6'", "24.0000000000000\n"))
    assert status("line_count(README.md, 3)", ev) == PROVABLE
    assert status("line_count(README.md, 4)", ev) == REFUTABLE
    assert status('value("4 * 6", 24)', ev) == PROVABLE
    assert status('value("4*6", 25)', ev) == REFUTABLE


def test_absence_from_a_search_and_from_a_listing():
    ev = evidence(("grep -rn TODO src", "", "no_match"), ("ls src", "app.py\nutil.py\n"))
    assert status('no_match(src/app.py, "TODO")', ev) == PROVABLE  # the search covered the whole directory
    assert status('contains(src/app.py, "TODO: fix")', ev) == REFUTABLE
    assert status("missing(src/payments.py)", ev) == PROVABLE
    assert status("exists(src/payments.py)", ev) == REFUTABLE
    assert status("missing(src/.env)", ev) == UNDECIDABLE  # ls hides dot files
    assert status("exists(src/app.py)", ev) == PROVABLE


def test_output_claims_need_whole_words_of_the_actions_output():
    ev = evidence(("find . -name '*.py' | wc -l", "17\n"))
    assert status('output(A1, "17")', ev) == PROVABLE
    assert status('output(A1, "7")', ev) == REFUTABLE
    assert status('output(A2, "17")', ev) == UNDECIDABLE


def test_a_write_makes_earlier_evidence_stale():
    ev = evidence(("wc -l README.md", "3 README.md\n"))
    ev.epoch += 1
    assert status("line_count(README.md, 3)", ev) == UNDECIDABLE


def test_unify_binds_variables_and_lets_longer_text_meet_a_contains_pattern():
    claim = parse_claim('contains(LICENSE, "MIT License")')
    assert unify(parse_pattern('contains(LICENSE, "MIT")'), claim) == {}
    assert unify(parse_pattern("contains(LICENSE, ?text)"), claim) == {"text": "MIT License"}
    assert unify(parse_pattern('contains(COPYING, "MIT")'), claim) is None
    assert unify(parse_pattern("line_count(?f, ?f)"), parse_claim("line_count(a, 3)")) is None
    assert unify(parse_pattern("line_count(a, 3.0)"), parse_claim("line_count(a, 3)")) == {}
