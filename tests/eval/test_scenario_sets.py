"""The shipped scenario sets load, are big enough, and agree with the fixture they run on."""

import re
from pathlib import Path

import pytest

from ragix_core.eval.scenario import load_scenarios

ROOT = Path(__file__).resolve().parents[1] / "reasoning_v30"
REPO = ROOT / "fixtures" / "mock_repo"
MAIN_SETS = [ROOT / "scenarios" / f"{n}.yaml" for n in ("file_search", "code_analysis", "bypass_question")]


def by_id():
    return {s.id: s for s in load_scenarios(sorted((ROOT / "scenarios").glob("*.yaml")))}


def test_main_sets_size_and_mix():
    scen = load_scenarios(MAIN_SETS)
    assert len(scen) >= 30
    labels = {s.complexity for s in scen}
    assert labels == {"BYPASS", "SIMPLE", "MODERATE", "COMPLEX"}
    recovery = [s for s in scen if "Recovery" in s.description or "Ambiguous" in s.description]
    assert len(recovery) >= 5


def test_bypass_questions_need_no_tools():
    for s in load_scenarios(MAIN_SETS):
        if s.complexity == "BYPASS":
            assert s.must_run_commands == [] and s.max_steps == 1, s.id


def lines(rel):
    return len((REPO / rel).read_text().splitlines())


def test_line_count_facts_match_fixture():
    md = {str(p.relative_to(REPO)): lines(p.relative_to(REPO)) for p in REPO.rglob("*.md")}
    largest = max(md, key=md.get)
    smallest = min(md, key=md.get)
    s = by_id()
    assert largest.endswith("guide.md") and str(md[largest]) in s["largest-md-file"].expected_patterns
    assert smallest.endswith("notes.md") and str(md[smallest]) in s["smallest-md-file"].expected_patterns
    assert str(md["README.md"] - md["CHANGELOG.md"]) in s["compare-readme-changelog"].expected_patterns
    py = {p.name: lines(p.relative_to(REPO)) for p in REPO.rglob("*.py")}
    assert str(len(list(REPO.rglob("*.py")))) in s["count-python-files"].expected_patterns
    top = max(py, key=py.get)
    assert [top, str(py[top])] == s["largest-python-file"].expected_patterns


def test_grep_facts_match_fixture():
    def files_with(pattern):
        return sorted(p.name for p in REPO.rglob("*.py") if re.search(pattern, p.read_text()))

    s = by_id()
    assert files_with(r"TODO") == sorted(s["todo-comments"].expected_patterns)
    assert files_with(r"def execute") == sorted(s["grep-pattern"].expected_patterns)
    fixme = files_with(r"FIXME")
    assert fixme == [p for p in s["fixme-comments"].expected_patterns if p.endswith(".py")] == s["xfer-fixme"].expected_patterns
    (line,) = [ln for p in REPO.rglob(fixme[0]) for ln in p.read_text().splitlines() if "FIXME" in ln]
    assert all(p in line for p in s["fixme-comments"].expected_patterns if not p.endswith(".py"))  # what it asks for
    assert files_with(r"from \.storage import") == sorted(s["importers-of-storage"].expected_patterns)
    guide = (REPO / "docs" / "guide.md").read_text()
    assert s["maintainer-name"].expected_patterns and all(p in guide for p in s["maintainer-name"].expected_patterns)


def test_recovery_targets_really_are_missing():
    for rel in ("docs/guides.md", "setup.py", "src/inventory/store.py", "tests/test_api.py", "docs/note.md",
                "config/settings.yml", "src/inventory/apis.py"):
        assert not (REPO / rel).exists(), rel


def test_public_surface():
    import ragix_core.eval as ev

    for name in ev.__all__:
        assert hasattr(ev, name), name


# --- the patterns tell right answers from the wrong ones seen or plausible --------------------

def answer_passes(sid, answer):
    """Judge ``answer`` alone: the scenario's required commands ran, within the step budget."""
    from ragix_core.eval.evaluate import evaluate_run
    from tests.eval.fakes import make_result

    s = by_id()[sid]
    r = evaluate_run(s, make_result(answer, s.must_run_commands, steps=1))
    return r.passed


