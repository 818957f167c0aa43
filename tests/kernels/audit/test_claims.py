"""The prose checker of presenter tiers T1-T3, on hostile prose: every way a sentence can smuggle in a
number or a file no kernel produced is dropped, and faithful sentences are kept."""

from __future__ import annotations

import pytest

from ragix_core.kernels.presenter.claims import (Facts, check_prose, cited_numbers, cited_paths, facts_from,
                                                 split_sentences, without_cut_tail)

FACTS = facts_from({"path": "app/core.py", "risk": 62.1, "hotspot": 1.0, "commits": 6, "authors": 2,
                    "share": 0.4231, "ccn": 17, "nloc": 1234,
                    "text": "route in app/core.py (line 12) has cyclomatic complexity 17, above 15."},
                   paths=["app", "v2/api.py", ".", "src/billing/models.py", "pkg/__init__.py"])


def kept(text: str, facts: Facts = FACTS) -> list:
    return check_prose(text, facts).kept


@pytest.mark.parametrize("sentence", [
    "app/core.py has risk 62.1 and changed in 6 commits by 2 authors.",
    "The hotspot score of core.py is 1.0, the highest.",  # a file's name stands for its path
    "Its hotspot score is 1, so fix it first.",  # 1 and 1.0 are one number
    "Its share is 0.42 of the top.",  # rounded to the decimals written
    "Its risk is about 62.",  # 62.1 rounded, from 10 up
    "route has cyclomatic complexity seventeen, above fifteen.",  # number words; 15 is in a kernel sentence
    "The directory `app/` holds 1,234 lines of code.",  # a thousands separator
    "v2/api.py is also listed.",  # the 2 in a path is a name, not a claim
    "Simplify complexity/churn and/or trim TODO/FIXME/XXX markers in app.",  # slashed words, not paths
    "**app/core.py** leads with risk **62.1**.",  # Markdown emphasis
    "billing/models.py and src/billing/ follow.",  # the tail of a produced path, of its directory
    "models.py follows.",  # a bare file name stands for the produced path it names
    "The app directory has risk 62.1; the riskiest directory is app.",  # a produced directory named as one
    "The `billing` folder and each package of it follow.",  # a produced file's parent directory
    "Route has CCN17 and about 1.234e3 lines.",  # glued digits and scientific notation that check
])
def test_faithful_sentences_are_kept(sentence):
    assert kept(sentence) == [sentence]


@pytest.mark.parametrize("sentence, numbers, paths", [
    ("app/core.py has risk 71.5.", ["71.5"], []),  # a number no kernel produced
    ("app/ghost.py is the riskiest file.", [], ["app/ghost.py"]),  # a file no kernel produced
    ("Look at ghost.py first.", [], ["ghost.py"]),
    # trailing slash: a path; src/auth too, as src is a produced directory (and src/auth is not)
    ("The src/auth directory and app/legacy/ are next.", [], ["src/auth", "app/legacy/"]),
    ("Together they hold 3,500 lines.", ["3,500"], []),  # a sum
    ("It changed twice as often as the rest.", ["twice"], []),  # a derived quantity
    ("Half of its functions are untested.", ["Half"], []),
    ("Its risk is 0 once tested.", ["0"], []),  # 0.4231 does not round to a bare 0
    ("Risk fell by -6 points.", ["-6"], []),
    ("A 10x increase in churn.", ["10"], []),  # a suffix does not hide the digits
    ("It is the 3rd riskiest.", ["3"], []),
    ("About 42% of the hotspot is here.", ["42"], []),  # a percentage is its number: 42 is not 0.4231
    ("Upgrade to 3.1.4 of the parser.", ["3.1.4"], []),  # a version is not a kernel number
    ("Twenty-three functions exceed it.", ["Twenty-three"], []),
    ("Its risk is 62.10001.", ["62.10001"], []),  # more decimals than produced is not a rounding
    # issue 38 review: a slashed path is not checked by its file name alone
    ("src/auth/models.py has risk 62.1.", [], ["src/auth/models.py"]),  # only src/billing/models.py exists
    ("lib/__init__.py has risk 62.1.", [], ["lib/__init__.py"]),  # some __init__.py is not this one
    ("The utils directory has risk 62.1.", [], ["utils"]),  # a bare directory name no kernel produced
    ("The `utils` folder is next.", [], ["utils"]),
    ("Its CCN99 function is the worst.", ["CCN99"], []),  # digits glued to letters
    ("It holds about 1e3 lines.", ["1e3"], []),  # scientific notation
])
def test_hostile_sentences_are_dropped_with_what_they_cited(sentence, numbers, paths):
    result = check_prose(sentence, FACTS)
    assert result.kept == []
    assert [(d.sentence, d.numbers, d.paths) for d in result.dropped] == [(sentence, numbers, paths)]


def test_only_the_bad_sentence_of_a_paragraph_is_dropped_and_counted():
    text = ("1. app/core.py has risk 62.1. It has 99 functions.\n"
            "- Refactor route (complexity 17) first! Then add tests for app/other.py.")
    result = check_prose(text, FACTS)
    assert result.kept == ["app/core.py has risk 62.1.", "Refactor route (complexity 17) first!"]
    assert [d.sentence for d in result.dropped] == ["It has 99 functions.", "Then add tests for app/other.py."]
    assert result.numbers_checked == 3 and result.paths_checked == 2  # the list marker "1." is no claim
    assert result.text == "app/core.py has risk 62.1. Refactor route (complexity 17) first!"


def test_sentences_split_after_decimals_and_file_names():
    assert split_sentences("Risk is 62.1. Hotspot 1.0 leads in core.py. Next: app.") == [
        "Risk is 62.1.", "Hotspot 1.0 leads in core.py.", "Next: app."]


def test_facts_read_numbers_from_kernel_sentences_but_not_from_their_paths():
    facts = facts_from({"text": "x in lib/v3/a.py (line 40) is 120 lines long"})
    assert facts.numbers == {40.0, 120.0}
    assert cited_numbers("see lib/v3/a.py") == []
    assert cited_paths("see lib/v3/a.py and/or that") == ["lib/v3/a.py"]


def test_empty_and_number_free_prose():
    assert check_prose("", FACTS).kept == [] and check_prose("", FACTS).dropped == []
    assert kept("This directory needs attention.") == ["This directory needs attention."]


@pytest.mark.parametrize("text, kept, tail", [
    ("Risk is 62.1. Split it in `app/core.py` (line", "Risk is 62.1.", "Split it in `app/core.py` (line"),
    ("It is risky (see `app/core.py`.) Then", "It is risky (see `app/core.py`.)", "Then"),
    ("Version 3.1.4 of app/core.py is risky!", "Version 3.1.4 of app/core.py is risky!", ""),  # finished
    ("- first item.\n- second item, cut", "- first item.", "- second item, cut"),
    ("No finished sentence at all", "", "No finished sentence at all"),
])
def test_a_cut_reply_loses_only_its_unfinished_tail(text, kept, tail):
    assert without_cut_tail(text) == (kept, tail)
