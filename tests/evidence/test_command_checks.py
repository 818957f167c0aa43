"""The checks both engines make of a command that ran (evidence/command_checks.py)."""

from ragix_core.evidence.command_checks import check_command


def test_each_check_is_made_and_a_path_searched_as_text_outranks_a_count_unit_mistake(tmp_path):
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "guide.md").write_text("one\ntwo\n")
    lines = "How many lines does docs/guide.md have?"
    assert check_command(lines, "wc -l docs/guide.md", tmp_path) == (None, None)
    doubt, mistake = check_command(lines, "grep -rl docs/guide.md . | wc -l", tmp_path)
    assert doubt and mistake is None  # the doubt is the more precise reason
    assert "counted the files" in check_command(lines, "find docs -name '*.md' | wc -l", tmp_path)[1]
    assert "du -b" in check_command("What is the size of docs, in bytes?", "du -sh docs", tmp_path)[1]
    assert "sort" in check_command("Which file is longest?", "find . | wc -l | sort -nr | head -n 1", tmp_path)[1]
    subdirs = "How many subdirectories does docs have?"
    assert "lists `docs` itself" in check_command(subdirs, "find docs -type d | wc -l", tmp_path)[1]
    assert check_command(subdirs, "find docs -mindepth 1 -type d | wc -l", tmp_path) == (None, None)
    hidden = "How many hidden files are here?"
    assert "`.` and `..`" in check_command(hidden, "ls -a | grep '^\\.' | wc -l", tmp_path)[1]
