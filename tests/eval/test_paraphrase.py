"""bench:paraphrase: the frozen set is well formed, is what its generator makes from the pinned sdist, and
judges replies fairly; the adapter unpacks the sdist into each working copy and says how to get it."""

import hashlib
import io
import pickle
import re
import sys
import tarfile
from pathlib import Path

import pytest
import yaml

from ragix_core.eval.benchmarks import BenchmarkError, benchmark_scenarios
from ragix_core.eval.benchmarks import paraphrase as para
from ragix_core.eval.matching import find_patterns, pattern_problem
from ragix_core.eval.scenario import load_scenario_file
from ragix_core.eval.workspace import working_copy

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
from benchmarks.paraphrase import generate  # noqa: E402


def frozen():
    return yaml.safe_load(para.QUESTIONS.read_text(encoding="utf-8"))


def test_frozen_set_has_three_phrasings_of_at_least_60_facts():
    scenarios = load_scenario_file(para.QUESTIONS)  # validates every pattern and the ids' uniqueness
    facts = {}
    for s in scenarios:
        assert re.fullmatch(r"para-[a-z0-9-]+-[123]", s.id), s.id
        facts.setdefault(para.fact_of(s.id), []).append(s)
    assert len(facts) >= 60 and len(scenarios) == 3 * len(facts)
    for fact, group in facts.items():
        assert [s.id[-1] for s in group] == ["1", "2", "3"], fact
        assert len({s.input for s in group}) == 3, fact  # three different wordings
        assert len({tuple(s.expected_patterns) for s in group}) == 1, fact  # of one question
        assert group[0].expected_patterns, fact
        for p in group[0].expected_patterns + group[0].forbidden_patterns:
            assert pattern_problem(p) is None, (fact, p)


def test_header_names_the_pinned_sdist():
    fields = generate.header_fields(para.QUESTIONS.read_text(encoding="utf-8"))
    assert (fields["package"], fields["version"], fields["sdist"], fields["sdist_sha256"]) == \
        (para.PACKAGE, para.VERSION, para.SDIST, para.SDIST_SHA256)
    assert re.fullmatch(r"[0-9a-f]{7,40}", fields["generator_commit"])  # a committed generator, not "+dirty"
    assert re.fullmatch(r"\d{4}-\d{2}-\d{2}", fields["generated"])


def test_every_computed_answer_passes_its_own_patterns():
    for s in frozen():
        found, missing = find_patterns(s["answer"], s["expected_patterns"])
        forbidden, _ = find_patterns(s["answer"], s.get("forbidden_patterns", []))
        assert not missing and not forbidden, (s["id"], s["answer"], missing, forbidden)


@pytest.mark.parametrize("fact, right, wrong", [
    ("longest-py", "The longest one is `sqlparse/keywords.py`, 1111 lines.",
     "tests/test_format.py is the longest, with 841 lines."),
    ("where-truncate", "It is defined in the filters package, in tokens.py.", "In sqlparse/tokens.py."),
    ("where-truncate", "sqlparse.filters.tokens", "sqlparse/tokens.py (line 39)"),
    ("longest-md", "./README.md has the most lines (153).", "benchmarks/README.md"),
    ("mixin-users", "Identifier and Function both inherit from it.", "Only functions use it, e.g. identifier()."),
    ("fixme-right-margin", 'It says "Does not work".', "It says the margin is fixed."),
    ("console-script", "sqlformat, which runs main() from sqlparse/cli.py", "sqlformat"),
    ("max-grouping-tokens", "It is 10,000 tokens.", "It is 1000."),
    ("importers-lexer-tests", "test_keywords.py, test_parse.py and test_tokenize.py",
     "test_keywords.py and test_parse.py"),
    ("grep-albrecht", "The AUTHORS and license files, PKG-INFO, docs/source/conf.py and pyproject.toml",
     "AUTHORS, LICENSE, PKG-INFO and pyproject.toml"),
])
def test_a_right_reply_in_ordinary_words_passes_and_a_typical_wrong_one_fails(fact, right, wrong):
    (s,) = [s for s in frozen() if s["id"] == f"para-{fact}-1"]

    def passes(reply):
        _, missing = find_patterns(reply, s["expected_patterns"])
        forbidden, _ = find_patterns(reply, s.get("forbidden_patterns", []))
        return not missing and not forbidden

    assert passes(right) and not passes(wrong)


