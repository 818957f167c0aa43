"""Engines that need no project run from wherever the user stands; the others say which directory to use.

Tried as a new user would: `ragix reason "What is 2+2?"` typed in the home directory stopped with
"project root '/root' is a system directory". The tree and chat now run in the per-user working area."""

from __future__ import annotations

from pathlib import Path

import pytest

from ragix_core.config import parse_config
from ragix_core.core.home import work_area
from ragix_core.core.registry import get_engine
from ragix_core.profiles import get_profile
from ragix_core.runtime.context import RunContext, usable_root
from ragix_core.tools.paths import check_root


@pytest.fixture()
def home(tmp_path, monkeypatch) -> Path:
    monkeypatch.setenv("RAGIX_HOME", str(tmp_path / "ragix-home"))
    return tmp_path / "ragix-home"


def open_run(engine: str, cwd: Path) -> RunContext:
    config = parse_config({"reasoning": {"traces": {"enabled": False}}})
    return RunContext.open(cwd=cwd, config=config, profile=get_profile("dev"), engine=get_engine(engine),
                           client_factory=lambda settings: None)


@pytest.mark.parametrize("engine", ["contractive", "chat"])
def test_an_engine_that_needs_no_project_runs_in_the_working_area_from_a_system_directory(home, engine):
    ctx = open_run(engine, Path("/"))
    try:
        assert ctx.cwd == work_area().resolve() and ctx.cwd.is_dir()
        assert str(ctx.cwd).startswith(str(home.resolve()))
    finally:
        ctx.close()


def test_a_project_directory_stays_the_root_of_an_engine_that_needs_none(home, tmp_path):
    project = tmp_path / "project"
    project.mkdir()
    assert usable_root(project) == project


@pytest.mark.parametrize("engine", ["graph_v30", "tutor", "s0"])
def test_an_engine_that_runs_commands_still_refuses_a_system_directory_and_says_what_to_do(home, engine):
    with pytest.raises(ValueError, match=r"system directory: run ragix from a project's directory or pass --cwd DIR"):
        open_run(engine, Path("/"))


def test_the_working_area_may_be_a_root_but_the_rest_of_ragix_home_may_not(home):
    work_area().mkdir(parents=True)
    check_root(str(work_area().resolve()))  # no error
    with pytest.raises(ValueError, match="overlaps ragix's own directory"):
        check_root(str(home.resolve()))