@pytest.mark.parametrize("sid, answer", [
    # recorded answers of real runs (graph_v30, s0) that named the wrong file or number
    ("compare-readme-changelog", "The line count of README.md is 19, and the line count of CHANGELOG.md is 12. "
                                 "CHANGELOG.md is longer by 7 lines."),
    ("compare-readme-changelog", "The line count of README.md is 10, and the line count of CHANGELOG.md is 15. "
                                 "README.md is longer by 5 lines."),
    ("compare-readme-changelog", "CHANGELOG.md has 7 more lines than README.md."),
    ("compare-readme-changelog", "The longer file is CHANGELOG.md, by 7 lines."),
    # the recorded graph_v30 answer: every Python file, TODO or not
    ("todo-comments", "./src/inventory/cli.py, ./src/inventory/storage.py, ./src/inventory/__init__.py, "
                      "./src/inventory/api.py, ./src/inventory/models.py, ./a.py, ./tests/test_models.py, ./b.py"),
    ("grep-pattern", "./a.py ./b.py ./src/inventory/api.py ./src/inventory/cli.py ./src/inventory/models.py"),
    ("list-markdown-files", "README.md CHANGELOG.md a.py b.py docs/guide.md docs/notes.md inventory.json"),
    ("importers-of-storage", "__init__.py, api.py, cli.py, models.py, storage.py"),
    ("trap-log-level", "I have no information about the log level."),
    ("wrong-module-store", "src/inventory/store.py does not exist, so nothing could be loaded or saved."),
    ("dataclass-name", "The dataclass is Warehouse, which holds the items."),
    ("count-python-files", "The server listens on port 8080."),
    ("smallest-md-file", "docs/notes.md has 16 lines."),
    ("grep-recursive-flag", "The -r option reverses the order of the matching lines."),
    ("grep-recursive-flag", "-r inverts the match: it prints the lines that do not match, in every subdirectory."),
])
def test_wrong_answers_fail(sid, answer):
    assert not answer_passes(sid, answer)


@pytest.mark.parametrize("sid, answer", [
    ("compare-readme-changelog", "README.md is longer by 7 lines (19 vs 12)."),
    ("compare-readme-changelog", "README.md has 19 lines and CHANGELOG.md has 12, so README.md is longer by 7 lines."),
    ("compare-readme-changelog", "CHANGELOG.md (12 lines) is shorter than README.md (19 lines) by 7 lines."),
    ("compare-readme-changelog", "README.md has 7 more lines than CHANGELOG.md (19 vs 12)."),
    ("compare-readme-changelog", "README.md: 19 lines, CHANGELOG.md: 12 lines. README.md is longer by 7."),
    ("todo-comments", "a.py:12 support more than two operands; b.py:13 validate the command; "
                      "src/inventory/models.py:22 reject negative quantities; src/inventory/cli.py:17 add a delete command"),
    ("grep-pattern", "./b.py and ./src/inventory/cli.py"),
    ("list-markdown-files", "./README.md, ./CHANGELOG.md, ./docs/notes.md, ./docs/guide.md"),
    ("importers-of-storage", "src/inventory/api.py and src/inventory/cli.py import from storage."),
    ("trap-log-level", 'The log level is set to "info".'),
    ("wrong-module-store", "There is no store.py; src/inventory/storage.py defines save(warehouse, path) and load(path)."),
    ("dataclass-name", "`Item` is declared with @dataclass."),
    ("count-python-files", "There are 8 Python files."),
    ("smallest-md-file", "docs/notes.md has 6 lines."),
    # the recorded graph_v30 answer at 888e61b, failed then on the missing word "recurs"
    ("grep-recursive-flag", "The -r option of grep is used to search for a pattern in all files within a directory "
                            "and its subdirectories."),
    ("grep-recursive-flag", "It makes grep search recursively."),
])
def test_right_answers_pass(sid, answer):
    assert answer_passes(sid, answer)


def test_forbidden_files_really_lack_what_the_question_asks_for():
    s = by_id()

    def files(pattern):
        return [p for p in REPO.rglob("*") if p.is_file() and pattern in str(p.relative_to(REPO))]

    def holding(regex):
        return {p.name for p in REPO.rglob("*.py") if re.search(regex, p.read_text())}

    checks = {"todo-comments": r"TODO", "warm-todo": r"TODO", "grep-pattern": r"def execute", "xfer-fixme": r"FIXME",
              "importers-of-storage": r"from \.storage import", "dependents-of-models": r"from \.models import"}
    for sid, regex in checks.items():
        assert s[sid].forbidden_patterns, sid
        for pattern in s[sid].forbidden_patterns:
            named = files(pattern)
            assert named, (sid, pattern)  # a forbidden name that matches no file guards nothing
            assert not {p.name for p in named} & holding(regex), (sid, pattern)
    md = {p.name for p in REPO.rglob("*.md")}
    assert all(not any(name.endswith(ext) for name in md) for ext in s["list-markdown-files"].forbidden_patterns)


def test_absence_facts_match_fixture():
    every = [p for p in REPO.rglob("*") if p.is_file() and ".ragix" not in p.parts]
    s = by_id()
    assert {"redis-mentions", "importers-of-billing", "fixme-in-markdown"} <= set(s)
    assert not [p for p in every if "redis" in p.read_text(errors="ignore").lower()]
    assert not [p for p in REPO.rglob("*.py") if re.search(r"\bbilling\b", p.read_text())]
    assert not [p for p in REPO.rglob("*.md") if "FIXME" in p.read_text()]
    assert [p.name for p in REPO.rglob("*.py") if "FIXME" in p.read_text()]  # the trap is there
