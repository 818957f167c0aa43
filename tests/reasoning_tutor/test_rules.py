"""The rule language: the shipped rules on real tool output, and clear errors for bad rule files."""

from pathlib import Path

import pytest

from ragix_core.reasoning_tutor.claims import parse_claim
from ragix_core.reasoning_tutor.rules import (Output, RuleError, default_rules, load_rules, normalize_command,
                                             output_status, parse_rules)
from ragix_core.tools import ToolBox


def derive(project: Path, command: str):
    """Run ``command`` in the real confined tool box; return the facts the shipped rules derive."""
    result = ToolBox(project, profile="reflect").run_command(command)
    facts, dropped = default_rules().from_output(Output(normalize_command(result.written), output_status(result),
                                                        result.stdout, result.stderr, result.truncated))
    assert dropped == 0
    return {d.claim for d in facts}


@pytest.mark.parametrize("command,status", [("diff src/app.py README.md", "ok"),
                                            ("grep -rn NO_SUCH_WORD src", "no_match"),
                                            ("diff src/app.py missing.txt", "failed"), ("wc -l src/app.py", "ok")])
def test_a_diff_that_finds_differences_is_ok_like_a_search_that_found_something(project, command, status):
    assert output_status(ToolBox(project).run_command(command)) == status


def facts(*texts):
    return {parse_claim(t) for t in texts}


def test_the_command_as_rules_see_it():
    assert normalize_command("/usr/bin/grep -rn 'def main' . | /usr/bin/wc -l") == "grep -rn 'def main' . | wc -l"


def test_ragix_hiding_its_state_from_a_search_changes_no_fact(project):
    # A real run always has .ragix (the tutor's graph lives there); the tool box then adds the option that
    # hides it to every recursive find/grep/ls. Measured: with the rules matched on that argv, every find
    # in the first benchmark run derived nothing.
    commands = ("find . -name '*.py'", "grep -rn 'def ' src", "find . -name '*.py' | wc -l", "ls src",
                "grep -rn 'def ' src 2>/dev/null", "cat src/a*.py")
    before = {c: derive(project, c) for c in commands}
    (project / ".ragix").mkdir()
    for c in commands:
        assert before[c] and derive(project, c) == before[c], c
    assert parse_claim('line("src/app.py", "def main():")') in before["cat src/a*.py"]  # the glob, expanded


def test_recursive_grep_attributes_lines_to_their_files(project):
    got = derive(project, "grep -rn 'def ' src")
    assert facts('line("src/app.py", "def main():")', 'line("src/util.py", "def helper(x):")') <= got
    assert parse_claim('match_count(src, "def ", 2)') in got


def test_counts_from_wc_find_and_grep(project):
    assert parse_claim("line_count(README.md, 3)") in derive(project, "wc -l README.md")
    assert parse_claim("line_count(README.md, 3)") in derive(project, "cat README.md | wc -l")
    assert parse_claim('file_count(., "*.py", 2)') in derive(project, "find . -name '*.py' | wc -l")
    assert parse_claim('file_count(., "*.py", 2)') in derive(project, "find . -type f -name '*.py'")
    assert parse_claim('match_count(logs/app.log, "ERROR", 2)') in derive(project, "grep -c ERROR logs/app.log")
    assert parse_claim('match_count(logs/app.log, "ERROR", 2)') in derive(project, "grep ERROR logs/app.log | wc -l")


def test_options_that_change_what_a_count_means_derive_no_count(project):
    assert not any(c.predicate == "match_count" for c in derive(project, "grep -ci error logs/app.log"))
    assert not any(c.predicate == "match_count" for c in derive(project, "grep -rn --include=*.log ERROR ."))
    assert not any(c.predicate == "match_count" for c in derive(project, "grep -c 'ERR.R' logs/app.log"))


def test_fact_rules_read_settings_definitions_and_imports(project):
    rules = default_rules()
    got = set()
    for claim in derive(project, "cat config/app.ini") | derive(project, "cat src/app.py"):
        got |= {d.claim for d in rules.from_fact(claim)}
    assert facts('setting(config/app.ini, port, 8080)', 'setting(config/app.ini, workers, 4)',
                 'defines(src/app.py, main)', 'imports(src/app.py, os)', 'imports(src/app.py, demo.payments)') <= got
    assert not any(c.predicate == "setting" and c.args[1] == "threads per worker" for c in got)


def test_absence_listings_and_errors(project):
    assert facts("no_match(src, TODO)", 'match_count(src, "TODO", 0)') <= derive(project, "grep -rn TODO src")
    assert facts("exists(src/app.py)", "exists(src/util.py)", "listed(src)") <= derive(project, "ls src")
    assert parse_claim("missing(nothere.txt)") in derive(project, "cat nothere.txt")
    # A quoted glob reaches ls unexpanded: its "No such file" names the pattern, not an absent file.
    assert not derive(project, "ls -1 '*.py'") and not derive(project, "cat 'src/*.txt'")
    assert parse_claim("complete(README.md)") in derive(project, "cat README.md")
    assert parse_claim("complete(README.md)") not in derive(project, "head -n 2 README.md")


def test_calc_output_becomes_a_value():
    got = default_rules().from_output(Output("calc '4*6'", "ok", "24.0000000000000\n"))[0]
    assert [d.claim for d in got] == [parse_claim('value("4*6", 24)')]


@pytest.mark.parametrize("text,fragment", [
    ("rules: [{id: r, command: 'x', derive: ['line(path, text)']}]", "nothing in the rule binds"),
    ("rules: [{id: r, command: 'x <path>', derive: ['lines(path)']}]", "unknown predicate"),
    ("rules: [{id: r, command: 'x <path>', derive: ['exists(path, path)']}]", "takes 1 argument"),
    ("rules: [{id: r, command: 'x(', derive: ['exists(\"a\")']}]", "invalid regular expression"),
    ("rules: [{id: r, command: 'x', colour: red, derive: ['exists(\"a\")']}]", "unknown key"),
    ("rules: [{id: r, command: 'x', derive: ['exists(\"a\")']}, {id: r, command: 'y', derive: ['exists(\"b\")']}]",
     "duplicate id"),
    ("rules: [{id: r, from: 'line(path, text)', match: {other: 'x'}, derive: ['exists(path)']}]", "does not bind"),
    ("rules: [{id: r, command: 'x', status: sometimes, derive: ['exists(\"a\")']}]", "status"),
    ("rules: [{id: r, command: 'x', derive: ['exists(?p)']}]", "without '?'"),
    ("rules: {id: r}", "'rules' list"),
    ("rules: [x: [", "invalid YAML"),
])
def test_bad_rule_files_are_errors_naming_the_problem(text, fragment):
    with pytest.raises(RuleError, match=fragment) as info:
        parse_rules(text, "my_rules.yaml")
    assert "my_rules.yaml" in str(info.value)


def test_extra_rule_files_add_rules_and_may_not_redefine_shipped_ones(tmp_path):
    extra = tmp_path / "extra.yaml"
    extra.write_text("rules:\n  - id: du_size\n    command: 'du -s <path>'\n    line: '(?P<n>\\d+)\\s+\\S+'\n"
                     "    derive: ['output(\"A1\", n)']\n")
    assert "du_size" in {r.id for r in load_rules([extra]).rules}
    extra.write_text("rules:\n  - id: cat_lines\n    command: 'x'\n    derive: ['exists(\"a\")']\n")
    with pytest.raises(RuleError, match="already defined"):
        load_rules([extra])
    with pytest.raises(RuleError, match="cannot read"):
        load_rules([tmp_path / "missing.yaml"])
