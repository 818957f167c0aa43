"""ragix's own state (.ragix: traces, experience) is never read back as project evidence."""

from pathlib import Path

import pytest

from ragix_core.tools import ToolBox
from ragix_core.tools.bwrap import find_bwrap


@pytest.fixture()
def project(tmp_path: Path) -> Path:
    (tmp_path / ".ragix" / "reasoning_traces").mkdir(parents=True)
    (tmp_path / ".ragix" / "reasoning_traces" / "s.jsonl").write_text('{"goal": "find def execute"}\n')
    (tmp_path / "a.py").write_text("def execute():\n    pass\n")
    return tmp_path


@pytest.mark.parametrize("sandbox", ["none", "bwrap"])
def test_naming_the_state_dir_is_refused(project, sandbox):
    if sandbox == "bwrap" and not find_bwrap():
        pytest.skip("bubblewrap not installed")
    tb = ToolBox(project, profile="reflect", sandbox=sandbox)
    for cmd in ("cat .ragix/reasoning_traces/s.jsonl", "grep -rn execute .ragix", "ls .ragix"):
        r = tb.run_command(cmd)
        assert r.refused and "ragix's own state" in r.error, cmd


@pytest.mark.skipif(not find_bwrap(), reason="bubblewrap not installed")
def test_recursive_search_does_not_see_the_state_dir_under_bwrap(project):
    tb = ToolBox(project, profile="reflect", sandbox="bwrap")
    out = tb.run_command("grep -rn execute .").stdout
    assert "a.py" in out and ".ragix" not in out
    assert tb.run_command("find . -type f").stdout.split() == ["./a.py"]
