"""Paths stay beneath their roots, a failure inside the server is JSON without a traceback, a run the
profile forbids ends with the reason, and `ragix serve` refuses unsafe settings at the command line."""

from __future__ import annotations

import os
import sys

import pytest
from typer.testing import CliRunner

from ragix_core.cli import app
from ragix_core.serve.paths import NotBeneath, beneath
from tests.research.conftest import write_collection


def test_beneath_accepts_a_file_inside_and_refuses_every_way_out(tmp_path):
    root = tmp_path / "root"
    (root / "docs").mkdir(parents=True)
    (root / "docs" / "a.md").write_text("a")
    (tmp_path / "secret.md").write_text("s")
    os.symlink(tmp_path / "secret.md", root / "docs" / "link.md")
    os.symlink(root / "docs", root / "alias")
    assert beneath(root, "docs/a.md") == (root / "docs" / "a.md").resolve()
    for bad in ("../secret.md", "docs/../../secret.md", "/etc/passwd", "docs/link.md", "alias/a.md", "docs",
                "", "docs/missing.md", "docs/a.md\x00"):
        with pytest.raises(NotBeneath):
            beneath(root, bad)


def test_a_cited_chunk_is_read_only_beneath_its_root(serve, tmp_path):
    from ragix_core.research import DocumentIndex

    docs = write_collection(tmp_path / "docs")
    index = DocumentIndex.open(docs)
    index.update()
    index.close()
    (tmp_path / "outside.html").write_text("<p>secret</p>")
    server = serve(roots={"docs": docs})
    with server.client() as c:
        ok = c.get("/api/roots/docs/chunk", params={"chunk": "official/vantoria.html#0"})
        assert ok.status_code == 200 and "Quellmere" in ok.json()["text"]
        for chunk in ("../outside.html#0", "/etc/passwd#0", "official/vantoria.html#99"):
            response = c.get("/api/roots/docs/chunk", params={"chunk": chunk})
            assert response.status_code == 404 and "error" in response.json(), chunk
        assert c.get("/api/roots/nope/chunk", params={"chunk": "a#0"}).status_code == 404
        page = c.get("/roots/docs/chunk", params={"chunk": "official/vantoria.html#0"})
        assert page.status_code == 200 and "<pre>" in page.text


def test_a_failure_inside_the_server_is_json_without_a_traceback(serve, monkeypatch):
    from ragix_core.serve import catalog

    server = serve()

    def broken(*args, **kwargs):
        raise RuntimeError("the disk went away")

    monkeypatch.setattr(catalog, "list_past_runs", broken)
    with server.client() as c:
        response = c.get("/api/runs")
    assert response.status_code == 500 and response.json()["error"].startswith("internal error (RuntimeError)")
    assert "Traceback" not in response.text and "disk went away" not in response.text


def test_a_run_its_profile_forbids_ends_failed_with_the_reason(serve):
    server = serve()
    with server.client() as c:
        run = c.post("/api/runs", json={"goal": "How many lines does README.md have?", "profile": "safe"}).json()
        done = server.wait_for(run["id"])
    assert done["status"] == "failed" and "allows cloud models only" in done["error"]


@pytest.mark.parametrize("args, words", [
    (["--host", "0.0.0.0"], "needs --token"),
    (["--root", "/nonexistent/dir"], "is not a directory"),
    (["--root", "a=.", "--root", "a=/tmp"], "same name"),
    (["--profile", "root"], "unknown profile 'root'"),
])
def test_ragix_serve_refuses_unsafe_or_broken_settings(args, words, tmp_path, monkeypatch):
    monkeypatch.setenv("RAGIX_HOME", str(tmp_path / "home"))
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(app, ["serve"] + args)
    assert result.exit_code == 2 and words in result.output and "Traceback" not in result.output


def test_the_server_process_has_no_terminal_to_ask_for_write_approval():
    import pty
    import subprocess

    code = ("import sys; from ragix_core.cli.serve_cmd import detach_terminal_input; before = sys.stdin.isatty(); "
            "detach_terminal_input(); print(before, sys.stdin.isatty(), sys.stdin.read() == '')")
    leader, follower = pty.openpty()  # the server started from a terminal
    try:
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, stdin=follower)
    finally:
        os.close(leader)
        os.close(follower)
    assert out.stdout.split() == ["True", "False", "True"], out.stderr
