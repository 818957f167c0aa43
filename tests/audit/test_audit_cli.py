"""`ragix audit` end to end on small real trees: the kernel JSON, the T0 report, and bad input."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from ragix_core.cli import app
from tests.kernels.audit.conftest import COMPLEX, commit, git, write

runner = CliRunner()


def test_one_kernel_prints_its_versioned_json(tmp_path, monkeypatch):
    monkeypatch.setenv("RAGIX_HOME", str(tmp_path / "home"))
    write(tmp_path / "t", {"r.py": COMPLEX})
    result = runner.invoke(app, ["audit", "metrics", str(tmp_path / "t"), "--json"])
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    assert (doc["kernel"], doc["version"], doc["files"]) == ("metrics", 1, 1)
    assert doc["data"]["files"][0]["ccn_max"] == 7 and len(doc["key"]) == 64


def test_bad_input_is_named_without_a_traceback(tmp_path, monkeypatch):
    monkeypatch.setenv("RAGIX_HOME", str(tmp_path / "home"))
    (tmp_path / "f.py").write_text("x = 1\n")
    cases = [(["audit", str(tmp_path / "missing")], "no such directory"),
             (["audit", str(tmp_path / "f.py")], "not a directory"),
             (["audit", "loc", str(tmp_path)], "unknown kernel 'loc'"),
             (["audit", "metrics", str(tmp_path), "extra"], "expected [KERNEL] DIR")]
    for argv, message in cases:
        result = runner.invoke(app, argv)
        assert result.exit_code == 2 and message in result.output, (argv, result.output)
        assert "Traceback" not in result.output
        assert result.exception is None or isinstance(result.exception, SystemExit), result.exception


def _project(root):
    git(root, "init", "-q", "-b", "main")
    for i in range(6):
        commit(root, {"app/core.py": COMPLEX + f"\nV = {i}\n"}, "Alice" if i % 2 else "Bob")
    commit(root, {"app/util.py": "def one():\n    return 1\n", "lib/big.py":
                  "def tangled(x):\n" + "".join(f"    if x == {i}:\n        return {i}\n" for i in range(17))}, "Bob")


def test_the_report_is_written_with_plots_and_is_the_same_every_run(tmp_path, monkeypatch):
    monkeypatch.setenv("RAGIX_HOME", str(tmp_path / "home"))
    root = tmp_path / "proj"
    root.mkdir()
    _project(root)
    result = runner.invoke(app, ["audit", str(root)])
    assert result.exit_code == 0, result.output
    out = root / ".ragix" / "audit"
    assert f"wrote {out}/report.md" in result.stdout
    md = (out / "report.md").read_text()
    assert "| app/core.py | 1.0 | 6 | 2 | 7 | 12 |" in md  # hotspot row: score, commits, authors, summed CCN
    assert "[split_function] tangled in lib/big.py (line 1) has cyclomatic complexity 18" in md
    assert "[refactor_hotspot] app/core.py changed in 6 commits by 2 authors" in md
    assert "![Complexity vs churn per file](complexity_vs_churn.svg)" in md
    assert (out / "complexity_vs_churn.svg").read_text().startswith("<?xml")
    assert "<table>" in (out / "report.html").read_text()
    first = {p.name: p.read_bytes() for p in out.iterdir()}
    again = runner.invoke(app, ["audit", str(root), "--no-cache"])
    assert again.exit_code == 0
    assert {p.name: p.read_bytes() for p in out.iterdir()} == first
    # the report inside .ragix is not audited on the next run
    doc = json.loads(runner.invoke(app, ["audit", "metrics", str(root), "--json"]).stdout)
    assert all(not f["path"].startswith(".ragix") for f in doc["data"]["files"])


def test_a_tree_without_history_still_reports(tmp_path, monkeypatch):
    monkeypatch.setenv("RAGIX_HOME", str(tmp_path / "home"))
    write(tmp_path / "t", {"a.py": COMPLEX})
    result = runner.invoke(app, ["audit", str(tmp_path / "t"), "--out", str(tmp_path / "r")])
    assert result.exit_code == 0, result.output
    md = (tmp_path / "r" / "report.md").read_text()
    assert "No git history was found" in md and "no git repository" in md
    assert not (tmp_path / "r" / "complexity_vs_churn.svg").exists()
