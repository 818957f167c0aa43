"""The shipped scenario sets load, are big enough, and agree with the fixture they run on."""

import re
from pathlib import Path

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
    assert files_with(r"FIXME") == ["api.py"]
    assert files_with(r"from \.storage import") == sorted(s["importers-of-storage"].expected_patterns)
    assert "Ada Lovelace" in (REPO / "docs" / "guide.md").read_text()


def test_recovery_targets_really_are_missing():
    for rel in ("docs/guides.md", "setup.py", "src/inventory/store.py", "tests/test_api.py", "docs/note.md",
                "config/settings.yml", "src/inventory/apis.py"):
        assert not (REPO / rel).exists(), rel


def test_public_surface():
    import ragix_core.eval as ev

    for name in ev.__all__:
        assert hasattr(ev, name), name
