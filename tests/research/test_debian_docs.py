"""benchmarks/debian_docs.py: a doc package's pages fetched once into the benchmark cache, clear errors otherwise."""

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
import debian_docs  # noqa: E402
from ragix_core.eval.benchmarks.errors import BenchmarkError  # noqa: E402


@pytest.fixture
def bench(tmp_path, monkeypatch):
    monkeypatch.setenv("RAGIX_BENCH_DIR", str(tmp_path / "bench"))
    monkeypatch.chdir(tmp_path)  # ./.bench must not be the checkout's
    return tmp_path / "bench"


def fake_download(pages):
    """A stand-in for apt-get download + dpkg-deb -x: writes the package tree the way dpkg would."""
    def download(package, version, scratch):
        calls.append(package)
        return scratch / f"{package}_1_all.deb"

    def extract(cmd, cwd, what):
        tree = Path(cmd[-1]) / "usr/share/doc/demo"
        for rel, text in pages.items():
            (tree / rel).parent.mkdir(parents=True, exist_ok=True)
            (tree / rel).write_text(text)
        (tree / "index.html").symlink_to("a.html")
        return type("R", (), {"returncode": 0, "stderr": ""})()
    calls = []
    return download, extract, calls


def test_pages_are_copied_once_without_symlinks_and_then_reused(bench, monkeypatch):
    download, extract, calls = fake_download({"a.html": "<p>a</p>", "sub/b.html": "<p>b</p>", "a.txt": "a"})
    monkeypatch.setattr(debian_docs, "_download", download)
    monkeypatch.setattr(debian_docs, "_run", extract)
    docs = debian_docs.fetch_package_docs("demo-doc", "1:1.0-1", "usr/share/doc/demo", ["*.html"])
    assert sorted(p.relative_to(docs).as_posix() for p in docs.rglob("*") if p.is_file()) == \
        [debian_docs.COMPLETE, "a.html", "sub/b.html"]  # no .txt twin, no index.html symlink
    assert docs == debian_docs.find_package_docs("demo-doc", "1:1.0-1") and str(bench) in str(docs)
    assert debian_docs.fetch_package_docs("demo-doc", "1:1.0-1", "usr/share/doc/demo") == docs
    assert calls == ["demo-doc"]  # the second call found the finished copy


def test_an_interrupted_copy_is_not_taken_for_a_finished_one(bench):
    half = bench / "docsets" / "demo-doc_1.0" / "docs"
    half.mkdir(parents=True)
    (half / "a.html").write_text("<p>a</p>")
    assert debian_docs.find_package_docs("demo-doc", "1.0") is None


def test_without_apt_the_error_says_what_is_needed_and_where_pages_go(bench, monkeypatch):
    monkeypatch.setattr(debian_docs.shutil, "which", lambda name: None)
    with pytest.raises(BenchmarkError, match=r"apt-get and dpkg-deb are needed.*demo-doc_1\.0/docs.*\.complete"):
        debian_docs.fetch_package_docs("demo-doc", "1.0", "usr/share/doc/demo")


def test_a_version_the_archive_no_longer_has_is_reported_with_apt_s_words(bench, monkeypatch):
    monkeypatch.setattr(debian_docs.shutil, "which", lambda name: "/usr/bin/" + name)
    monkeypatch.setattr(debian_docs.os, "geteuid", lambda: 1000)  # no refresh of the lists
    failed = type("R", (), {"returncode": 100, "stderr": "E: Can't find a source to download version '9' of 'demo-doc'",
                            "stdout": ""})()
    monkeypatch.setattr(debian_docs, "_run", lambda cmd, cwd, what: failed)
    with pytest.raises(BenchmarkError, match=r"apt-get download demo-doc=9 failed: E: Can't find.*apt-cache policy demo-doc"):
        debian_docs.fetch_package_docs("demo-doc", "9", "usr/share/doc/demo")
