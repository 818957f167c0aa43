"""The command lexer: quoting, pipes, and what it refuses (with a reason)."""

from __future__ import annotations

import pytest

from ragix_core.tools import Refusal
from ragix_core.tools.lexer import MAX_COMMAND_CHARS, split_pipeline


@pytest.mark.parametrize("text,stages", [
    ("ls -la", [["ls", "-la"]]),
    ("  ls   -la  ", [["ls", "-la"]]),
    ("grep 'a b' f", [["grep", "a b", "f"]]),
    ('grep "a b" f', [["grep", "a b", "f"]]),
    ("grep 'a|b' f | wc -l", [["grep", "a|b", "f"], ["wc", "-l"]]),
    ("find . -name '*.md'|sort", [["find", ".", "-name", "*.md"], ["sort"]]),
    ("find . \\( -name x \\)", [["find", ".", "(", "-name", "x", ")"]]),
    ("grep '' f", [["grep", "", "f"]]),
    ('grep "it\'s" f', [["grep", "it's", "f"]]),
    ('grep "say \\"hi\\"" f', [["grep", 'say "hi"', "f"]]),
    ("grep a\\ b f", [["grep", "a b", "f"]]),
    ("ls a~b", [["ls", "a~b"]]),
    ("find . ! -name x", [["find", ".", "!", "-name", "x"]]),
    ("find . -name x 2>/dev/null", [["find", ".", "-name", "x"]]),
    ("find . 2>/dev/null | wc -l", [["find", "."], ["wc", "-l"]]),
    ("ls '2>/dev/null'", [["ls", "2>/dev/null"]]),
    # a '$' that starts no expansion (a regex anchor) is text, as in a shell
    ("ls -1 | grep \\.md$", [["ls", "-1"], ["grep", ".md$"]]),
    ("grep x$ f", [["grep", "x$", "f"]]),
    ("grep x$|wc -l", [["grep", "x$"], ["wc", "-l"]]),
    ('grep "x$" f', [["grep", "x$", "f"]]),
    ('grep "a$ b" f', [["grep", "a$ b", "f"]]),
])
def test_splits(text, stages):
    assert split_pipeline(text) == stages


@pytest.mark.parametrize("text,reason", [
    ("ls; id", "chaining"),
    ("ls | | wc", "empty pipeline stage"),
    ("ls |", "empty pipeline stage"),
    ("| ls", "empty pipeline stage"),
    ("ls 'x", "unbalanced single quote"),
    ('ls "x', "unbalanced double quote"),
    # each '$' refusal says what stands in its place: a variable's value, a second command, a tool's arithmetic
    ('ls "$HOME"', r"'\$HOME' is a shell variable, and ragix runs each command without a shell: nothing sets it"),
    ("ls $HOME", "shell variable"),
    ('find "${TARGET_DIR}" -type d', r"'\$TARGET_DIR' is a shell variable"),
    ("grep a$b f", r"'\$b' is a shell variable"),
    ("cat $(ls)", r"command substitution '\$\(...\)' is not allowed: ragix runs no shell. Run the inner command"),
    ('grep "$(ls)" f', "command substitution"),
    ("expr $((1 + 2))", "arithmetic expansion"),
    ('grep "a$1" f', "expansion '\\$' is not allowed, even in double quotes"),
    # awk's and sed's own '$' in double quotes: single quotes are the fix, not a value
    ('awk "{print $NF}" f', "expanded by a shell before awk sees it; write the program in single quotes"),
    ('ls | sed -n "$p"', "before sed sees it"),
    ("awk {print $1} f", "expansion '\\$' is not allowed; write the value literally"),
    ("ls [ab].py", "glob classes"),
    ("ls ~", "tilde"),
    ("ls {1..400}", "brace expansion makes"),
    ("ls\tx", "control character"),
    ("ls 2>/dev/nullx", "redirection"),
    ("ls 2>/tmp/x", "redirection"),
    ("ls >&2", "redirection"),
    ("ls > a | wc", "end of the last pipeline stage"),
    ("", "empty command"),
    ("ls \\", "trailing backslash"),
    ("ls " + "x" * MAX_COMMAND_CHARS, "too long"),
    ("ls " + "a " * 300, "too many arguments"),
    ("ls | cat | cat | cat | cat | cat | cat | cat | cat", "too many pipeline stages"),
])
def test_refuses_with_reason(text, reason):
    with pytest.raises(Refusal, match=reason):
        split_pipeline(text)


def test_non_string_refused():
    with pytest.raises(Refusal):
        split_pipeline(None)  # type: ignore[arg-type]


def test_unquoted_star_and_question_mark_make_a_glob_word_with_quoted_parts_escaped():
    from ragix_core.tools.lexer import GlobWord

    (stage,) = split_pipeline("""grep -rn 'a*b' src/*.py "x*"y? \\*.md""")
    assert stage == ["grep", "-rn", "a*b", "src/*.py", "x*y?", "*.md"]
    kinds = [(type(w) is GlobWord, getattr(w, "pattern", None)) for w in stage]
    assert kinds == [(False, None), (False, None), (False, None), (True, "src/*.py"), (True, "x[*]y?"), (False, None)]


def test_output_redirection_is_the_validators_call(world):
    """`>` is parsed (write profiles may use it); a read-only profile refuses it, and its
    target is checked like any written path (here: outside the project)."""
    from tests.tools.conftest import make_box

    for command in ("ls x2>/dev/null", "ls >/dev/null"):
        assert "redirection" in make_box(world, "none").run_command(command).error
        dev = make_box(world, "none", profile="dev", assume_yes=True).run_command(command)
        assert dev.refused and "outside the project" in dev.error, dev
