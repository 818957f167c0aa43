"""Each kernel on small real trees: the numbers are the analysers' (ast, tree-sitter, lizard, git)."""

from __future__ import annotations

import pytest

from ragix_core.kernels.audit import KernelError, run_all, run_kernel
from tests.kernels.audit.conftest import COMPLEX, commit, git, write


def data(name, path):
    return run_kernel(name, str(path), cache_dir=None)["data"]


def by_path(rows):
    return {r["path"]: r for r in rows}


def test_ast_scan_gives_python_definitions_imports_and_call_edges(tmp_path):
    write(tmp_path, {"m.py": "import os\nfrom a.b import c\n\nclass K:\n    def run(self):\n"
                             "        def inner():\n            return os.getcwd()\n        return c(inner())\n",
                     "broken.py": "def f(:\n"})
    files = by_path(data("ast_scan", tmp_path)["files"])
    m = files["m.py"]
    assert [d["qualname"] for d in m["definitions"]] == ["K", "K.run", "K.run.inner"]
    assert [(i["module"], i["names"]) for i in m["imports"]] == [("os", []), ("a.b", ["c"])]
    edges = {(c["caller"], c["callee"]) for c in m["calls"]}
    assert edges == {("K.run.inner", "getcwd"), ("K.run", "c"), ("K.run", "inner")}
    assert "not valid Python" in files["broken.py"]["error"] and files["broken.py"]["definitions"] == []


def test_ast_scan_reads_other_languages_with_tree_sitter(tmp_path):
    write(tmp_path, {"web/app.js": "import x from './util';\nclass View {\n  draw() { return render(x); }\n}\n",
                     "cmd/main.go": "package main\nimport \"fmt\"\nfunc main() { fmt.Println(1) }\n"})
    files = by_path(data("ast_scan", tmp_path)["files"])
    js = files["web/app.js"]
    assert [(d["kind"], d["qualname"]) for d in js["definitions"]] == [("class", "View"), ("method", "View.draw")]
    assert js["calls"] == [{"caller": "View.draw", "callee": "render", "line": 3}]
    assert "./util" in js["imports"][0]["module"]
    assert files["cmd/main.go"]["calls"] == [{"caller": "main", "callee": "Println", "line": 3}]


def test_metrics_are_lizards_numbers(tmp_path):
    write(tmp_path, {"r.py": COMPLEX + "\n\ndef small():\n    return 1  # FIXME later\n"})
    doc = data("metrics", tmp_path)
    f = doc["files"][0]
    fns = {fn["name"]: fn for fn in f["function_list"]}
    assert fns["route"]["ccn"] == 7 and fns["route"]["length"] == 11 and fns["route"]["params"] == 4
    assert fns["small"]["ccn"] == 1
    assert (f["lines"], f["functions"], f["ccn_total"], f["ccn_max"], f["todo"]) == (15, 2, 8, 7, 1)
    assert doc["totals"]["ccn_mean"] == 4.0


def test_churn_counts_commits_and_distinct_authors_from_real_git(history):
    doc = data("churn", history)
    files = by_path(doc["files"])
    assert doc["available"] and doc["totals"] == {"commits": 3, "authors": 2}
    assert (files["src/core.py"]["commits"], files["src/core.py"]["authors"]) == (3, 2)
    assert (files["src/util.py"]["commits"], files["src/util.py"]["authors"]) == (1, 1)
    assert "README.md" not in files  # not a source file


def test_churn_of_a_subdirectory_counts_paths_from_it(history):
    files = by_path(data("churn", history / "src")["files"])
    assert set(files) == {"core.py", "util.py"} and files["core.py"]["commits"] == 3


def test_churn_without_a_repository_says_so(tmp_path):
    write(tmp_path / "plain", {"a.py": "x = 1\n"})
    doc = run_kernel("churn", str(tmp_path / "plain"), cache_dir=None)
    assert doc["data"]["available"] is False and "no git repository" in doc["notes"][0]


def test_hotspots_rank_complex_and_changed_first(history):
    rows = data("hotspots", history)["files"]
    assert rows[0]["path"] == "src/core.py" and rows[0]["score"] == 1.0
    util = by_path(rows)["src/util.py"]
    # (1 commit × ccn 1) / (3 commits × ccn 8)
    assert util["score"] == round(1 * 1 / (3 * 8), 4)


def test_risk_follows_its_documented_formula(history):
    rows = by_path(data("risk", history)["files"])
    core, util, test = rows["src/core.py"], rows["src/util.py"], rows["tests/test_util.py"]
    assert core["untested"] == 1 and util["untested"] == 0 and test["test"] and test["untested"] == 0
    nloc = core["nloc"]
    expected = 100 * (0.30 * 1.0 + 0.25 * (7 / 20) + 0.15 * (nloc / 1000) + 0.20 * 1
                      + 0.10 * min(1, (100 * 1 / nloc) / 2))
    assert core["risk"] == round(expected, 1)
    dirs = by_path(data("risk", history)["directories"])
    assert dirs["src"]["files"] == 2 and dirs["src"]["risk_max"] == core["risk"]


def test_recommendations_cite_the_numbers_they_rest_on(tmp_path):
    branches = "".join(f"    if x == {i}:\n        return {i}\n" for i in range(17))
    write(tmp_path, {"big.py": "def tangled(x):\n" + branches + "    return -1\n"})
    items = data("recommendations", tmp_path)["items"]
    split = [r for r in items if r["rule"] == "split_function"]
    assert split and split[0]["function"] == "tangled" and split[0]["evidence"]["ccn"] == 18
    assert "18" in split[0]["text"] and "15" in split[0]["text"]


def test_a_hotspot_needs_enough_history_to_be_recommended(history):
    items = data("recommendations", history)["items"]
    assert not [r for r in items if r["rule"] == "refactor_hotspot"]  # 3 commits: too short a history
    for i in range(3):
        commit(history, {"src/core.py": COMPLEX + f"\n\nV = {i}\n"}, "Bob")
    items = data("recommendations", history)["items"]
    hot = [r for r in items if r["rule"] == "refactor_hotspot"]
    assert [r["path"] for r in hot] == ["src/core.py"] and hot[0]["evidence"]["commits"] == 6


def test_an_unknown_kernel_names_the_known_ones(tmp_path):
    with pytest.raises(KernelError, match="unknown kernel 'loc'.*ast_scan.*recommendations"):
        run_kernel("loc", str(tmp_path))


def test_results_are_cached_by_content_and_history(history, tmp_path, monkeypatch):
    cache = tmp_path / "cache"
    first = run_all(str(history), cache_dir=cache)
    import ragix_core.kernels.audit.metrics as metrics

    def refuse(*_):
        raise AssertionError("recomputed although nothing changed")

    monkeypatch.setattr(metrics, "compute", refuse)
    again = run_all(str(history), cache_dir=cache)
    assert again["metrics"]["key"] == first["metrics"]["key"] and again == first
    monkeypatch.undo()
    monkeypatch.setenv("RAGIX_HOME", str(tmp_path / "home"))
    git(history, "commit", "-q", "--allow-empty", "-m", "empty", author="Bob")
    moved = run_all(str(history), cache_dir=cache)
    assert moved["metrics"]["key"] == first["metrics"]["key"]  # same files
    assert moved["churn"]["key"] != first["churn"]["key"]  # new history
    write(history, {"src/util.py": "def add(a, b):\n    return b + a\n"})
    assert run_all(str(history), cache_dir=cache)["metrics"]["key"] != first["metrics"]["key"]
