"""Whose number is it (presenter/binding.py): a sentence that gives a real kernel number to a file the
kernels did not show it with is dropped; sentences that pair numbers and files as the rows do are kept."""

from __future__ import annotations

import pytest

from ragix_core.kernels.presenter.binding import misattributed
from ragix_core.kernels.presenter.claims import check_prose, facts_from

# Rows as clusters.py shows them: the directory's, its files', a recommendation (its threshold apart).
FACTS = facts_from(
    {"path": "src/pkg", "risk": 30.7, "risk_max": 47.8, "files": 25, "nloc": 8511},
    {"path": "src/pkg/parser.py", "risk": 47.8, "ccn_max": 12, "nloc": 851},
    {"path": "src/pkg/compiler.py", "risk": 40.0, "ccn_max": 30, "nloc": 1422},
    {"path": "src/pkg/lexer.py", "risk": 33.8, "ccn_max": 44, "nloc": 588},
    {"path": "src/pkg/compiler.py", "text": "signature in src/pkg/compiler.py (line 481) has cyclomatic complexity 17",
     "evidence": {"ccn": 17, "line": 481}},
    {"threshold": 15},
    {"path": "docs/conf.py", "risk": 15, "ccn_max": 2},  # 15 is also a file's number here
    {"files": 93, "nloc": 20000},  # project totals: no path
)


@pytest.mark.parametrize("sentence", [
    "`parser.py` has a risk of 47.8 and `compiler.py` has a risk of 40.0.",
    "The most complex function in `lexer.py` has a cyclomatic complexity of 44.",
    "With a risk of 47.8, src/pkg/parser.py comes first.",  # a number before any path is not read
    "The directory `src` has risk 30.7, and src/pkg/parser.py has 47.8.",  # ... as its subject may be unseen
    "`parser.py`, `compiler.py` and `lexer.py` have risks of 47.8, 40.0 and 33.8.",  # paired in order
    "parser.py and compiler.py have risks of 47.8 and 40.0 respectively, above the threshold of 15.",
    "The directory `src/pkg` has a risk of 30.7, with the highest file risk of 47.8.",
    "Add tests to `parser.py`, and split the signature in `compiler.py` (line 481).",  # two mentions, not a list
    "`lexer.py` has complexity 44, above the threshold of 15.",  # a threshold may be said of any file
    "parser.py is among 93 files, 20,000 lines in all.",  # project totals bind to nothing
    "The parser.py file has a risk of about 48.",  # rounded as written
    # pygments T3 at 02405b5: a threshold among the paired numbers keeps its place
    "`parser.py`, `docs/conf.py` and `compiler.py` have complexities of 12, 15 and 30, respectively.",
    "The project has 93 files and 20,000 lines of code.",  # the project's own numbers
    "In this codebase, `parser.py` has the highest risk, 47.8.",  # the project named, the file's number after it
])
def test_numbers_given_to_their_own_files_are_kept(sentence):
    assert misattributed(sentence, FACTS) == []
    assert check_prose(sentence, FACTS).kept == [sentence]


@pytest.mark.parametrize("sentence, wrong", [
    # measured on jinja2 at 12f9fed: one file's risk copied onto a list of files
    ("The files `parser.py`, `compiler.py` and `lexer.py` have the highest risk of 47.8.",
     ["47.8 (compiler.py, lexer.py)"]),
    ("`compiler.py` has a risk of 47.8.", ["47.8 (compiler.py)"]),
    ("The most complex function in `parser.py` has a cyclomatic complexity of 44.", ["44 (parser.py)"]),
    ("`parser.py` and `compiler.py` have risks of 40.0 and 47.8.", ["40.0 (parser.py)", "47.8 (compiler.py)"]),
    ("src/pkg/lexer.py has 851 lines of code.", ["851 (src/pkg/lexer.py)"]),
    ("`parser.py` has a risk of 30.7.", ["30.7 (parser.py)"]),  # the directory's number is not its file's
    ("Split the signature in `lexer.py` (line 481).", ["481 (lexer.py)"]),
    # measured on sqlparse T3 at 0f64fe5: a directory's risk given to the whole project
    ("The project has a risk of 30.7, with the highest file risk of 47.8.",
     ["30.7 (the project)", "47.8 (the project)"]),
])
def test_a_number_given_to_another_file_drops_the_sentence(sentence, wrong):
    assert misattributed(sentence, FACTS) == wrong
    checked = check_prose(sentence, FACTS)
    assert checked.kept == []
    assert checked.dropped[0].misattributed == wrong
    assert checked.dropped[0].to_dict()["misattributed_numbers"] == wrong


def test_a_threshold_that_is_also_a_files_number_may_be_said_of_any_file():
    # 15 is docs/conf.py's risk and the rules' threshold: said of another file it is read as the threshold.
    assert misattributed("`parser.py` is above 15.", FACTS) == []


def test_facts_without_rows_check_no_binding():
    plain = facts_from({"risk": 47.8}, paths=["src/pkg/parser.py", "src/pkg/lexer.py"])
    assert misattributed("`lexer.py` has risk 47.8.", plain) == []


def test_facts_merged_keep_both_sides_bindings():
    left = facts_from({"path": "a.py", "risk": 1.5})
    right = facts_from({"path": "b.py", "risk": 2.5}, {"threshold": 9})
    both = left | right
    assert misattributed("a.py has 1.5 and b.py has 2.5.", both) == []
    assert misattributed("a.py has 2.5.", both) == ["2.5 (a.py)"]
    assert misattributed("a.py is above 9.", both) == []