def real_sdist():
    try:
        return para.find_sdist()
    except BenchmarkError:
        pytest.skip(f"{para.SDIST} not in .bench ({para.SDIST_HINT})")


def test_frozen_body_is_what_the_generator_makes_from_the_sdist():
    pytest.importorskip("tomllib")  # the generator reads pyproject.toml with it (Python 3.11+)
    frozen_text = para.QUESTIONS.read_text(encoding="utf-8")
    assert generate.body_of(frozen_text) == generate.body(real_sdist()), \
        "questions.yaml differs from a fresh generation: the sdist or the generator changed"


def test_real_sdist_is_unpacked_into_the_working_copy():
    real_sdist()
    scenarios = benchmark_scenarios("bench:paraphrase:2")
    assert [s.id for s in scenarios] == ["para-py-total-1", "para-py-total-2", "para-py-total-3",
                                         "para-py-package-1", "para-py-package-2", "para-py-package-3"]
    assert all(s.empty_workdir and s.category == "paraphrase" for s in scenarios)
    sent = pickle.loads(pickle.dumps(scenarios[0]))  # as a worker process gets it (ragix eval --jobs)
    for scenario in (scenarios[0], sent):
        with working_copy(None) as work:
            scenario.setup(work)
            assert (work / "sqlparse" / "lexer.py").is_file() and (work / ".github").is_dir()
            assert len(list(work.rglob("*.py"))) == 42  # the answer of para-py-total


def fake_sdist(tmp_path, monkeypatch, members):
    """A tarball under the pinned name in RAGIX_BENCH_DIR, its sha256 made the pinned one."""
    d = tmp_path / "bench"
    d.mkdir()
    path = d / para.SDIST
    with tarfile.open(path, "w:gz") as tf:
        for name, data in members.items():
            info = tarfile.TarInfo(name)
            if data is None:
                info.type = tarfile.SYMTYPE
                info.linkname = "/etc/passwd"
                tf.addfile(info)
            else:
                info.size = len(data)
                tf.addfile(info, io.BytesIO(data))
    monkeypatch.setenv("RAGIX_BENCH_DIR", str(d))
    monkeypatch.setattr(para, "SDIST_SHA256", hashlib.sha256(path.read_bytes()).hexdigest())
    return path


def test_unpack_drops_the_top_directory(tmp_path, monkeypatch):
    top = f"{para.PACKAGE}-{para.VERSION}"
    sdist = fake_sdist(tmp_path, monkeypatch, {f"{top}/README.md": b"hi\n", f"{top}/pkg/a.py": b"x = 1\n"})
    assert para.find_sdist() == sdist
    para.unpack_sdist(sdist, tmp_path / "work")
    assert (tmp_path / "work" / "README.md").read_text() == "hi\n"
    assert (tmp_path / "work" / "pkg" / "a.py").is_file()


@pytest.mark.parametrize("name", ["../evil.py", "other-1.0/a.py", "{top}/../../evil.py", "{top}/link"])
def test_unpack_refuses_members_outside_the_tree_and_links(name, tmp_path, monkeypatch):
    name = name.format(top=f"{para.PACKAGE}-{para.VERSION}")
    sdist = fake_sdist(tmp_path, monkeypatch, {name: None if name.endswith("link") else b"x\n"})
    with pytest.raises(BenchmarkError, match="unexpected member"):
        para.unpack_sdist(sdist, tmp_path / "work")
    assert not (tmp_path / "evil.py").exists()


def test_another_file_under_the_pinned_name_is_refused(tmp_path, monkeypatch):
    fake_sdist(tmp_path, monkeypatch, {"x": b""})
    monkeypatch.setattr(para, "SDIST_SHA256", "0" * 64)
    with pytest.raises(BenchmarkError, match="sha256 .* is not the pinned"):
        para.find_sdist()


def test_missing_sdist_says_how_to_get_it(no_bench_data):
    with pytest.raises(BenchmarkError, match=re.escape("pip download --no-deps --no-binary :all: sqlparse==0.6.1")):
        benchmark_scenarios("bench:paraphrase")


@pytest.mark.parametrize("spec, fragment", [
    ("bench:paraphrase:some", "the number of facts must be an integer"),
    ("bench:paraphrase:1:2", "expected bench:paraphrase"),
])
def test_bad_paraphrase_specs(spec, fragment):
    with pytest.raises(BenchmarkError, match=fragment):
        benchmark_scenarios(spec)
