"""The claim language: typing, normalisation, the text form."""

import pytest

from ragix_core.reasoning_tutor.claims import (ClaimSyntaxError, IllTyped, Var, make_claim, parse_claim,
                                               parse_pattern)


def test_equal_facts_have_one_canonical_form():
    assert make_claim("line_count", ["./src//a.py", "1,024"]) == make_claim("line_count", ["src/a.py", "1024"])
    assert make_claim("value", ["4 * 6", "24.0"]) == make_claim("value", ["4*6", "24"])
    assert make_claim("contains", ["a.py", "def   main( )"]).args[1] == "def main( )"
    assert make_claim("exists", ["src/"]).args == ("src",)


@pytest.mark.parametrize("predicate,args,fragment", [
    ("lines_of", ["a.py"], "unknown predicate"),
    ("line_count", ["a.py"], "takes 2 argument"),
    ("line_count", ["a.py", "twelve"], "must be a number"),
    ("line_count", ["a.py", "12.5"], "whole number"),
    ("exists", ["/etc/passwd"], "absolute"),
    ("exists", ["../secret"], "leaves the project"),
    ("contains", ["a.py", "x"], "at least 2"),
    ("contains", ["a.py", "   "], "empty"),
    ("file_count", [".", "src/*.py", "3"], "file-name pattern"),
    ("defines", ["a.py", "not a name"], "identifier"),
    ("output", ["O3", "x y"], "action id"),
])
def test_ill_typed_claims_say_what_is_wrong(predicate, args, fragment):
    with pytest.raises(IllTyped, match=fragment):
        make_claim(predicate, args)


def test_text_form_round_trips_with_quotes_and_escapes():
    claim = parse_claim('contains("src/app.py", "say \\"hi\\", then go")')
    assert claim.args == ("src/app.py", 'say "hi", then go')
    assert parse_claim(claim.text()) == claim
    assert parse_claim("line_count(README.md, 3)") == make_claim("line_count", ["README.md", "3"])


def test_patterns_have_named_and_anonymous_variables():
    p = parse_pattern('setting("config/app.ini", ?, ?port)')
    assert p.args[1] == Var("") and p.args[2] == Var("port")
    assert p.variables() == ["port"]


@pytest.mark.parametrize("text", ["line_count(", "line_count(a, 3", 'contains(a, "open)', "noparen", "f(a,,b)",
                                  "f(a) extra", "value(?1x, 3)"])
def test_syntax_errors_name_the_text(text):
    with pytest.raises((ClaimSyntaxError, IllTyped)):
        parse_pattern(text)


def test_a_claim_cannot_hold_variables():
    with pytest.raises(ClaimSyntaxError, match="pattern"):
        parse_claim("line_count(a.py, ?n)")
