"""Unquoted * and ? are expanded by ragix inside the project root, then validated like typed paths."""

from __future__ import annotations

import pytest

from ragix_core.tools import Limits
from ragix_core.tools.globbing import MAX_MATCHES, expand_globs
from ragix_core.tools.lexer import split_pipeline
from tests.tools.conftest import SECRET_TOKEN, make_box, sandboxes

LAYERS = [pytest.param("none", id="layer1")] + sandboxes()


def words(command, root):
    (stage,) = split_pipeline(command)
    return expand_globs(stage[0], stage, str(root))


def test_expansion_is_sorted_relative_and_skips_hidden_names(tmp_path):
    for rel in ("docs/b.md", "docs/a.md", "docs/.hidden.md", "docs/c.txt"):
        (tmp_path / rel).parent.mkdir(exist_ok=True)
        (tmp_path / rel).write_text("x\n")
    assert words("wc -l docs/*.md", tmp_path) == ["wc", "-l", "docs/a.md", "docs/b.md"]
    assert words("wc -l docs/.*.md", tmp_path) == ["wc", "-l", "docs/.hidden.md"]  # asked for explicitly
    assert words("cat docs/?.txt", tmp_path) == ["cat", "docs/c.txt"]
    assert words("cat 'docs/*.md'", tmp_path) == ["cat", "docs/*.md"]  # quoted: literal
    assert words("cat docs/*.rst", tmp_path) == ["cat", "docs/*.rst"]  # no match: literal, like bash


def test_a_file_named_like_an_option_cannot_become_one(tmp_path):
    (tmp_path / "-n").write_text("x\n")
    (tmp_path / "--help").write_text("x\n")
    (tmp_path / "a.txt").write_text("x\n")
    assert words("cat *", tmp_path) == ["cat", "./--help", "./-n", "a.txt"]


def test_ragix_state_and_git_never_match(tmp_path):
    for rel in (".ragix/experience/events.jsonl", ".git/HEAD", "src/a.py"):
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text("x\n")
    assert words("ls .*/*", tmp_path) == ["ls", ".*/*"]  # only .ragix/.git would match: nothing left
    assert words("ls */*", tmp_path) == ["ls", "src/a.py"]


def test_find_patterns_are_finds_own(tmp_path):
    (tmp_path / "README.md").write_text("x\n")
    assert words("find . -name *.md -type f", tmp_path) == ["find", ".", "-name", "*.md", "-type", "f"]
    assert words("find *.md", tmp_path) == ["find", "README.md"]  # a starting point is a path


@pytest.mark.parametrize("command", ["cat ../*", "cat /etc/pass*", "cat docs/../../*"])
def test_patterns_leaving_the_project_are_refused(command, tmp_path):
    from ragix_core.tools.refusal import Refusal

    (tmp_path / "docs").mkdir()
    with pytest.raises(Refusal, match="must stay inside the project"):
        words(command, tmp_path)


def test_too_many_matches_are_refused(tmp_path):
    from ragix_core.tools.refusal import Refusal

    for i in range(MAX_MATCHES + 1):
        (tmp_path / f"f{i}.txt").write_text("")
    with pytest.raises(Refusal, match=f"more than {MAX_MATCHES}"):
        words("cat *.txt", tmp_path)


@pytest.mark.parametrize("sandbox", LAYERS)
def test_globs_run_for_real_and_escapes_stay_refused(sandbox, world):
    box = make_box(world, sandbox, limits=Limits(timeout=30))
    ok = box.run_command("grep -c def src/*.py")
    assert ok.returncode == 0 and ok.stdout == "src/a.py:1\nsrc/b.py:1\n", ok
    assert ok.command.endswith("grep -c def src/a.py src/b.py")  # the trace shows what ran
    # link_secret and linkdir point outside, hard_secret is a hard link, fifo is a FIFO: a pattern
    # whose every match is one of them is refused; otherwise they are skipped, and stderr says so.
    for command in ("cat link*", "cat linkdir/*", "cat hard_*"):
        res = box.run_command(command)
        assert res.refused and SECRET_TOKEN not in res.stdout, (command, res)
    res = box.run_command("head -n 1 *")
    assert not res.refused and SECRET_TOKEN not in res.stdout + res.stderr, res
    assert "==> README.md <==" in res.stdout and "==> hard_secret <==" not in res.stdout
    assert "[ragix] skipped 1 multiply-linked file: hard_secret" in res.stderr
    assert "[ragix] skipped 2 paths resolving outside the project: link_secret, linkdir" in res.stderr


def test_a_double_star_component_matches_every_level_below_like_bash_globstar(tmp_path):
    for rel in ("src/a.py", "src/pkg/b.py", "src/pkg/deep/c.py", "src/.cache/d.py", "src/pkg/e.txt",
                ".ragix/x.py", ".git/y.py", "top.py"):
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text("x\n")
    assert words("grep -n x src/**/*.py", tmp_path) == ["grep", "-n", "x", "src/a.py", "src/pkg/b.py",
                                                         "src/pkg/deep/c.py"]  # zero or more levels; no hidden
    assert words("wc -l **/*.py", tmp_path) == ["wc", "-l", "src/a.py", "src/pkg/b.py", "src/pkg/deep/c.py",
                                                "top.py"]  # never .ragix or .git
    assert words("cat src/**/*.md", tmp_path) == ["cat", "src/**/*.md"]  # no match: literal, like bash
    assert words("cat 'src/**/*.py'", tmp_path) == ["cat", "src/**/*.py"]  # quoted: literal
    assert words("ls src/**", tmp_path) == ["ls", "src/a.py", "src/pkg"]  # nothing after it: bash's default


def test_a_double_star_does_not_follow_links_and_is_bounded(tmp_path, monkeypatch):
    from ragix_core.tools import globbing
    from ragix_core.tools.refusal import Refusal

    (tmp_path / "src" / "pkg").mkdir(parents=True)
    (tmp_path / "src" / "pkg" / "a.py").write_text("x\n")
    (tmp_path / "src" / "pkg" / "loop").symlink_to(tmp_path / "src")  # a walk following it never ends
    assert words("cat src/**/*.py", tmp_path) == ["cat", "src/pkg/a.py"]
    monkeypatch.setattr(globbing, "MAX_WALKED", 2)
    with pytest.raises(Refusal, match="walks more than 2 entries"):
        words("cat src/**/*.py", tmp_path)
