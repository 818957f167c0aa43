"""`ragix run --resume SESSION` refuses what it cannot resume, saying why and what to do instead."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from ragix_core.cli import app
from ragix_core.runtime.run_control import RunRecord, save_record


@pytest.fixture()
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("RAGIX_HOME", str(tmp_path / "home"))
    return tmp_path / "home"


def _resume(*args: str):
    result = CliRunner().invoke(app, ["run", *args])
    return result.exit_code, " ".join(result.output.split())  # rich wraps long lines


def _record(tmp_path: Path, sid: str, strategy: str = "graph_v30", checkpoint: dict = None) -> Path:
    path = save_record(RunRecord(sid, "How many lines?", str(tmp_path), strategy))
    if checkpoint is not None:
        path.write_text(json.dumps(checkpoint))
    return path


def test_unknown_session_and_bad_ids(home):
    code, out = _resume("--resume", "20990101T000000-nothere")
    assert code == 2 and "no run '20990101T000000-nothere'" in out
    code, out = _resume("--resume", "../etc")
    assert code == 2 and "session id" in out


def test_a_finished_run_has_nothing_to_resume(home, tmp_path):
    _record(tmp_path, "done-1", checkpoint={"version": 1, "next_node": "END", "iterations": 5,
                                            "state": {"stop_reason": "success"}})
    code, out = _resume("--resume", "done-1")
    assert code == 2 and "finished (stop reason: success)" in out


def test_an_engine_without_checkpoints_says_start_again(home, tmp_path):
    _record(tmp_path, "res-1", strategy="research")
    code, out = _resume("--resume", "res-1")
    assert code == 2 and "keeps no checkpoint" in out and "--strategy research" in out


def test_a_run_stopped_before_its_first_checkpoint(home, tmp_path):
    _record(tmp_path, "early-1")
    code, out = _resume("--resume", "early-1")
    assert code == 2 and "no checkpoint yet" in out


def test_a_garbled_checkpoint_is_named(home, tmp_path):
    path = _record(tmp_path, "bad-1")
    path.write_text('{"version": 1, "next_node": "EXECUTE", "iter')
    code, out = _resume("--resume", "bad-1")
    assert code == 2 and "checkpoint" in out and "cannot be read" in out


def test_resume_takes_the_runs_own_settings(home, tmp_path):
    code, out = _resume("--resume", "x-1", "--strategy", "s0", "another goal")
    assert code == 2 and "leave out GOAL, --strategy" in out
    code, out = _resume()
    assert code == 2 and "give a GOAL, or --resume SESSION" in out
