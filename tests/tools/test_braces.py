"""Brace expansion in the lexer (tools/braces.py): what bash expands becomes the words it stands for;
what bash leaves alone stays literal text. Every expanded word is then an ordinary word."""

from __future__ import annotations

import pytest

from ragix_core.tools import Refusal
from ragix_core.tools.lexer import GlobWord, split_pipeline


@pytest.mark.parametrize("text,words", [
    ("wc -l src/{app,util}.py", ["wc", "-l", "src/app.py", "src/util.py"]),
    ("ls {a,b}{1,2}", ["ls", "a1", "a2", "b1", "b2"]),
    ("ls x{a,{b,c}}y", ["ls", "xay", "xby", "xcy"]),  # nested groups
    ("ls f{,.bak}", ["ls", "f", "f.bak"]),  # an empty alternative
    ("ls {1..3}", ["ls", "1", "2", "3"]),
    ("ls {3..1}", ["ls", "3", "2", "1"]),
    ("ls {01..03}", ["ls", "01", "02", "03"]),  # zero padding, as bash
    ("ls {0..10..5}", ["ls", "0", "5", "10"]),
    ("ls {a..c}", ["ls", "a", "b", "c"]),
    # What bash leaves alone:
    ("ls {}", ["ls", "{}"]),
    ("ls {a}", ["ls", "{a}"]),
    ("ls {a,b", ["ls", "{a,b"]),
    ("ls a,b}", ["ls", "a,b}"]),
    ("ls '{a,b}'", ["ls", "{a,b}"]),  # quoted: literal
    ("ls {a','b}", ["ls", "{a,b}"]),  # the comma is quoted: no group
    ("cut -d, -f1 f", ["cut", "-d,", "-f1", "f"]),
    ("ls {x}{a,b}", ["ls", "{x}a", "{x}b"]),  # a literal group before one that expands
])
def test_braces_expand_as_bash_does(text, words):
    assert split_pipeline(text) == [words]


def test_an_expanded_glob_is_still_a_glob_and_its_quoted_part_escaped():
    (stage,) = split_pipeline("ls *.{py,'m*'}")
    assert stage[1:] == ["*.py", "*.m*"]
    assert all(isinstance(w, GlobWord) for w in stage[1:])
    assert [w.pattern for w in stage[1:]] == ["*.py", "*.m[*]"]  # the quoted * matches only itself


def test_a_huge_expansion_is_refused_with_its_size():
    with pytest.raises(Refusal, match="brace expansion makes more than 256 words"):
        split_pipeline("ls {a,b,c,d,e,f,g,h,i,j}{a,b,c,d,e,f,g,h,i,j}{a,b,c,d,e,f,g,h,i,j}")
