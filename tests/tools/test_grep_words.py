"""grep's words read as grep reads them (tools/grep_words.py)."""

from __future__ import annotations

from ragix_core.tools.grep_words import read_grep
from ragix_core.tools.lexer import split_pipeline


def read(command):
    return read_grep(split_pipeline(command)[0][1:])


def test_options_values_pattern_and_files():
    g = read("grep -rn -A 2 --include=*.py --max-count 3 TODO src a.py")
    assert g.options == ["-rn", "-A", "2", "--include=*.py", "--max-count", "3"]
    assert g.flags == "rnA" and g.long_names == ["--include", "--max-count"]
    assert g.pattern == ["TODO"] and g.operands == ["src", "a.py"] and g.pattern_given and g.complete


def test_e_gives_the_pattern_and_double_dash_ends_the_options():
    g = read("grep -ie TODO a.py b.py")
    assert g.flags == "ie" and g.options == ["-ie", "TODO"] and g.pattern == [] and g.operands == ["a.py", "b.py"]
    g = read("grep -- -x a.py")
    assert g.pattern == ["--", "-x"] and g.operands == ["a.py"]
    assert read("grep -e x -- -y").operands == ["-y"]


def test_a_missing_value_and_a_missing_pattern_are_reported():
    assert not read("grep x a.py -A").complete
    assert not read("grep -r").pattern_given
